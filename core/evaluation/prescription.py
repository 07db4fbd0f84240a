"""A prescription for accuracy: rules over the evaluation, the run's curves and the dataset, each with its
evidence and the change the app can apply (the pattern of ``core/training/bottleneck.py``: findings with ``changes``).

Inputs are plain data (``AccuracyFacts``), so tests inject them. The thresholds and where they come from:

- ``small-objects``: ≥ 10 % of val boxes under 3 px on a side after letterboxing to ``imgsz`` — yolov5's
  ``utils/autoanchor.py`` warns "Extremely small objects found … <3 pixels"; the 10 % is [design].
- ``overfitting``: the best epoch (yolov5's ``fitness``, ``core/run/best_epoch.py``) before 70 % of the epochs and
  the val loss ≥ 10 % above its minimum while the train loss fell [design].
- ``still-improving``: the best epoch in the last 10 % of the epochs [design].
- ``from-scratch``: no pretrained weights and under 1,500 train images — yolov5's "Tips for Best Training
  Results" (≥ 1,500 images per class; pretrained weights for small and medium datasets).
- ``rare-class``: AP@0.5 under half the mean and train instances under a quarter of the median [design];
  yolov5's tips ask for ≥ 10,000 instances per class.
- ``label-mistakes``: images cleanlab scores under 0.1 — ``object_detection.rank.issues_from_scores``'s default.
- ``val-too-small``: under 100 val images or the mAP interval wider than ±0.05 (``core.evaluation.bootstrap``).
- ``val-unlike-train``: val and train class mixes ≥ 0.2 apart (total variation distance) [design].
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.evaluation.bootstrap import SMALL_VAL_IMAGES
from core.findings import Change, Finding, Severity
from core.i18n import tr

THRESHOLDS: dict[str, float] = {
    "tiny_px": 3.0,  # yolov5 autoanchor's "extremely small" label
    "tiny_share": 0.10,
    "best_early": 0.70,
    "val_loss_rise": 0.10,
    "best_late": 0.90,
    "few_images": 1500,
    "rare_ap_ratio": 0.5,
    "rare_instances_ratio": 0.25,
    "instances_goal": 10000,
    "cleanlab_issue": 0.1,
    "interval_wide": 0.05,
    "mix_distance": 0.2,
}


@dataclass
class AccuracyFacts:
    """What the rules read. Every field may be missing (None/empty): a rule without its facts stays quiet."""

    imgsz: int | None = None
    model: str = ""
    pretrained: bool | None = None
    train_images: int | None = None
    epochs: int | None = None  # epochs trained
    best_epoch: int | None = None  # 0-based, by yolov5's fitness
    train_loss: list[float] = field(default_factory=list)  # per epoch, box+obj+cls
    val_loss: list[float] = field(default_factory=list)
    box_min_sides_px: list[float] = field(default_factory=list)  # val boxes' shorter side at imgsz
    per_class: list[dict[str, Any]] = field(default_factory=list)  # the evaluation's rows
    train_instances: dict[str, int] = field(default_factory=dict)  # by class name
    val_images: int | None = None
    interval_half_width: float | None = None
    image_scores: list[float] = field(default_factory=list)  # cleanlab's, per val image


def _small_objects(f: AccuracyFacts, th: dict[str, float]) -> Finding | None:
    sides = f.box_min_sides_px
    if not sides or not f.imgsz:
        return None
    tiny = sum(1 for s in sides if s < th["tiny_px"])
    share = tiny / len(sides)
    if share < th["tiny_share"]:
        return None
    bigger = int(f.imgsz) * 2
    return Finding("small-objects", Severity.WARNING,
                   tr("{pct} of the objects are under {px} px after resizing to {imgsz}", pct=f"{share:.0%}",
                      px=int(th["tiny_px"]), imgsz=f.imgsz),
                   tr("yolov5 finds objects on grids of 8, 16 and 32 px; a box a few pixels wide is hard to see. "
                      "A larger image size costs about {factor}× the compute per image.",
                      factor=f"{(bigger / f.imgsz) ** 2:.0f}"),
                   {"tiny_boxes": tiny, "boxes": len(sides), "share": round(share, 3), "imgsz": f.imgsz},
                   fix=tr("Train at --imgsz {imgsz}, or with a P6 model (yolov5s6) at 1280.", imgsz=bigger),
                   fix_kind="setting", changes=(Change("imgsz", bigger, tr("small objects")),))


def _curve_rules(f: AccuracyFacts, th: dict[str, float]) -> list[Finding]:
    if not f.epochs or f.best_epoch is None or f.epochs < 3:
        return []
    last = f.epochs - 1
    out = []
    val, train = f.val_loss, f.train_loss
    if (f.best_epoch < th["best_early"] * last and len(val) == f.epochs and len(train) == f.epochs):
        low = min(range(len(val)), key=val.__getitem__)
        rose = (val[-1] - val[low]) / max(val[low], 1e-9)
        if rose >= th["val_loss_rise"] and train[-1] < train[low]:
            out.append(Finding(
                "overfitting", Severity.WARNING,
                tr("The model learned the training images by heart after epoch {best}", best=f.best_epoch + 1),
                tr("The val loss rose {pct} from its lowest (epoch {low}) while the train loss kept falling; the "
                   "best epoch was {best} of {epochs}.", pct=f"{rose:.0%}", low=low + 1, best=f.best_epoch + 1,
                   epochs=f.epochs),
                {"best_epoch": f.best_epoch + 1, "epochs": f.epochs, "val_loss_min_epoch": low + 1,
                 "val_loss_rise": round(rose, 3)},
                fix=tr("Add images or augmentation; stop early with --patience {n}.", n=max(5, last - f.best_epoch)),
                fix_kind="setting", changes=(Change("patience", max(5, last - f.best_epoch), tr("overfitting")),)))
    if f.best_epoch >= th["best_late"] * last:
        out.append(Finding(
            "still-improving", Severity.INFO,
            tr("Still improving at the last epoch ({best} of {epochs})", best=f.best_epoch + 1, epochs=f.epochs),
            tr("The best epoch is the last or nearly: more epochs will likely raise the mAP."),
            {"best_epoch": f.best_epoch + 1, "epochs": f.epochs},
            fix=tr("Train more (Train more / yolostudio train --epochs {n}).", n=f.epochs * 2), fix_kind="setting",
            changes=(Change("epochs", f.epochs * 2, tr("still improving")),)))
    return out


def _from_scratch(f: AccuracyFacts, th: dict[str, float]) -> Finding | None:
    if f.pretrained is not False or f.train_images is None or f.train_images >= th["few_images"]:
        return None
    stem = (f.model or "yolov5s").rsplit("/", 1)[-1].split(".")[0] or "yolov5s"
    return Finding("from-scratch", Severity.WARNING,
                   tr("Trained from scratch on {n} images", n=f.train_images),
                   tr("yolov5's guide recommends pretrained weights for small and medium datasets; from random "
                      "weights a few hundred images rarely reach a useful mAP."),
                   {"train_images": f.train_images, "model": f.model},
                   fix=tr("Start from {weights}.", weights=f"{stem}.pt"), fix_kind="setting",
                   changes=(Change("weights", f"{stem}.pt", tr("pretrained weights")),))


def _rare_classes(f: AccuracyFacts, th: dict[str, float]) -> list[Finding]:
    rows = [r for r in f.per_class if r.get("map50") is not None]
    counts = [f.train_instances.get(str(r["name"]), 0) for r in rows]
    if len(rows) < 2 or not any(counts):
        return []
    mean_ap = sum(r["map50"] for r in rows) / len(rows)
    median = sorted(counts)[len(counts) // 2]
    out = []
    for row, count in zip(rows, counts):
        if row["map50"] < th["rare_ap_ratio"] * mean_ap and count < th["rare_instances_ratio"] * median:
            need = max(median - count, 0)
            out.append(Finding(
                "rare-class", Severity.WARNING,
                tr("'{name}' has few examples and a low AP ({ap})", name=row["name"], ap=f"{row['map50']:.2f}"),
                tr("{count} labelled in train against a median of {median} per class (yolov5's guide: 10,000 "
                   "instances per class for best results).", count=count, median=median),
                {"class": row["name"], "train_instances": count, "median_instances": median,
                 "map50": row["map50"], "mean_map50": round(mean_ap, 3)},
                fix=tr("Label about {n} more '{name}' objects (to the median).", n=need, name=row["name"])))
    return out


def _label_mistakes(f: AccuracyFacts, th: dict[str, float]) -> Finding | None:
    flagged = sum(1 for s in f.image_scores if s < th["cleanlab_issue"])
    if not flagged:
        return None
    return Finding("label-mistakes", Severity.WARNING,
                   tr("{n} val images probably have a label mistake", n=flagged),
                   tr("cleanlab scores their labels under {t} (a missing label, a wrong class or a sloppy box).",
                      t=th["cleanlab_issue"]),
                   {"images": flagged, "of": len(f.image_scores)},
                   fix=tr("Review them in the Errors browser (likeliest first) and fix the labels."))


def _val_trust(f: AccuracyFacts, th: dict[str, float]) -> list[Finding]:
    out = []
    small = f.val_images is not None and f.val_images < SMALL_VAL_IMAGES
    wide = f.interval_half_width is not None and f.interval_half_width > th["interval_wide"]
    if small or wide:
        spread = f.interval_half_width
        out.append(Finding("val-too-small", Severity.INFO,
                           tr("The val set is too small to trust the mAP@0.5:0.95 closely ({n} images, ± {pm})",
                              n=f.val_images, pm=f"{spread:.2f}") if spread is not None and round(spread, 2) > 0
                           else tr("The val set is too small to trust the mAP@0.5:0.95 ({n} images: too few to "
                                   "estimate how far other images would move it)", n=f.val_images),
                           tr("Another set of images could move the number this much; compare runs by more than it."),
                           {"val_images": f.val_images, "interval_half_width": f.interval_half_width},
                           fix=tr("Move more labelled images to val (about 10–20 % of the dataset).")))
    val = {str(r["name"]): int(r.get("instances") or 0) for r in f.per_class}
    tv, tt = sum(val.values()), sum(f.train_instances.values())
    if tv and tt:
        names = set(val) | set(f.train_instances)
        distance = 0.5 * sum(abs(val.get(n, 0) / tv - f.train_instances.get(n, 0) / tt) for n in names)
        if distance >= th["mix_distance"]:
            out.append(Finding("val-unlike-train", Severity.WARNING,
                               tr("The val set's class mix is unlike train's (distance {d})", d=f"{distance:.2f}"),
                               tr("The mAP then weighs the classes differently from what the model learned."),
                               {"distance": round(distance, 3), "val": val, "train": dict(f.train_instances)},
                               fix=tr("Re-split so that each class has the same share in train and val "
                                      "(yolostudio dataset prepare).")))
    return out


def prescribe(facts: AccuracyFacts, thresholds: dict[str, float] | None = None) -> list[Finding]:
    """Every rule that applies, in the order a user should act on them."""
    th = {**THRESHOLDS, **(thresholds or {})}
    found: list[Finding | None] = [_label_mistakes(facts, th), _from_scratch(facts, th), _small_objects(facts, th)]
    found += _curve_rules(facts, th) + _rare_classes(facts, th) + _val_trust(facts, th)
    return [f for f in found if f is not None]


def finding_json(found: Finding) -> dict[str, Any]:
    return {"code": found.code, "severity": str(found.severity), "title": found.message, "detail": found.detail,
            "evidence": dict(found.evidence), "fix": found.fix,
            "changes": [{"field": c.field, "value": c.value, "reason": c.reason} for c in found.changes]}
