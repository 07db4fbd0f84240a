"""The ``evaluate_kfold`` job: held-out predictions for a run's training images, as one stored evaluation.

For each of the spec's folds (``core.evaluation.kfold``): yolov5's own trainer (``train.main``, the run's
options through ``core.training.config.yolov5_options`` — the run's model, start weights, hyperparameters —
with the fold's data.yaml and the spec's few epochs) learns the other folds, then yolov5's validation of the
fold model's last weights (not best.pt: yolov5 picks it by fitness on this very fold) predicts the fold it never
saw, heard by the evaluate job's ``Collector``. After the
last fold the folds' statistics are merged the way ``val.run`` ends (``ap_per_class`` over every image's
``process_batch`` statistics, the confusion matrices added up), cleanlab scores the labels, and the result is
written to the store with ``predictions: "kfold"``: the train split, each image predicted exactly once, by a
model that did not learn it.

Events: ``kfold_progress`` (fold, folds, stage ``training``/``predicting``, epoch, epochs) besides the
evaluate job's ``eval_progress``; a stop request ends the job before the next batch (``done: stopped``,
nothing stored, its work folder removed). The fold models' weights are deleted once they have predicted (the
store keeps the evaluation, not k extra models).
"""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path
from typing import Any

import numpy as np

from core.evaluation.kfold import fold_data
from core.run.folder import RunFolder
from core.evaluation.kfold_request import class_names
from core.evaluation.store import save_evaluation
from core.i18n import tr
from core.worker.train_job import build_opt
from core.worker.evaluate_job import Collector, Stopped, build_result, stored_images, validate
from core.worker.job import JobContext


class FoldReporter:
    """The fold training's hooks: progress as ``kfold_progress`` and a stop before the next batch."""

    def __init__(self, ctx: JobContext, fold: int, folds: int, epochs: int) -> None:
        self.ctx, self.fold, self.folds, self.epochs = ctx, fold, folds, epochs
        self.epoch = 0

    def register(self, callbacks: Any) -> None:
        callbacks.register_action("on_train_batch_start", callback=self.on_train_batch_start)
        callbacks.register_action("on_train_epoch_start", callback=self.on_train_epoch_start)

    def on_train_batch_start(self, *args: Any) -> None:
        if self.ctx.stop_requested:
            raise Stopped

    def on_train_epoch_start(self, *args: Any) -> None:
        self.epoch += 1  # a fold never resumes: its epochs start at the first
        self.ctx.emit("kfold_progress", fold=self.fold + 1, folds=self.folds, stage="training", epoch=self.epoch,
                      epochs=self.epochs)


def _fold_opt(spec: dict[str, Any], data: Path, save_dir: Path) -> Any:
    """yolov5's ``opt`` for one fold: the run's options (the one mapping, ``yolov5_options``), the fold's data,
    the spec's epochs, one device, no resume, into the fold's folder."""
    run_spec = spec["run_spec"]
    fold_spec = {**run_spec, "run_dir": str(save_dir), "resume": False,
                 "resolved": {**run_spec["resolved"], "data": str(data)},
                 "config": {**run_spec["config"], "data": str(data), "epochs": int(spec["epochs"]),
                            "device": spec.get("device", ""), "nproc_per_node": 0, "nnodes": 1,
                            "save_period": -1}}
    opt = build_opt(fold_spec)
    # not noval: yolov5 7.0.14's train() then fails at the first epoch that is not the last (``map50s`` is bound
    # only by a validation: UnboundLocalError), found with a 2-epoch fold
    opt.noval = False
    opt.noplots = True  # yolov5's label and batch pictures of a fold are never looked at, and cost seconds
    return opt


def _train_fold(ctx: JobContext, index: int, data: Path, save_dir: Path) -> Path:
    """Train fold ``index``; the weights that predict its held-out images: last.pt — best.pt is chosen by its
    fitness on the held-out fold itself (yolov5 validates on the data.yaml's val), which would bias them."""
    from yolov5 import train as y5train
    from yolov5.utils.callbacks import Callbacks

    spec = ctx.spec
    callbacks = Callbacks()  # a fresh one: yolov5's default instance piles registrations up across runs
    FoldReporter(ctx, index, len(spec["folds"]), int(spec["epochs"])).register(callbacks)
    if spec["run_spec"]["config"].get("no_amp"):
        from core.worker.compat_amp import disable_amp

        disable_amp()  # the run trained without AMP (its --no-amp): so do its folds
    y5train.main(_fold_opt(spec, data, save_dir), callbacks=callbacks)
    last = RunFolder(save_dir).last_pt  # a fold trains in a yolov5 run folder: its owner says where
    if last.is_file():
        return last
    raise RuntimeError(tr("Fold {fold}'s training saved no weights in {path}.", fold=index + 1, path=save_dir))


