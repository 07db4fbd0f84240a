"""The training job: yolov5's own trainer, in this process, reporting every step as protocol events.

``run_train`` builds yolov5's ``opt`` from the worker spec, hands ``train.main`` a *fresh* ``Callbacks``
(the package's default instance is shared and piles registrations up across runs) and turns each hook
into events. A graceful stop is the app's job — yolov5's ``stop_training`` returns without saving — so
on a stop request the hook saves a resumable ``last.pt`` of the work done so far (model, EMA,
optimizer), marked as a partial epoch, and ``done`` says ``stopped``. Resuming such a checkpoint redoes
the interrupted epoch from its start with the weights reached so far. The hooks and the stop's checkpoint are
``core/worker/train_reporter.py``'s ``TrainReporter``.

Under ``torch.distributed.run`` (several GPUs, several nodes, or CPU ranks over gloo) every rank runs this job
(``core/worker/ddp.py``): the nodes are checked to agree before training, every batch starts with one
exchange that carries the stop decision and each rank's timing (rank 0's ``batch`` events add ``ranks``), a
stop ends every rank before the same batch with one ``last.pt`` saved by rank 0, and a lost rank ends the run
as ``failed`` naming it.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from pathlib import Path
from typing import Any

import psutil

from core.atomic import atomic_write_text
from core.i18n import tr, tr_n
from core.environment.nvml import NvmlReader, NvmlUnavailable, error_words, open_nvml
from core.job.protocol import EventWriter
from core.run.dataset_version import VERSION_FILE, record_dataset_version
from core.run.folder import RunFolder
from core.training.config import yolov5_options
from core.worker.bottleneck_monitor import BottleneckMonitor
from core.worker import compat_ddp
from core.worker.compat_amp import disable_amp
from core.worker.compat_augment import GPU_AUGMENT_LOG, enable_batch_augment
from core.worker.compat_noval import allow_noval
from core.worker.ddp import RankInfo, RankStop, join_ranks, leave_process_group
from core.worker.lost_rank import lost_rank_error, watch_launcher
from core.worker.job import JobContext, JobError
from core.worker.train_guards import (dataset_folders_ok, label_caches_current, mark_finished,
                                      remove_stale_temporaries, training_was_finished)
from core.worker.system_sampler import SystemSampler
from core.worker.train_reporter import TrainReporter, allow_partial_resume
from core.worker.warn_once import show_each_warning_once

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: What the worker itself notes and carries on after (to stderr, which is the run's worker.log).
log = logging.getLogger("yolostudio.worker.train")


class EventLogHandler(logging.Handler):
    """yolov5's LOGGER lines become ``log`` events, so they are in events.jsonl for replay."""

    def __init__(self, writer: EventWriter) -> None:
        super().__init__(logging.INFO)
        self.writer = writer

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = _ANSI.sub("", record.getMessage()).strip("\n")
            if text.strip():
                self.writer.emit("log", level=record.levelname.lower(), message=text)
        except Exception:  # noqa: BLE001 - logging must never break training
            self.handleError(record)


def build_opt(spec: dict[str, Any]) -> Any:
    """yolov5's ``opt`` for a worker spec: yolov5's own defaults, then the spec's options (``yolov5_options``, the
    one mapping), then resume; the held-out folds build theirs here too (``core.worker.evaluate_kfold``)."""
    from yolov5 import train as y5train

    argv, sys.argv = sys.argv, sys.argv[:1]  # parse_opt reads sys.argv: give it yolov5's defaults only
    try:
        opt = y5train.parse_opt(known=True)
    finally:
        sys.argv = argv
    for key, value in yolov5_options(spec).items():
        setattr(opt, key, value)
    if spec.get("resume"):
        folder = RunFolder(spec["run_dir"])
        opt.resume = str(folder.last_pt)
        _resume_on_devices(folder.opt_yaml, str(spec.get("config", {}).get("device", "")))
    return opt


