"""Entry point of every worker job: ``python -m core.worker <job> SPEC.json`` — and everything around a job.

A job is a function ``run(ctx) -> status`` (``core/worker/job.py``) listed in ``JOBS`` below; this
module owns the rest, the same for every job: the streams, ``stage: starting``, the job's stack (for a
job that uses torch/yolov5: ``compat.apply`` — the offline and trust patches — then ``hello`` with the
versions and devices), the control channel (stdin and ``<run_dir>/control.jsonl``; a stop request is
announced as ``stage: stopping``), an exception → its ``error`` event, and the final ``done``.

Before anything heavy is imported, the worker claims its standard streams: protocol events go to the
original stdout (the launcher's pipe), while fd 1 and fd 2 are pointed at ``<run_dir>/worker.log`` so a
library's prints, warnings and C-level messages can neither corrupt the event stream nor be lost —
and nothing breaks when the launcher goes away and the pipe closes. The first event, ``stage:
starting`` with this process's pid and start time, is what lets anyone tell later whether the worker
is still alive. Spawn-safe (no fork assumptions), so it runs the same on Windows.

Under ``torch.distributed.run`` the same entry runs once per rank (``core/worker/ddp.py``): the first rank
of each node (rank 0 on node 0: the run's record) writes the events and reads stdin; the other ranks log to
``worker.rank<N>.log`` and write no events. ``stage: starting`` then names torchrun's agent, the process
whose life is the run's.
"""

from __future__ import annotations

import argparse
import faulthandler
import importlib
import json
import os
import signal
import sys
import time
from pathlib import Path
from dataclasses import dataclass
from typing import Any, Callable

import psutil

from core.disk_space import SpaceReserve
from core.i18n import tr
from core.job.jobs import ends_with_launcher
from core.job.protocol import DONE_STATUSES, EventWriter
from core.run.owner import RunBusy, RunLock, busy_words
from core.run.files import EVENTS_FILE
from core.run.folder import CONTROL_FILE, WORKER_LOG
from core.worker.control import ControlChannel
from core.worker.ddp import RankInfo
from core.worker.job import JobContext
from core.worker.visible_gpus import restrict_to_device

#: Space set aside in the run folder while the worker runs (``core.disk_space.SpaceReserve``).
RESERVE_FILE = ".space-reserve"


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
        if hasattr(faulthandler, "register"):  # POSIX: `kill -USR1 <pid>` writes every thread's stack to the log
            faulthandler.register(signal.SIGUSR1, file=log, all_threads=True)
    return protocol, control_fd


def _own_session() -> None:
    """Leave the launcher's process group: Ctrl+C or a hang-up aimed at the GUI/terminal must not
    reach a run that the user may have chosen to keep going in the background. A job that must end with its
    launcher (``core.job.jobs.ends_with_launcher``: a search) learns of that end from its stdin's EOF instead,
    and the CLI passes its SIGTERM/SIGHUP on as the protocol's stop (``cli/jobs.py``)."""
    if hasattr(os, "setsid"):
        try:
            os.setsid()
        except OSError:
            pass  # already a session leader (e.g. started with start_new_session)


@dataclass(frozen=True)
class Job:
    target: str  # "module:function"; imported only when the job runs, so one job's imports never slow another's
    stack: bool = False  # uses torch/yolov5: compat is applied first, then ``hello`` names versions and devices
    # (a job that needs them only later calls ``ctx.prepare_stack()`` then)


#: Every worker job. To add one: a module with ``run(ctx) -> status`` and one line here (docs/architecture.md).
JOBS: dict[str, Job] = {
    "train": Job("core.worker.train_job:run_train", stack=True),
    "probe": Job("core.worker.probe_job:run_probe"),  # imports torch itself, step by step, to find a hang
    "export": Job("core.worker.export_job:run_export", stack=True),
    "predict": Job("core.worker.predict_job:run_predict", stack=True),
    "autolabel": Job("core.worker.autolabel_job:run_autolabel", stack=True),  # a run's proposals into a queue
    "evaluate": Job("core.worker.evaluate_job:run_evaluate", stack=True),
    "evaluate_kfold": Job("core.worker.evaluate_kfold:run_evaluate_kfold", stack=True),  # k trainings, held out
    "repair": Job("core.worker.repair_job:run_repair"),  # must not import the torch it replaces
    # The download needs no torch: the stack is prepared for the load check (ctx.prepare_stack()).
    "weights_get": Job("core.worker.weights_job:run_weights_get"),
    "weights_import": Job("core.worker.weights_job:run_weights_import", stack=True),
    "wizard_measure": Job("core.worker.wizard_job:run_wizard_measure", stack=True),
    "dataset_import": Job("core.worker.import_job:run_dataset_import"),  # no torch: Pillow, pycocotools
    "tune": Job("core.worker.tune_job:run_tune"),  # drives Ray Tune; each trial is a train worker of its own
}


def load_job(name: str) -> Callable[[JobContext], str]:
    module, _, function = JOBS[name].target.partition(":")
    return getattr(importlib.import_module(module), function)


def _prepare_stack(ctx: JobContext, function: Callable[[JobContext], str]) -> dict[str, Any]:
    """Apply yolov5's offline/trust patches for this job, then say hello (versions, devices)."""
    from core.trust import trusted_roots
    from core.worker import compat, stack
    from core.workspace import app_cache_dir

    compat.apply(app_cache_dir(ctx.workspace) / "yolov5",
                 trusted=trusted_roots(ctx.workspace, ctx.spec.get("trusted_weights", [])), workspace=ctx.workspace,
                 trusted_model=bool(ctx.spec.get("trusted_model")))
    extra = getattr(sys.modules[function.__module__], "hello_fields", None)
    return ctx.emit("hello", job=ctx.job, pid=os.getpid(), versions=stack.versions(), devices=stack.devices(),
                    **(extra(ctx.spec) if extra else {}))


