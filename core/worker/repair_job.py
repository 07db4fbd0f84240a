"""The ``repair`` worker job: run the repair's pip command, report its progress, stop only when safe.

Spec: ``{"argv": [...], "run_dir": <folder for events.jsonl and worker.log>}`` — the argv built by
``core.install.repair.plan_repair`` (the GUI and CLI show the same command before asking). pip's output
goes to ``worker.log`` line by line (the full record), and is folded by ``PipProgress`` into
``repair_progress`` events (phase, what it is doing, the current file's fraction, whether a stop is still
safe) at most every ``EMIT_INTERVAL_S``. A stop is obeyed while pip resolves or downloads; once it replaces
files a killed pip would leave PyTorch half uninstalled, so the stop waits for the end (``warning``).
Imports no torch: it is the one thing this job replaces.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any

from core.i18n import tr
from core.install.pip_progress import PipProgress
from core.protocol import EventWriter
from core.worker.control import ControlChannel

EMIT_INTERVAL_S = 0.25


def run_repair(spec: dict[str, Any], writer: EventWriter, control_fd: int) -> int:
    started = time.time()
    run_dir = Path(spec["run_dir"])
    control = ControlChannel(run_dir / "control.jsonl")
    control.start(control_fd)
    writer.emit("stage", stage="repair", command=spec["argv"])
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONIOENCODING="utf-8")
    env.pop("PYTHONPATH", None)  # pip must see the app's venv as it is
    try:
        proc = subprocess.Popen(spec["argv"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, encoding="utf-8", errors="replace", bufsize=1,
                                env=env)
    except OSError as exc:
        writer.emit("error", kind="repair", message=str(exc), hint=tr("Run the command in a terminal to see why."))
        writer.emit("done", status="failed", elapsed_s=time.time() - started)
        return 1
    progress = PipProgress()
    last_emit = 0.0
    stopped = warned = False
    assert proc.stdout is not None
    for line in proc.stdout:
        print(line, end="", flush=True)  # fd 1 is worker.log
        changed = progress.feed(line)
        if not line.startswith("Progress "):
            writer.emit("log", level="info", message=line.rstrip("\n"))
        now = time.monotonic()
        if changed and (now - last_emit >= EMIT_INTERVAL_S or not line.startswith("Progress ")):
            last_emit = now
            writer.emit("repair_progress", phase=progress.phase, text=progress.describe(),
                        fraction=progress.fraction, cancellable=progress.cancellable)
        if control.stop_requested.is_set() and not stopped:
            if progress.cancellable:
                stopped = True
                proc.kill()  # nothing replaced yet: safe
            elif not warned:
                warned = True
                writer.emit("warning", code="repair-not-stoppable",
                            message=tr("pip is replacing PyTorch's files now; stopping it would leave PyTorch "
                                       "half installed. It will finish in a moment."))
    code = proc.wait()
    control.close()
    if stopped:
        writer.emit("done", status="stopped", elapsed_s=time.time() - started)
        return 3
    if code != 0:
        writer.emit("error", kind="repair", message="\n".join(progress.errors) or tr("pip exited with code {code}",
                                                                                     code=code),
                    hint=tr("The full pip output is in {log}.", log=run_dir / "worker.log"))
        writer.emit("done", status="failed", elapsed_s=time.time() - started)
        return 1
    writer.emit("done", status="completed", elapsed_s=time.time() - started)
    return 0
