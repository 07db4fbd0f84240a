"""The ``evaluate`` job: yolov5's own ``val.run`` on a model, and everything the Evaluate view shows.

yolov5 computes the numbers — precision, recall, mAP@0.5, mAP@0.5:0.95 overall and per class, the confusion
matrix, the PR and F1-vs-confidence curves, the speed per image — and this job only listens to it:
- ``on_val_batch_end`` gives each image's predictions and labels; they are put in the original image's pixels
  with yolov5's ``scale_boxes`` and its per-image ``process_batch`` statistics kept (for the bootstrap
  interval, ``core.evaluation.bootstrap``, and the matching, ``core.evaluation.matching``);
- ``on_val_end`` gives the per-class table and the ``ConfusionMatrix``;
- ``ap_per_class`` draws its curves through ``plot_pr_curve`` / ``plot_mc_curve``: those two are replaced
  while the job runs by functions that keep the curve data (the app draws them itself).
Then cleanlab scores the labels (``core/worker/label_scores.py``), the errors are ranked, and the result is
written to the store (``core.evaluation.store``); ``done`` carries ``store`` and ``metrics``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

from core.evaluation.accuracy_facts import train_split_counts
from core.evaluation.bootstrap import bootstrap_map
from core.evaluation.fingerprint import split_images
from core.evaluation.matching import count_kinds, match_image
from core.evaluation.ranking import ranked_errors
from core.evaluation.store import save_evaluation
from core.evaluation.words import no_images_words
from core.i18n import tr
from core.worker.job import JobContext, JobError

#: Predictions kept in the store for the Errors browser [design: cleanlab's lowest threshold is 0.5, the
#: browser's confidence filter starts at 0.05; 0.01 keeps the file small with a margin].
STORED_CONF = 0.01
#: The lowest confidence an error is counted from: detect.py's and the confusion matrix's 0.25 (a weak model's
#: best-F1 threshold can be 0.0, which would list every 0.001 box as a mistake).
ERROR_CONF_FLOOR = 0.25
#: Points of each stored curve (yolov5 computes 1000 over confidence 0..1; every 10th is kept).
CURVE_STEP = 10


class Stopped(Exception):
    """The user asked the job to stop (raised from a validation batch)."""


class Collector:
    """Listens to ``val.run``: per-image boxes and statistics, the per-class table, the curves."""

    def __init__(self, ctx: JobContext, batches: int) -> None:
        self.ctx = ctx
        self.batches = batches
        self.images: list[dict[str, Any]] = []
        self.stats: list[tuple[np.ndarray, ...]] = []
        self.per_class: dict[str, Any] = {}
        self.confusion: np.ndarray | None = None
        self.curves: dict[str, Any] = {}
        self.last_progress = 0.0

    def on_val_batch_start(self) -> None:
        if self.ctx.stop_requested:
            raise Stopped

    def on_val_batch_end(self, batch_i: int, im: Any, targets: Any, paths: Any, shapes: Any, preds: Any) -> None:
        import torch
        from yolov5.utils.general import scale_boxes, xywh2xyxy
        from yolov5.val import process_batch

        iouv = torch.linspace(0.5, 0.95, 10, device=im.device)
        for si, pred in enumerate(preds):
            labels = targets[targets[:, 0] == si, 1:]
            shape = shapes[si][0]
            predn = pred.clone()
            scale_boxes(im[si].shape[1:], predn[:, :4], shape, shapes[si][1])
            tbox = xywh2xyxy(labels[:, 1:5])
            scale_boxes(im[si].shape[1:], tbox, shape, shapes[si][1])
            labelsn = torch.cat((labels[:, 0:1], tbox), 1)
            if len(pred) and len(labels):
                correct = process_batch(predn, labelsn, iouv)
            else:
                correct = torch.zeros(len(pred), 10, dtype=torch.bool)
            self.stats.append((correct.cpu().numpy(), pred[:, 4].cpu().numpy(), pred[:, 5].cpu().numpy(),
                               labels[:, 0].cpu().numpy()))
            self.images.append({"image": str(paths[si]), "height": int(shape[0]), "width": int(shape[1]),
                                "labels": labelsn.cpu().numpy(), "predictions": predn.cpu().numpy()})
        now = time.monotonic()
        if now - self.last_progress > 0.5 or batch_i + 1 == self.batches:
            self.last_progress = now
            self.ctx.emit("eval_progress", index=batch_i + 1, count=self.batches, images=len(self.images))

    def on_val_end(self, nt: Any, tp: Any, fp: Any, p: Any, r: Any, f1: Any, ap: Any, ap50: Any, ap_class: Any,
                   confusion_matrix: Any) -> None:
        self.per_class = {"nt": np.asarray(nt), "p": np.asarray(p), "r": np.asarray(r), "ap50": np.asarray(ap50),
                          "ap": np.asarray(ap), "classes": np.asarray(ap_class)}
        self.confusion = np.asarray(confusion_matrix.matrix)

    def plot_pr_curve(self, px: Any, py: Any, ap: Any, save_dir: Any = None, names: Any = ()) -> None:
        self.curves["pr"] = {"recall": np.asarray(px), "precision": [np.asarray(y) for y in py],
                             "names": dict(names)}

    def plot_mc_curve(self, px: Any, py: Any, save_dir: Any = None, names: Any = (), xlabel: str = "Confidence",
                      ylabel: str = "Metric") -> None:
        self.curves[ylabel] = {"confidence": np.asarray(px), "values": np.asarray(py), "names": dict(names)}


def _yolov5_map(tp: np.ndarray, conf: np.ndarray, pcls: np.ndarray, tcls: np.ndarray) -> tuple[float, float]:
    from yolov5.utils.metrics import ap_per_class

    if not len(conf) or not len(tcls) or not tp.any():
        return 0.0, 0.0
    names = {int(c): str(int(c)) for c in np.unique(np.r_[tcls, pcls])}
    *_, ap, _ = ap_per_class(tp, conf, pcls, tcls, names=names)
    return float(ap[:, 0].mean()), float(ap.mean(1).mean())


def _curves(collector: Collector, names: dict[int, str]) -> tuple[dict[str, Any], dict[str, float]]:
    """The stored curves (per class with data, every CURVE_STEP-th point) and the best-F1 threshold —
    chosen as ``ap_per_class`` chooses it: ``smooth(f1.mean(0), 0.1).argmax()``."""
    from yolov5.utils.metrics import smooth

    out: dict[str, Any] = {}
    best = {"confidence": 0.25, "f1": 0.0}
    f1 = collector.curves.get("F1")
    if f1 is not None and len(f1["values"]):
        i = int(smooth(f1["values"].mean(0), 0.1).argmax())
        best = {"confidence": float(f1["confidence"][i]), "f1": float(f1["values"].mean(0)[i])}
    for key, name in (("F1", "f1"), ("Precision", "precision"), ("Recall", "recall")):
        curve = collector.curves.get(key)
        if curve is None:
            continue
        out[name] = {"confidence": curve["confidence"][::CURVE_STEP].round(4).tolist(),
                     "classes": {str(n): v[::CURVE_STEP].round(4).tolist()
                                 for n, v in zip(curve["names"].values(), curve["values"])},
                     "all": curve["values"].mean(0)[::CURVE_STEP].round(4).tolist() if len(curve["values"]) else []}
    pr = collector.curves.get("pr")
    if pr is not None:
        out["pr"] = {"recall": pr["recall"][::CURVE_STEP].round(4).tolist(),
                     "classes": {str(n): y[::CURVE_STEP].round(4).tolist()
                                 for n, y in zip(pr["names"].values(), pr["precision"])},
                     "all": np.mean(pr["precision"], 0)[::CURVE_STEP].round(4).tolist() if pr["precision"] else []}
    return out, best


def _per_class(collector: Collector, names: dict[int, str], nc: int) -> list[dict[str, Any]]:
    table = collector.per_class
    nt = table.get("nt", np.zeros(nc))
    rows = {int(c): i for i, c in enumerate(table.get("classes", []))}
    out = []
    for c in range(nc):
        i = rows.get(c)
        row = {"id": c, "name": names.get(c, str(c)), "instances": int(nt[c]) if c < len(nt) else 0,
               "precision": None, "recall": None, "map50": None, "map": None}
        if i is not None:
            row.update(precision=float(table["p"][i]), recall=float(table["r"][i]), map50=float(table["ap50"][i]),
                       map=float(table["ap"][i]))
        out.append(row)
    return out


def _check_inputs(spec: dict[str, Any]) -> None:
    """The split to evaluate and the val split must have images: yolov5's ``check_dataset`` would otherwise
    try the data.yaml's ``download:`` (code from a file), and val.py fail deep inside."""
    data, split = Path(spec["data"]), spec["settings"]["split"]
    for name in dict.fromkeys((split, "val")):
        if not split_images(data, name):
            raise JobError("dataset", *no_images_words(data, name))