def run_job(name: str, spec: dict[str, Any], writer: EventWriter, control_fd: int | None = None) -> int:
    """Run one job with everything around it; the process exit code (0 completed or stopped, 1 failed).

    Also the way tests run a job in-process (``control_fd`` None: only the control file, if any)."""
    started = time.time()
    run_dir = Path(spec["run_dir"]) if spec.get("run_dir") else None

    def on_stop(source: str) -> None:
        writer.emit("stage", stage="stopping", detail=tr("stop requested ({source})", source=source))

    control = ControlChannel(run_dir / CONTROL_FILE if run_dir else None, on_stop=on_stop,
                             eof_is_stop=ends_with_launcher(name, spec))
    control.start(control_fd)
    ctx = JobContext(name, spec, writer, control)
    try:
        function = load_job(name)
        ctx.stack_loader = lambda: _prepare_stack(ctx, function)
        if name == "train":
            restrict_to_device(spec)  # before the hello starts CUDA: yolov5's --device must pick these GPUs
        if JOBS[name].stack:
            ctx.prepare_stack()
        status = function(ctx)
    except BaseException as exc:  # noqa: BLE001 - every failure becomes an error event, then done(failed)
        ctx.report_error(exc)
        status = "failed"
    finally:
        control.close()
    status = status if status in DONE_STATUSES else "failed"
    writer.emit("done", status=status, elapsed_s=time.time() - started, **ctx.done_fields)
    return 1 if status == "failed" else 0


def restore_default_sigterm() -> None:
    """SIGTERM ends this process and its forked helpers again, even when the launcher ignored it.

    An ignored signal stays ignored across fork and exec, and some launchers ignore SIGTERM (pytest-xdist's
    workers do; a service manager or a shell may). multiprocessing's ``Pool.terminate`` ends its workers with
    SIGTERM and then waits for them: yolov5's label cache (``with Pool(NUM_THREADS)``) hung for good whenever a
    pool worker was still waiting for a task at that moment (seen twice in CI; the worker's stack dump showed
    it in ``Pool.terminate`` → ``join``, the pool worker in ``Queue.get``)."""
    if signal.getsignal(signal.SIGTERM) == signal.SIG_IGN:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def main(argv: list[str] | None = None) -> int:
    restore_default_sigterm()
    parser = argparse.ArgumentParser(prog="python -m core.worker", description="YOLO Studio worker job")
    parser.add_argument("job", choices=sorted(JOBS))
    parser.add_argument("spec", type=Path, help="the job's spec JSON file")
    args = parser.parse_args(argv)
    spec = json.loads(args.spec.read_text(encoding="utf-8"))
    if args.job == "tune":  # a local Ray on loopback only: enter its namespace before any thread starts
        from core.worker.tune_netns import confine_local_search

        confine_local_search(spec)
    # A job with a run folder keeps its events and log there; a short job (a probe) only streams.
    run_dir = Path(spec["run_dir"]) if spec.get("run_dir") else None
    lock: RunLock | None = None
    if run_dir is not None:
        run_dir.mkdir(parents=True, exist_ok=True)
    rank = RankInfo.from_env()
    if run_dir is not None and (rank is None or rank.writes_events):  # DDP: one owner per machine's folder
        try:
            lock = RunLock.acquire(run_dir, job=args.job)  # held until this process ends, however it ends
        except RunBusy as busy:
            return _refuse_busy(busy)
    _own_session()
    log_name = WORKER_LOG if rank is None or rank.rank == 0 else f"worker.rank{rank.rank}.log"
    protocol, control_fd = _claim_streams(run_dir / log_name if run_dir else None)
    reserve: SpaceReserve | None = None
    if rank is not None and not rank.writes_events:
        protocol.close()  # one voice per node: the other ranks' events would repeat (or garble) its stream
        os.close(control_fd)
        protocol, control_fd, events = None, None, None
    else:
        events = run_dir / EVENTS_FILE if run_dir else None
        reserve = SpaceReserve(run_dir / RESERVE_FILE) if run_dir else None  # the last words on a full disk
    writer = EventWriter(protocol, events, on_disk_full=reserve.release if reserve else None)
    # Under torchrun the run lives as long as its agent (it ends every rank when one fails).
    me = psutil.Process() if rank is None else psutil.Process().parent() or psutil.Process()
    writer.emit("stage", stage="starting", job=args.job, pid=me.pid, create_time=me.create_time(),
                python=sys.executable, started=time.time(),
                **({"rank": rank.rank, "rank_pid": os.getpid(), "topology": rank.topology} if rank else {}))
    try:
        return run_job(args.job, spec, writer, control_fd)
    finally:
        writer.close()
        if reserve is not None:
            reserve.release()
        if lock is not None:
            lock.release()


def _refuse_busy(busy: RunBusy) -> int:
    """Another worker owns the run folder: say so on stdout only — its events, log and control file are
    that worker's, and a line from this process there would end its run in every reader's eyes."""
    message, hint = busy_words(busy.run_dir, busy.owner)
    writer = EventWriter(sys.stdout)
    writer.emit("error", kind="run_busy", message=message, hint=hint, owner_pid=busy.owner.pid)
    writer.emit("done", status="failed", elapsed_s=0.0)
    return 1


if __name__ == "__main__":
    sys.exit(main())
