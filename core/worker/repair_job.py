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

from core.i18n import tr
from core.install.pip_progress import PipProgress
from core.worker.job import JobContext, JobError

EMIT_INTERVAL_S = 0.25


def run_repair(ctx: JobContext) -> str:
    """pip to its end (``completed``), ``stopped`` while still safe to stop; raises ``JobError`` on failure."""
    spec, writer, control = ctx.spec, ctx.writer, ctx.control
    run_dir = Path(spec["run_dir"])
    writer.emit("stage", stage="repair", command=spec["argv"])
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONIOENCODING="utf-8")
    env.pop("PYTHONPATH", None)  # pip must see the app's venv as it is
    try:
        proc = subprocess.Popen(spec["argv"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, encoding="utf-8", errors="replace", bufsize=1,
                                env=env)
    except OSError as exc:
        raise JobError("repair", str(exc), tr("Run the command in a terminal to see why.")) from exc
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
    if stopped:
        return "stopped"
    if code != 0:
        raise JobError("repair", "\n".join(progress.errors) or tr("pip exited with code {code}", code=code),
                       tr("The full pip output is in {log}.", log=run_dir / "worker.log"))
    return "completed"
