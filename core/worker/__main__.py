"""Entry point of every worker job: ``python -m core.worker <job> SPEC.json``.

Before anything heavy is imported, the worker claims its standard streams: protocol events go to the
original stdout (the launcher's pipe), while fd 1 and fd 2 are pointed at ``<run_dir>/worker.log`` so a
library's prints, warnings and C-level messages can neither corrupt the event stream nor be lost —
and nothing breaks when the launcher goes away and the pipe closes. The first event, ``stage:
starting`` with this process's pid and start time, is what lets anyone tell later whether the worker
is still alive. Spawn-safe (no fork assumptions), so it runs the same on Windows.
"""

from __future__ import annotations

import argparse
import faulthandler
import importlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

import psutil

from core.protocol import EventWriter
from core.runs import EVENTS_FILE, WORKER_LOG


def _claim_streams(log_path: Path | None) -> tuple[Any, int]:
    """Returns (a text stream on the original stdout, a private fd on the original stdin).

    Afterwards fd 1 and 2 write to the log file (or fd 1 joins stderr when a job has no log file), and
    fd 0 reads /dev/null, so data-loader workers forked later hold neither pipe (see
    core/worker/control.py for the deadlock that avoids).
    """
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    control_fd = os.dup(0)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115
    sys.stdout.flush()
    sys.stderr.flush()
    if log_path is None:
        os.dup2(2, 1)
        faulthandler.enable()
    else:
        log = open(log_path, "ab", buffering=0)  # noqa: SIM115 - lives as long as the process
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
        faulthandler.enable(file=log)
    return protocol, control_fd


def _own_session() -> None:
    """Leave the launcher's process group: Ctrl+C or a hang-up aimed at the GUI/terminal must not
    reach a run that the user may have chosen to keep going in the background."""
    if hasattr(os, "setsid"):
        try:
            os.setsid()
        except OSError:
            pass  # already a session leader (e.g. started with start_new_session)


#: Job name -> "module:function"; a job is ``fn(spec, writer, control_fd) -> exit code`` and is imported
#: only when it runs, so one job's imports never slow another's start.
JOBS: dict[str, str] = {
    "train": "core.worker.train_job:run_train",
    "probe": "core.worker.probe_job:run_probe",
    "export": "core.worker.export_job:run_export",
    "predict": "core.worker.predict_job:run_predict",
    "repair": "core.worker.repair_job:run_repair",
}


def load_job(name: str) -> Callable[[dict[str, Any], EventWriter, int], int]:
    module, _, function = JOBS[name].partition(":")
    return getattr(importlib.import_module(module), function)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m core.worker", description="YOLO Studio worker job")
    parser.add_argument("job", choices=sorted(JOBS))
    parser.add_argument("spec", type=Path, help="the job's spec JSON file")
    args = parser.parse_args(argv)
    spec = json.loads(args.spec.read_text(encoding="utf-8"))
    # A job with a run folder keeps its events and log there; a short job (a probe) only streams.
    run_dir = Path(spec["run_dir"]) if spec.get("run_dir") else None
    if run_dir is not None:
        run_dir.mkdir(parents=True, exist_ok=True)
    _own_session()
    protocol, control_fd = _claim_streams(run_dir / WORKER_LOG if run_dir else None)
    writer = EventWriter(protocol, run_dir / EVENTS_FILE if run_dir else None)
    me = psutil.Process()
    writer.emit("stage", stage="starting", job=args.job, pid=me.pid, create_time=me.create_time(),
                python=sys.executable, started=time.time())
    try:
        return load_job(args.job)(spec, writer, control_fd)
    finally:
        writer.close()


if __name__ == "__main__":
    sys.exit(main())