def merged_metrics(collector: Collector, names: dict[int, str], nc: int) -> tuple[float, float, float, float]:
    """The folds' statistics merged as ``val.run`` ends: ``ap_per_class`` over every image (its curves go to
    the collector's stand-ins), the per-class table kept in the collector; (mp, mr, map50, map)."""
    import yolov5.utils.metrics as y5metrics
    from yolov5.utils.metrics import ap_per_class

    stats = [np.concatenate(x, 0) for x in zip(*collector.stats)] if collector.stats else []
    nt = np.bincount(stats[3].astype(int), minlength=nc) if stats else np.zeros(nc, int)
    p = r = ap50 = ap = np.zeros(0)
    classes = np.zeros(0, int)
    if stats and stats[0].any():
        saved = y5metrics.plot_pr_curve, y5metrics.plot_mc_curve
        y5metrics.plot_pr_curve, y5metrics.plot_mc_curve = collector.plot_pr_curve, collector.plot_mc_curve
        try:
            _tp, _fp, p, r, _f1, ap_all, classes = ap_per_class(*stats, plot=True, save_dir=Path("."), names=names)
        finally:
            y5metrics.plot_pr_curve, y5metrics.plot_mc_curve = saved
        ap50, ap = ap_all[:, 0], ap_all.mean(1)
    collector.per_class = {"nt": nt, "p": p, "r": r, "ap50": ap50, "ap": ap, "classes": classes}
    mean = (lambda a: float(a.mean()) if len(a) else 0.0)
    return mean(p), mean(r), mean(ap50), mean(ap)


def run_evaluate_kfold(ctx: JobContext) -> str:
    from core.worker.label_scores import score_images
    from core.worker.train_guards import dataset_folders_ok

    spec = ctx.spec
    store, folds, settings = Path(spec["store"]), spec["folds"], spec["settings"]
    if not dataset_folders_ok(ctx, Path(spec["data"])):
        return "stopped"
    names_list = class_names(Path(spec["data"]))
    names = dict(enumerate(names_list))
    nc = 1 if settings["single_cls"] else len(names)
    collector = Collector(ctx, 1)
    confusion = np.zeros((nc + 1, nc + 1))
    speeds: list[tuple[int, Any]] = []
    work = store / "folds"
    try:
        for index, held_out in enumerate(folds):
            fold_dir = work / f"fold{index}"
            shutil.rmtree(fold_dir, ignore_errors=True)  # a fold left by a stopped job starts again
            for cache in work.glob(f"fold{index}_*.cache"):
                cache.unlink()  # yolov5's label caches of our own lists: built again from the labels as they are
            data = fold_data(work, index, folds, names_list)
            ctx.emit("stage", stage="training", detail=tr(
                "fold {fold} of {folds}: training on {n} images for {epochs} epochs", fold=index + 1,
                folds=len(folds), n=sum(len(f) for i, f in enumerate(folds) if i != index), epochs=spec["epochs"]))
            weights = _train_fold(ctx, index, data, fold_dir)
            ctx.emit("kfold_progress", fold=index + 1, folds=len(folds), stage="predicting",
                     epoch=int(spec["epochs"]), epochs=int(spec["epochs"]))
            ctx.emit("stage", stage="evaluating", detail=tr(
                "fold {fold} of {folds}: predicting its {n} held-out images", fold=index + 1, folds=len(folds),
                n=len(held_out)))
            before = len(collector.images)
            collector.batches = max(1, -(-len(held_out) // int(settings["batch"])))
            _results, speed = validate(collector, str(weights), str(data), settings, fold_dir,
                                       device=spec.get("device", ""), workers=int(spec.get("workers", 2)),
                                       task="val")
            if collector.confusion is not None:
                confusion += collector.confusion
            speeds.append((len(collector.images) - before, speed))
            shutil.rmtree(RunFolder(fold_dir).weights, ignore_errors=True)
    except Stopped:
        shutil.rmtree(work, ignore_errors=True)  # a stopped k-fold keeps nothing: the next one starts afresh
        with contextlib.suppress(OSError):
            store.rmdir()  # empty unless an evaluation was stored there before
        return "stopped"
    except BaseException:
        for weights in work.glob("fold*/weights"):
            shutil.rmtree(weights, ignore_errors=True)  # the fold models are not kept, however the job ends
        raise
    collector.confusion = confusion
    metrics = merged_metrics(collector, names, nc)
    count = max(1, sum(n for n, _ in speeds))
    speed = [sum(n * float(s[i]) for n, s in speeds) / count for i in range(3)]
    result = build_result(ctx, collector, metrics, speed, score_images, names)
    result.update(predictions="kfold", run=spec.get("run_name", ""),
                  kfold={"k": len(folds), "epochs": int(spec["epochs"]), "folds": [len(f) for f in folds]})
    save_evaluation(store, result, stored_images(collector))
    ctx.done_fields.update(store=str(store / "result.json"), metrics=result["metrics"])
    return "completed"
