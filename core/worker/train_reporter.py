"""The training job's reporter: yolov5's callbacks turned into protocol events, and the graceful stop.

``TrainReporter`` registers on the fresh ``Callbacks`` that ``core.worker.train_job.run_train`` hands yolov5's
``train.main``: each hook becomes events (stages, batches with their timing, epochs with their metrics,
checkpoints), and on a stop request the batch hook saves a resumable ``last.pt`` of the work done so far
(``save_partial_checkpoint``: model, EMA, optimizer, marked as a partial epoch) before ``done`` says
``stopped``. Split from ``train_job`` (the job's set-up and its ending) so each module is about one thing.
"""

from __future__ import annotations

import logging
import math
import os
import sys
import threading
import time
from copy import deepcopy
from datetime import datetime
from pathlib import Path
from types import FrameType
from typing import Any


from core.i18n import tr
from core.job.protocol import EventWriter
from core.run.folder import BEST_WEIGHTS
from core.worker.batch_log import BatchLog, batch_row
from core.worker.batch_timer import BatchTimer
from core.worker.control import ControlChannel
from core.worker import compat
from core.worker.ddp import LoaderClock, RankExchange, RankStop
from core.worker.train_guards import non_finite_loss_error
from core.worker.warm_start import trace_graph_now

WARMUP_BATCHES = 3
log = logging.getLogger("yolostudio.worker.train")


def _train_frame() -> FrameType | None:
    """The frame of yolov5's ``train()`` — the only place its model/EMA/optimizer live during a run."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "train" and frame.f_code.co_filename.endswith(os.path.join("yolov5", "train.py")):
            return frame
        frame = frame.f_back
    return None


def save_partial_checkpoint(local: dict[str, Any], batches_done: int) -> Path:
    """Write ``last.pt`` with the work of the interrupted epoch, atomically, in yolov5's format."""
    import torch
    from yolov5 import __version__ as yolov5_version
    from yolov5.utils.torch_utils import de_parallel

    model, ema, epoch = local["model"], local["ema"], int(local["epoch"])
    ema.update_attr(model, include=["yaml", "nc", "hyp", "names", "stride", "class_weights"])
    ckpt = {
        "epoch": epoch - 1,  # resume redoes this epoch, from the weights reached so far
        "best_fitness": local["best_fitness"],
        "model": deepcopy(de_parallel(model)).half(),
        "ema": deepcopy(ema.ema).half(),
        "updates": ema.updates,
        "optimizer": local["optimizer"].state_dict(),
        "opt": vars(local["opt"]),
        "date": datetime.now().isoformat(),
        "yolov5pip_version": yolov5_version,
        "yolostudio_partial": {"epoch": epoch, "batches_done": batches_done},
    }
    last = Path(local["last"])
    compat.save_checkpoint(getattr(torch.save, "original", torch.save), ckpt, last)  # temp file, fsync, rename
    return last


def allow_partial_resume() -> None:
    """yolov5 refuses to resume a checkpoint whose epoch is -1; ours is a stop inside epoch 0."""
    from yolov5 import train as y5train

    original = y5train.smart_resume
    if getattr(original, "_yolostudio", False):
        return

    def smart_resume(ckpt: dict[str, Any], optimizer: Any, ema: Any = None, weights: str = "", epochs: int = 300,
                     resume: bool = True) -> Any:
        partial = ckpt.get("yolostudio_partial")
        return original(ckpt, optimizer, ema, weights, epochs, resume and not partial)

    smart_resume._yolostudio = True  # type: ignore[attr-defined]
    y5train.smart_resume = smart_resume