def run_evaluate(ctx: JobContext) -> str:
    """yolov5's validation of the spec's weights on its split; the result goes to the store."""
    from core.worker.label_scores import score_images
    from core.worker.train_guards import dataset_folders_ok

    spec = ctx.spec
    settings = spec["settings"]
    folder = Path(spec["store"])
    _check_inputs(spec)
    if not dataset_folders_ok(ctx, Path(spec["data"])):
        return "stopped"
    ctx.emit("stage", stage="evaluating", detail=tr("validating {weights} on the {split} split",
                                                    weights=Path(spec["weights"]).name, split=settings["split"]))
    images = len(split_images(Path(spec["data"]), settings["split"]))
    collector = Collector(ctx, max(1, -(-images // int(settings["batch"]))))
    try:
        results, speed = validate(collector, spec["weights"], spec["data"], settings, folder,
                                  device=spec.get("device", ""), workers=int(spec.get("workers", 2)))
    except Stopped:
        return "stopped"
    result = build_result(ctx, collector, results, speed, score_images, checkpoint_names(spec["weights"]))
    save_evaluation(folder, result, stored_images(collector))
    ctx.done_fields.update(store=str(folder / "result.json"), metrics=result["metrics"])
    return "completed"


def validate(collector: Collector, weights: str, data: str, settings: dict[str, Any], project: Path, *,
             device: str = "", workers: int = 2, task: str | None = None) -> tuple[Any, Any]:
    """``val.run`` of ``weights`` on ``data``'s ``task`` split (default: the settings' split), heard by
    ``collector``; returns val.run's (mp, mr, map50, map, losses…) and its speed. Raises ``Stopped``."""
    import yolov5.utils.metrics as y5metrics
    from yolov5 import val as y5val
    from yolov5.utils.callbacks import Callbacks

    callbacks = Callbacks()
    callbacks.register_action("on_val_batch_start", callback=collector.on_val_batch_start)
    callbacks.register_action("on_val_batch_end", callback=collector.on_val_batch_end)
    callbacks.register_action("on_val_end", callback=collector.on_val_end)
    saved = y5metrics.plot_pr_curve, y5metrics.plot_mc_curve, y5val.DetectMultiBackend
    y5metrics.plot_pr_curve, y5metrics.plot_mc_curve = collector.plot_pr_curve, collector.plot_mc_curve
    y5val.DetectMultiBackend = _as_training_validates(saved[2])
    try:
        results, _maps, _map50s, speed = y5val.run(
            data=data, weights=weights, batch_size=int(settings["batch"]),
            imgsz=int(settings["imgsz"]), conf_thres=float(settings["conf"]), iou_thres=float(settings["iou"]),
            max_det=int(settings["max_det"]), task=task or settings["split"], device=device,
            single_cls=bool(settings["single_cls"]), workers=workers, verbose=False,
            project=str(project), name="yolov5", exist_ok=True, plots=True, callbacks=callbacks, half=True)
    finally:
        y5metrics.plot_pr_curve, y5metrics.plot_mc_curve, y5val.DetectMultiBackend = saved
    return results, speed


def _as_training_validates(backend: Any) -> Any:
    """yolov5's ``DetectMultiBackend``, but with the weights train.py's final validation sees.

    train.py validates ``best.pt`` as ``attempt_load(f, device).half()``: the *fused* Conv+BN weights rounded
    to fp16 — and on a CPU ``val.run`` then turns the model back to fp32 (``half &= device.type != 'cpu'``). A
    direct ``val.run`` keeps the fused weights in fp32, which moved mAP@0.5 on the demo run from 0.00593 to
    0.00565. Rounding them the same way makes the evaluation give training's own numbers; on a GPU both
    already run in fp16."""

    def load(*args: Any, **kwargs: Any) -> Any:
        model = backend(*args, **kwargs)
        if getattr(model, "pt", False) and not getattr(model, "fp16", False):
            model.model.half().float()
        return model

    return load


def checkpoint_names(weights: str) -> dict[int, str]:
    """Class names from the checkpoint (yolov5's own loader, after compat's trust check)."""
    from yolov5.models.experimental import attempt_load

    model = attempt_load(weights, device="cpu", fuse=False)
    names = model.names if isinstance(model.names, dict) else dict(enumerate(model.names))
    return {int(k): str(v) for k, v in names.items()}


def build_result(ctx: JobContext, collector: Collector, results: Any, speed: Any, score_images: Any,
                 names: dict[int, str]) -> dict[str, Any]:
    """result.json from what ``collector`` heard (its per-class table and confusion matrix, its images) and
    val.run's headline ``results`` and ``speed``; the spec gives the settings and the store's key."""
    spec = ctx.spec
    nc = 1 if spec["settings"]["single_cls"] else len(names)
    curves, best = _curves(collector, names)
    ctx.emit("stage", stage="ranking", detail=tr("scoring the labels with cleanlab"))
    labels = [im["labels"] for im in collector.images]
    preds = [im["predictions"] for im in collector.images]
    error_conf = max(best["confidence"], ERROR_CONF_FLOOR)
    scores = score_images(labels, preds, nc, conf=error_conf)  # each class's "sure" level at the operating point
    matched = [{"image": im["image"], "matches": match_image(im["labels"], im["predictions"], conf=error_conf),
                "scores": s} for im, s in zip(collector.images, scores)]
    errors = ranked_errors(matched)
    for row in errors:  # class names beside the ids, the boxes that were matched
        row["class"] = names.get(row["label_class"] if row["label_class"] is not None else row["predicted_class"])
        row["predicted_name"] = names.get(row["predicted_class"]) if row["predicted_class"] is not None else None
    counts = count_kinds([m for item in matched for m in item["matches"]])
    mp, mr, map50, map_ = (float(x) for x in results[:4])
    interval = bootstrap_map(collector.stats, _yolov5_map)
    confusion = collector.confusion if collector.confusion is not None else np.zeros((nc + 1, nc + 1))
    return {
        "created": time.time(), "key": spec["key"], "weights": spec["weights"],
        "weights_sha256": spec["weights_sha256"], "data": spec["data"], "split": spec["settings"]["split"],
        "dataset_fingerprint": spec["dataset_fingerprint"], "settings": spec["settings"],
        "images": len(collector.images), "instances": int(sum(len(x) for x in labels)),
        "metrics": {"precision": mp, "recall": mr, "map50": map50, "map": map_},
        "interval": interval.to_json(),
        "per_class": _per_class(collector, names, nc),
        "confusion": {"labels": [names.get(i, str(i)) for i in range(nc)] + ["background"],
                      "matrix": confusion.astype(int).tolist(), "conf": 0.25, "iou": 0.45,
                      "axes": "matrix[predicted][true]"},
        "curves": curves, "best_f1": best,
        "speed_ms": {"preprocess": float(speed[0]), "inference": float(speed[1]), "nms": float(speed[2])},
        "error_conf": error_conf, "error_counts": counts, "errors": errors,
        "names": {str(k): v for k, v in names.items()},
        "image_scores": [round(float(s.image), 6) for s in scores],
        "dataset": train_split_counts(Path(spec["data"]), names),
    }


def stored_images(collector: Collector) -> list[dict[str, Any]]:
    out = []
    for im in collector.images:
        preds = im["predictions"]
        preds = preds[preds[:, 4] >= STORED_CONF] if len(preds) else preds
        out.append({"image": im["image"], "width": im["width"], "height": im["height"],
                    "labels": [[int(b[0])] + [round(float(v), 1) for v in b[1:5]] for b in im["labels"]],
                    "predictions": [[round(float(v), 1) for v in b[:4]] + [round(float(b[4]), 4), int(b[5])]
                                    for b in preds]})
    return out
