"""The ``repair`` worker job: run the repair's pip command, report its progress, stop only when safe.

Spec: ``{"argv": [...], "run_dir": <folder for events.jsonl and worker.log>, "builds": [{"tag", "argv",
"check"}, ...]}`` — built by ``core.install.repair.RepairPlan.job_spec`` (the GUI and CLI show ``argv``
before asking). Before pip installs anything, each build's ``check`` (pip's dry run against the index,
``core.install.index_check``) is run in order; the first one served is installed — a ``warning`` event says
why when it is not the first — and none served stops the job with the reason, nothing changed. pip's output
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
from core.install.index_check import answer, moved_reason, why
from core.install.pip_progress import PipProgress
from core.worker.job import JobContext, JobError

EMIT_INTERVAL_S = 0.25


def _ask(argv: list[str], env: dict[str, str], ctx: JobContext) -> tuple[int | None, list[str]]:
    """Run one dry run (its lines to worker.log); None as the code when a stop came (it changes nothing)."""
    print("$ " + " ".join(argv), flush=True)
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, encoding="utf-8", errors="replace", bufsize=1, env=env)
    except OSError as exc:
        raise JobError("repair", str(exc), tr("Run the command in a terminal to see why.")) from exc
    lines: list[str] = []
    assert proc.stdout is not None
    for line in proc.stdout:
        print(line, end="", flush=True)
        lines.append(line.rstrip("\n"))
        del lines[:-200]
        if ctx.control.stop_requested.is_set():
            proc.kill()
            proc.wait()
            return None, lines
    return proc.wait(), lines


def _index_of(argv: list[str]) -> str:
    return argv[argv.index("--index-url") + 1] if "--index-url" in argv[:-1] else "?"


def served_build(spec: dict, env: dict[str, str], ctx: JobContext) -> list[str] | None:
    """The install argv of the first build in ``spec["builds"]`` the index serves (``index_check``: pip's dry
    run), saying why when it is not the first; ``spec["argv"]`` when the spec lists no builds; None when
    stopped. Raises ``JobError`` — before anything changed — when none is served or the index cannot be asked."""
    builds = spec.get("builds") or []
    if not builds:
        return spec["argv"]
    refused: list[str] = []
    for build in builds:
        index = _index_of(build["check"])
        ctx.writer.emit("repair_progress", phase="resolving", fraction=None, cancellable=True,
                        text=tr("Asking {index} for {tag}", index=index, tag=build["tag"]))
        code, lines = _ask(build["check"], env, ctx)
        if code is None:
            return None
        state = answer(code, lines)
        if state == "failed":
            raise JobError("repair", tr("pip could not ask {index} whether it serves {tag}: {why}", index=index,
                                        tag=build["tag"], why=why(lines) or tr("exit code {code}", code=code)),
                           tr("Nothing was changed. Check the network connection (or the proxy pip uses), then "
                              "try again."))
        if state == "served":
            if refused:
                ctx.writer.emit("warning", code="repair-build-not-served", tag=build["tag"], argv=build["argv"],
                                command=build.get("command", " ".join(build["argv"])),
                                message=moved_reason(build["tag"], builds[0]["tag"], refused,
                                                     _index_of(builds[0]["check"])))
            return build["argv"]
        refused.append(tr("{tag}: {why}", tag=build["tag"], why=why(lines)))
    raise JobError("repair", tr("{index} serves none of the PyTorch builds that fit this machine ({tags}): {why}",
                                index=_index_of(builds[0]["check"]), tags=", ".join(b["tag"] for b in builds), why="; ".join(refused)),
                   tr("Nothing was changed."))


def run_repair(ctx: JobContext) -> str:
    """pip to its end (``completed``), ``stopped`` while still safe to stop; raises ``JobError`` on failure."""
    spec, writer, control = ctx.spec, ctx.writer, ctx.control
    run_dir = Path(spec["run_dir"])
    writer.emit("stage", stage="repair", command=spec["argv"])
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONIOENCODING="utf-8")
    env.pop("PYTHONPATH", None)  # pip must see the app's venv as it is
    argv = served_build(spec, env, ctx)
    if argv is None:
        return "stopped"
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
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