class TrainReporter:
    """yolov5 hooks → protocol events; also where a stop request turns into a saved checkpoint."""

    def __init__(self, writer: EventWriter, control: ControlChannel, callbacks: Any,
                 exchange: RankExchange | None = None) -> None:
        self.writer = writer
        self.control = control
        self.callbacks = callbacks
        self.exchange = exchange  # DDP: the per-batch exchange between ranks (None for one process)
        self.loader_clock = LoaderClock()
        self.started_in_epoch = 0
        self.timer = BatchTimer()
        self.batch_log = BatchLog()
        self.epoch = 0
        self.epochs = 0
        self.batches = 0
        self.epoch_t0 = time.time()
        self.stopped_at: dict[str, Any] | None = None
        self.final_results: list[float] | None = None
        self.best_path: str = ""
        self.last_path: str = ""
        self.validating = False
        self.run_batches = 0
        self.training_over = False  # the final validation draws its own pictures
        self.names: Any = None
        self.save_dir: Path | None = None
        self.noplots = False

    def register(self) -> None:
        for hook in ("on_pretrain_routine_start", "on_pretrain_routine_end", "on_train_start",
                     "on_train_epoch_start", "on_train_batch_start", "on_train_batch_end", "on_val_start",
                     "on_val_batch_end", "on_fit_epoch_end", "on_model_save", "on_train_end"):
            self.callbacks.register_action(hook, name="yolostudio", callback=getattr(self, hook))

    # -- stages ---------------------------------------------------------------------------------------
    def on_pretrain_routine_start(self, *args: Any) -> None:
        self.writer.emit("stage", stage="preparing")  # the stage's own words say it (core/run/words.py)

    def on_val_batch_end(self, batch_i: int, im: Any, targets: Any, paths: Any, shapes: Any, out: Any) -> None:
        """yolov5 draws validation predictions only in its final validation; the live view wants them every
        epoch, so the first val batch of each epoch is drawn to ``val_batch0_pred.jpg`` (in a thread, as
        yolov5 does; written under a temporary name and renamed, so a reader never sees half a JPEG)."""
        if batch_i != 0 or self.training_over or self.noplots or self.save_dir is None:
            return
        from yolov5.utils.plots import output_to_target, plot_images

        target = self.save_dir / "val_batch0_pred.jpg"
        targets_drawn = output_to_target(out)
        images = im.detach().cpu()

        def draw() -> None:
            tmp = target.with_name(".val_batch0_pred.tmp.jpg")
            try:
                drawing = plot_images(images, targets_drawn, paths, tmp, self.names)  # yolov5 threads it itself
                if isinstance(drawing, threading.Thread):
                    drawing.join()
                if tmp.exists():
                    os.replace(tmp, target)
            except Exception:  # noqa: BLE001 - a picture must never end a training run
                log.warning("the validation preview %s was not drawn", target, exc_info=True)

        threading.Thread(target=draw, name="val-preview", daemon=True).start()

    def on_pretrain_routine_end(self, labels: Any, names: Any) -> None:
        self.names = names
        self.writer.emit("stage", stage="ready", names=list(names.values()) if isinstance(names, dict) else names,
                         instances=int(len(labels)))

    def on_train_start(self, *args: Any) -> None:
        frame = _train_frame()
        graph_s = None
        if frame is not None:
            self.save_dir = Path(frame.f_locals["save_dir"])
            self.noplots = bool(getattr(frame.f_locals.get("opt"), "noplots", False))
            if self.exchange is not None and frame.f_locals.get("train_loader") is not None:
                self.loader_clock.wrap(frame.f_locals["train_loader"])  # every rank times its own loader
            graph_s = trace_graph_now(frame.f_locals)  # before the epoch clock, not in batch 1's data wait
        self.writer.emit("stage", stage="training",
                         **({"tensorboard_graph_s": round(graph_s, 3)} if graph_s is not None else {}))

    def on_val_start(self, *args: Any) -> None:
        if not self.validating:
            self.validating = True
            self.writer.emit("stage", stage="validating", epoch=self.epoch)

    # -- epochs and batches ---------------------------------------------------------------------------
    def on_train_epoch_start(self, *args: Any) -> None:
        frame = _train_frame()
        local = frame.f_locals if frame is not None else {}
        self.epoch = int(local.get("epoch", self.epoch))
        self.epochs = int(local.get("epochs", self.epochs))
        loader = local.get("train_loader")
        self.batches = len(loader) if loader is not None else 0
        self.epoch_t0 = time.time()
        self.validating = False
        self.started_in_epoch = 0
        self.timer.epoch_start()
        self.writer.emit("epoch_start", epoch=self.epoch, epochs=self.epochs, batches=self.batches)

    def on_train_batch_start(self, *args: Any) -> None:
        self.timer.batch_start()
        index, self.started_in_epoch = self.started_in_epoch, self.started_in_epoch + 1
        if self.exchange is None:
            return
        # Every rank, every batch: one exchange decides a stop for all of them before the same batch.
        wait_s, step_s = self.loader_clock.take()
        if self.exchange.at_batch_start(self.control.stop_requested.is_set(), wait_s, step_s):
            if self.exchange.info.rank == 0:
                self._stop_now(index)
            self.stopped_at = {"epoch": self.epoch, "batches_done": index}
            raise RankStop()

    def on_train_batch_end(self, model: Any, ni: int, imgs: Any, targets: Any, paths: Any, vals: Any) -> None:
        import torch

        index = int(ni) - self.batches * self.epoch
        stop = self.control.stop_requested.is_set()
        last_of_epoch = index >= self.batches - 1
        losses = tuple(float(v) for v in vals)  # yolov5's running means: once NaN, NaN for the rest of the run
        diverged = not all(math.isfinite(v) for v in losses)
        timing = self.timer.batch_end(int(imgs.shape[0]),
                                      force_emit=stop or last_of_epoch or index == 0 or diverged)
        self.run_batches += 1
        if timing.emit:
            box, obj, cls = losses
            self.writer.emit(
                "batch", epoch=self.epoch, epochs=self.epochs, index=index, count=self.batches,
                losses={"box": box, "obj": obj, "cls": cls}, instances=int(targets.shape[0]),
                imgsz=int(imgs.shape[-1]), batch_size=int(imgs.shape[0]),
                data_wait_s=timing.data_wait_s, step_s=timing.step_s, window=timing.window.to_dict(),
                images_per_s=timing.window.images_per_s, warmup=self.run_batches <= WARMUP_BATCHES,
                gpu_mem_gb=torch.cuda.memory_reserved() / 1024**3 if torch.cuda.is_available() else None,
                **({"ranks": self.exchange.take_window()} if self.exchange is not None else {}))
        if self.batch_log.due(index, self.batches):  # yolov5's console row, which only worker.log had
            mem = torch.cuda.memory_reserved() / 1e9 if torch.cuda.is_available() else None
            self.writer.emit("log", level="info", message=batch_row(
                self.epoch, self.epochs, mem, tuple(float(v) for v in vals), int(targets.shape[0]),
                int(imgs.shape[-1]), index + 1, self.batches))
        if diverged:  # yolov5 would train on, every loss NaN, to a "completed" run with useless weights
            raise non_finite_loss_error(self.epoch, index, dict(zip(("box", "obj", "cls"), losses)))
        if stop and not (last_of_epoch and self.epoch >= self.epochs - 1) and self.exchange is None:
            self._stop_now(index + 1)  # the last batch of the last epoch: nothing left to stop (see run_train)

    def _stop_now(self, batches_done: int) -> None:
        frame = _train_frame()
        if frame is None:
            self.writer.emit("warning", code="stop-no-checkpoint",
                             message="Stopping without a new checkpoint: the trainer's state was not reachable.")
        else:
            self.writer.emit("stage", stage="saving", detail=tr("saving a resumable checkpoint"))
            path = save_partial_checkpoint(frame.f_locals, batches_done)
            self.last_path = str(path)
            self.writer.emit("checkpoint", path=str(path), epoch=self.epoch, reason="stop",
                             batches_done=batches_done, batches=self.batches)
        self.stopped_at = {"epoch": self.epoch, "batches_done": batches_done}
        self.callbacks.stop_training = True

    def on_fit_epoch_end(self, vals: Any, epoch: int, best_fitness: Any, fi: Any) -> None:
        import numpy as np

        frame = _train_frame()
        local = frame.f_locals if frame is not None else {}
        loggers = local.get("loggers")
        keys = list(getattr(loggers, "keys", [])) + list(getattr(loggers, "class_name_keys", []))
        metrics = {k: float(v) for k, v in zip(keys, vals)} if keys else {f"v{i}": float(v) for i, v in enumerate(vals)}
        fitness = float(np.asarray(fi).reshape(-1)[0])
        best = float(np.asarray(best_fitness).reshape(-1)[0])
        self.writer.emit("epoch_end", epoch=int(epoch), epochs=self.epochs, metrics=metrics, fitness=fitness,
                         best_fitness=best, is_best=fitness >= best, epoch_time_s=time.time() - self.epoch_t0,
                         timing=self.timer.epoch.to_dict())

    def on_model_save(self, last: Any, epoch: int, final_epoch: bool, best_fitness: Any, fi: Any) -> None:
        import numpy as np

        self.training_over = bool(final_epoch)
        self.last_path = str(last)
        is_best = float(np.asarray(fi).reshape(-1)[0]) >= float(np.asarray(best_fitness).reshape(-1)[0])
        best_path = str(Path(last).with_name(BEST_WEIGHTS)) if is_best else ""  # yolov5 saves both in one folder
        if best_path:
            self.best_path = best_path
        self.writer.emit("checkpoint", path=str(last), epoch=int(epoch), reason="epoch", best_path=best_path)

    def on_train_end(self, last: Any, best: Any, epoch: int, results: Any) -> None:
        self.final_results = [float(x) for x in results]
        self.last_path = str(last) if Path(last).exists() else self.last_path
        self.best_path = str(best) if Path(best).exists() else self.best_path
        self.writer.emit("stage", stage="finished")


