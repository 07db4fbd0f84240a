"""An evaluation in words, the same for the CLI and the Evaluate view: the headline, the per-class table,
what the confusion matrix's background row and column mean, and each error's kind.

yolov5's ``ConfusionMatrix`` (``utils/metrics.py``) is indexed ``matrix[predicted][true]`` with its own
thresholds (confidence 0.25, IoU 0.45, not the mAP ones); its extra last row and column are "background":
the last row (predicted background) counts labelled objects no detection found, the last column (true
background) counts detections where no object is labelled.
"""

from __future__ import annotations

from typing import Any

from core.evaluation.bootstrap import Interval, interval_words
from core.i18n import tr


def kind_word(kind: str) -> str:
    return {
        "true_positive": tr("correct"),
        "wrong_class": tr("wrong class"),
        "poor_box": tr("poor box"),
        "duplicate": tr("duplicate detection"),
        "false_positive": tr("false positive (nothing labelled there)"),
        "missed": tr("missed object"),
    }.get(kind, kind)


def issue_word(issue: str | None) -> str:
    return {
        "overlooked": tr("a label may be missing"),
        "swap": tr("the label's class may be wrong"),
        "badloc": tr("the label's box may be sloppy"),
    }.get(issue or "", "")


def number_text(value: Any) -> str:
    """A metric as the tables show it: three decimals, a dash when the evaluation has none."""
    return "—" if value is None else f"{float(value):.3f}"


def headline(result: dict[str, Any]) -> list[str]:
    m = result.get("metrics", {})
    speed = result.get("speed_ms", {})
    best = result.get("best_f1", {})
    lines = [
        tr("precision {p}  recall {r}  mAP@0.5 {m50}  mAP@0.5:0.95 {m}", p=number_text(m.get("precision")),
           r=number_text(m.get("recall")), m50=number_text(m.get("map50")), m=number_text(m.get("map"))),
    ]
    if result.get("interval"):
        iv = result["interval"]
        lines.append(interval_words(Interval(iv["value"], iv["low"], iv["high"], iv["images"], iv["draws"]),
                                    held_out=is_held_out(result)))
    lines.append(tr("best F1 {f1} at confidence {conf}", f1=f"{best.get('f1', 0):.2f}",
                    conf=f"{best.get('confidence', 0):.3f}"))
    lines.append(tr("speed per image: {pre} ms pre-process, {inf} ms inference, {nms} ms NMS",
                    pre=f"{speed.get('preprocess', 0):.1f}", inf=f"{speed.get('inference', 0):.1f}",
                    nms=f"{speed.get('nms', 0):.1f}"))
    return lines



def confusion_words(confusion: dict[str, Any]) -> list[str]:
    """The background row and column in words, and the largest mix-up between two classes."""
    labels, matrix = confusion.get("labels", []), confusion.get("matrix", [])
    if not matrix:
        return []
    nc = len(matrix) - 1
    missed = sum(matrix[nc][:nc])
    false = sum(matrix[p][nc] for p in range(nc))
    lines = [tr("Read at confidence {conf} and IoU {iou} (yolov5's confusion matrix, not the mAP thresholds): "
                "rows are what the model predicted, columns what the labels say.",
                conf=confusion.get("conf", 0.25), iou=confusion.get("iou", 0.45)),
             tr("The 'background' row: {n} labelled objects that no detection found (missed).", n=missed),
             tr("The 'background' column: {n} detections where no object is labelled (false positives — or "
                "labels that are missing).", n=false)]
    pairs = [(matrix[p][t], p, t) for p in range(nc) for t in range(nc) if p != t and matrix[p][t]]
    if pairs:
        count, p, t = max(pairs)
        lines.append(tr("The largest mix-up: {n} '{true}' objects predicted as '{pred}'.", n=count,
                        true=labels[t], pred=labels[p]))
    return lines


def error_line(row: dict[str, Any]) -> str:
    conf = f"{row['confidence']:.2f}" if row.get("confidence") is not None else "—"
    issue = issue_word(row.get("label_issue"))
    return tr("{image}: {kind}, class {cls}, confidence {conf}{issue}", image=row["image"],
              kind=kind_word(row["kind"]), cls=row.get("class") or "—", conf=conf,
              issue=f" — {issue}" if issue and (row.get("label_score", 1.0) < 1.0 or row.get("class_doubt", 0.0) > 0.5)
              else "")


def no_images_words(path: object, split: str) -> tuple[str, str]:
    """(message, hint) for a split with nothing to evaluate on."""
    return (tr("{path}: the {split} split has no images to evaluate on.", path=path, split=split),
            tr("Add '{split}:' with images to the data.yaml (yolostudio dataset check shows what it finds), or "
               "evaluate another split with --split.", split=split))


def is_held_out(result: dict[str, Any]) -> bool:
    """A k-fold evaluation of the train split (``core/worker/evaluate_kfold.py``), not one model on val/test."""
    return result.get("predictions") == "kfold"


def predictions_words(result: dict[str, Any]) -> str:
    """Which predictions an evaluation shows — every front end says it beside the numbers and the errors."""
    if is_held_out(result):
        kfold = result.get("kfold") or {}
        return tr("Held-out (k-fold) predictions on the train split: {k} fold models, each trained {epochs} "
                  "epochs on the other folds, predicted the {images} images they did not learn — every training "
                  "image once.", k=kfold.get("k", "?"), epochs=kfold.get("epochs", "?"),
                  images=result.get("images", 0))
    return tr("Predictions of {weights} on the {split} split (images it did not train on). Training images need "
              "held-out (k-fold) predictions: the model learned their labels.",
              weights=str(result.get("weights", "")).replace("\\", "/").rsplit("/", 1)[-1],
              split=result.get("split", "val"))


def train_split_refusal(k: int) -> tuple[str, str]:
    """(message, hint) for evaluating the train split with the run's own weights."""
    return (tr("The run's own predictions on its training images are biased: it learned those labels, mistakes "
               "included, so the errors there would not point at wrong labels."),
            tr("Ask for held-out predictions instead: --split train --kfold {k} trains {k} short models, each "
               "predicting the images it did not learn (the time it takes is said before it starts).", k=k))
