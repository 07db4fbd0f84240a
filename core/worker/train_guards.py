"""What the training job handles around yolov5's trainer: faults it would meet, and runs it can't resume.

- ``dataset_folders_ok``: a symlink loop, a pipe named like an image or a split that is the whole disk
  would hang yolov5's own image search; the same bounded search the dataset check uses finds them first
  (with progress, honouring a stop) and the job fails with the place named.
- ``label_caches_current``: yolov5 reuses its ``labels/*.cache`` while paths and total size match, so a
  same-size label edit would train on old labels (and the cache is a pickle): every cache not proven current
  is set aside before yolov5 builds its datasets (``core.dataset.yolo_cache``) — on every run, resume and DDP
  rank (each machine's local rank 0; the other ranks read the cache only after it built its dataset).
- ``training_was_finished`` / ``mark_finished``: a run killed after its last epoch was saved has nothing
  left to train; yolov5's resume then refuses or trips over its own loop variable, so the run is marked
  completed with the weights it has, and the user is told what did not run.
- ``remove_stale_temporaries``: a worker killed mid-save leaves its temporary checkpoint; the next owner
  of the run folder removes it.
- ``non_finite_loss_error``: a loss that turned NaN or infinite (a NaN hyperparameter, a learning rate far
  too high) never recovers — yolov5's running mean stays NaN — so the run fails at that batch, saying where.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.i18n import tr
from core.run.folder import RunFolder
from core.worker.job import JobContext, JobError


def dataset_folders_ok(ctx: JobContext, data_yaml: Path) -> bool:
    """Refuse what would hang yolov5's own image search — a symlink loop, a pipe named like an image, a
    split that is the whole disk — before it starts, with progress and honouring a stop. False: stopped."""
    from core.dataset.files import WalkLimits, blocking_findings
    from core.dataset.scan import ScanCancelled

    def progress(folders: int) -> None:
        ctx.emit("stage", stage="preparing", detail=tr("searching the dataset's folders: {n} so far", n=folders))

    ctx.emit("stage", stage="preparing", detail=tr("checking the dataset's folders"))
    try:
        found = blocking_findings(data_yaml, WalkLimits(progress=progress, cancelled=lambda: ctx.stop_requested))
    except ScanCancelled:
        return False
    if found:
        more = tr(" (and {n} more like it)", n=len(found) - 1) if len(found) > 1 else ""
        raise JobError("dataset", f"{found[0].file}: {found[0].message}{more}",
                       tr("Fix the dataset (yolostudio dataset check lists every such place), then train again."))
    return True


def label_caches_current(ctx: JobContext, data_yaml: Path) -> list[Path]:
    """Set aside every yolov5 label cache of the dataset that could hand yolov5 old labels; the ones moved."""
    import os

    from core.dataset.yolo_cache import set_aside_unproven

    if int(os.environ.get("LOCAL_RANK", "-1")) not in (-1, 0):
        return []
    ctx.emit("stage", stage="preparing", detail=tr("checking yolov5's label caches"))
    moved = set_aside_unproven(data_yaml)
    for path in moved:
        ctx.emit("log", level="info", message=tr(
            "yolov5's label cache {path} did not match the label files (or was not only label data): set aside "
            "as {aside}, so yolov5 reads the labels again.", path=path.with_suffix(""), aside=path))
    return moved


def training_was_finished(exc: BaseException) -> bool:
    """Did yolov5's resume fail because every epoch was already trained? Its refusal of a checkpoint that
    ``strip_optimizer`` finished (epoch -1), or — for one saved after the last epoch but not yet stripped —
    its epoch loop running zero times and then reading the loop variable (``UnboundLocalError: epoch``)."""
    message = str(exc)
    if isinstance(exc, UnboundLocalError):
        return "'epoch'" in message
    return "nothing to resume" in message and "is finished" in message


def mark_finished(ctx: JobContext, reporter: Any, run_dir: Path) -> str:
    """Resume of a run whose worker was killed after its last epoch and final save, before it could say so:
    there is nothing left to train, so the run is completed with the weights it has, and the user is told
    what did not happen (the final validation of best.pt)."""
    folder = RunFolder(run_dir)
    reporter.best_path = str(folder.best_pt)
    reporter.last_path = str(folder.last_pt)
    ctx.emit("warning", code="finished-before-kill",
             message=tr("This run had already trained all its epochs when its worker ended; it is now marked "
                        "completed with its weights ({best}). Its final validation did not run: the metrics "
                        "shown are those of its last epoch.", best=reporter.best_path))
    ctx.emit("stage", stage="finished")
    return "completed"


def remove_stale_temporaries(run_dir: Path) -> None:
    """A worker killed mid-save leaves its temporary checkpoint (``.last.pt.*.tmp``): this run's worker,
    owning the folder now, clears them (the complete checkpoints were never touched)."""
    for stale in RunFolder(run_dir).weights.glob(".*.tmp"):
        try:
            stale.unlink()
        except OSError:
            pass


def non_finite_loss_error(epoch: int, index: int, losses: dict[str, float]) -> JobError:
    """The failure of a run whose loss stopped being a number at batch ``index`` of ``epoch`` (0-based)."""
    shown = ", ".join(f"{name} {value:.4g}" for name, value in losses.items())
    return JobError("diverged", tr("The training loss is no longer a number at epoch {epoch}, batch {batch} "
                                   "({losses}); the run was stopped there, since it could not recover.",
                                   epoch=epoch + 1, batch=index + 1, losses=shown),
                    tr("Check the hyperparameters (a NaN, or a very large lr0 or label_smoothing) and the "
                       "labels, then train again."))