def _resume_on_devices(opt_yaml: Path, device: str) -> None:
    """yolov5's resume takes every option from the run's ``opt.yaml``: a resume on other GPUs (another count,
    re-checked before launch) must be written there, or each rank would pick the old device list."""
    import yaml

    try:
        saved = yaml.safe_load(opt_yaml.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        log.warning("%s cannot be read (%s): yolov5 takes the resumed run's options from its checkpoint",
                    opt_yaml, exc)
        return
    if isinstance(saved, dict) and saved.get("device") != device:
        saved["device"] = device
        atomic_write_text(opt_yaml, yaml.safe_dump(saved, sort_keys=False), backup=False)


def hello_fields(spec: dict[str, Any]) -> dict[str, Any]:
    """What this job adds to ``hello``: where it trains (the doctor judges a CPU run differently), and resume."""
    import torch

    on_gpu = torch.cuda.is_available() and str(spec.get("config", {}).get("device", "")).strip().lower() != "cpu"
    return {"device_type": "cuda" if on_gpu else "cpu", "resume": bool(spec.get("resume"))}


def run_train(ctx: JobContext) -> str:
    """Run one training to its end: ``completed``, or ``stopped`` after a graceful stop; raises on failure."""
    spec, writer = ctx.spec, ctx.writer
    run_dir = Path(spec["run_dir"])
    info = RankInfo.from_env()
    reporter: TrainReporter | None = None
    sampler: SystemSampler | None = None
    monitor: BottleneckMonitor | None = None
    try:
        show_each_warning_once()  # not one deprecation warning per batch in worker.log
        if info is not None:
            watch_launcher()
            compat_ddp.enable_ddp()
        allow_partial_resume()
        from yolov5 import train as y5train
        from yolov5.utils.callbacks import Callbacks
        from yolov5.utils.general import LOGGER

        LOGGER.handlers[:] = [EventLogHandler(writer)]
        cfg = spec.get("config", {})
        monitor = BottleneckMonitor(writer.emit, {"workers": cfg.get("workers"), "batch_size": cfg.get("batch"),
                                              "imgsz": cfg.get("imgsz"), "cache": cfg.get("cache"),
                                              "gpu_augment": cfg.get("gpu_augment")})
        if ctx.hello is not None:
            monitor.feed(ctx.hello)  # where it trains decides which verdicts apply
        writer.add_listener(monitor.feed)
        try:
            nvml: NvmlReader | None = open_nvml()
        except NvmlUnavailable as exc:
            nvml = None
            writer.emit("log", level="info", message=tr("GPU monitoring unavailable (NVML): {kind} ('{error}')",
                                                         kind=error_words(exc.kind), error=exc))
        sampler = SystemSampler(writer.emit, nvml=nvml, root=psutil.Process().parent() if info is not None else None)
        sampler.start()

        callbacks = Callbacks()
        exchange = join_ranks(ctx) if info is not None else None
        reporter = TrainReporter(writer, ctx.control, callbacks, exchange)
        reporter.register()
        opt = build_opt(spec)
        if cfg.get("no_amp"):
            disable_amp()
        if cfg.get("gpu_augment") == "on":
            enable_batch_augment()  # the loader only letterboxes; each batch is augmented on the device
            writer.emit("log", level="info", message=tr(GPU_AUGMENT_LOG))
        if cfg.get("noval"):
            allow_noval()  # yolov5 7.0.14 alone crashes on the first epoch it does not validate
        writer.emit("stage", stage="starting_trainer", resume=bool(spec.get("resume")))
        remove_stale_temporaries(run_dir)
        if not dataset_folders_ok(ctx, Path(opt.data)):
            return "stopped"
        label_caches_current(ctx, Path(opt.data))
        if info is None or info.rank == 0:
            keep_dataset_version(writer, run_dir, Path(opt.data), spec.get("from_run"))
        try:
            y5train.main(opt, callbacks=callbacks)
        except RankStop:
            pass  # every rank agreed to stop before this batch; rank 0 saved last.pt
        except Exception as exc:
            if spec.get("resume") and isinstance(exc, (AssertionError, UnboundLocalError)) \
                    and training_was_finished(exc):
                return mark_finished(ctx, reporter, run_dir)
            error = exc if exchange is None or isinstance(exc, JobError) else lost_rank_error(exchange.peers, exc)
            if error is exc:
                raise
            raise error from exc
        if ctx.stop_requested and reporter.stopped_at is None:
            writer.emit("warning", code="stop-after-training",
                        message=tr_n("The stop came as training was finishing: its {n} epoch is done, so the run "
                                     "completed with its final weights.",
                                     "The stop came as training was finishing: all {n} epochs are done, so the "
                                     "run completed with its final weights.", reporter.epochs))
    finally:
        if sampler is not None:
            sampler.stop()
        ctx.done_fields.update(_done_fields(reporter, monitor, run_dir))
        if info is not None:
            ctx.done_fields["topology"] = info.topology
            leave_process_group()
    return "stopped" if reporter is not None and reporter.stopped_at is not None else "completed"


def keep_dataset_version(writer: EventWriter, run_dir: Path, data: Path, parent: str | None) -> None:
    """Record the dataset version this run trains on (``core.run.dataset_version``), once: a resume keeps the
    first start's. A version that cannot be read or written is a log line, never a reason not to train."""
    if (run_dir / VERSION_FILE).exists():
        return
    try:
        record_dataset_version(run_dir, data, Path(parent) if parent else None)
    except (OSError, ValueError) as exc:
        writer.emit("log", level="warning", message=tr("The dataset version was not recorded: {reason}", reason=exc))


def _done_fields(reporter: TrainReporter | None, monitor: BottleneckMonitor | None, run_dir: Path) -> dict[str, Any]:
    """What ``done`` says about a training, however it ended (also written to efficiency.json)."""
    fields: dict[str, Any] = {}
    if monitor is not None:
        fields["efficiency"] = monitor.efficiency.summary()
        try:  # stored with the run for the runs table; the done event carries the same figures
            atomic_write_text(run_dir / "efficiency.json", json.dumps(fields["efficiency"], indent=2) + "\n",
                              backup=False)
        except OSError as exc:  # a full disk must not turn a finished run into a failed one
            log.warning("efficiency.json was not written (%s); the done event carries the same figures", exc)
    if reporter is not None:
        fields.update(best=reporter.best_path if Path(reporter.best_path or "-").exists() else "",
                      last=reporter.last_path if Path(reporter.last_path or "-").exists() else "",
                      epochs_completed=reporter.epoch + (0 if reporter.stopped_at else 1) if reporter.epochs else 0,
                      stopped_at=reporter.stopped_at, run_timing=reporter.timer.run.to_dict())
        if reporter.final_results:
            keys = ("precision", "recall", "map50", "map50_95", "val_box_loss", "val_obj_loss", "val_cls_loss")
            fields["final_metrics"] = dict(zip(keys, reporter.final_results))
    return fields
