"""The confidence a model is deployed at, and how sure its precision, recall and false alarms are there.

An evaluation's ``images.json`` (``core.evaluation.store``) keeps every image's labels and its predictions down
to ``STORED_CONF``. ``stored_matches`` matches them once, as yolov5's ``ap_per_class`` does before it draws its
precision and recall curves: each prediction is a true positive when ``val.process_batch``'s rule at IoU 0.5
pairs it with a label of its class (``matching.greedy_pairs``, that rule line for line), and raising the
confidence only drops predictions. So the counts at any confidence are sums over the predictions above it — no
model is run again.

- ``choose`` finds the operating confidence: the evaluation's best-F1 one (yolov5's choice, as the Evaluate
  view shows it), the highest confidence that still reaches a target recall, or the lowest that keeps false
  alarms per 100 images at or under a limit.
- ``at_confidence`` gives per-class precision and recall there with bootstrap intervals: images are drawn with
  replacement (``DRAWS`` times, seeded) and the counts summed per draw — whole images, as
  ``core.evaluation.bootstrap`` does for the mAP, because the images are what the val set samples.

Pure numpy; a false alarm is what yolov5 counts as a false positive (a detection no label of its class matches
at IoU 0.5: nothing there, a wrong class, a poor box or a duplicate).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from core.evaluation.matching import MATCH_IOU, box_iou, greedy_pairs

#: Bootstrap draws [design: 1000 puts the 2.5/97.5 % percentiles within about ±0.005 of their limit].
DRAWS = 1000
#: The lowest confidence the store keeps predictions from (``core/worker/evaluate_job.py``'s STORED_CONF; the
#: worker is not imported here): no operating point is looked for below it.
STORED_CONF = 0.01
#: The interval's percentiles (95 %).
LOW_PCT, HIGH_PCT = 2.5, 97.5


@dataclass(frozen=True)
class Matches:
    """The stored evaluation matched once: per prediction its image, class, confidence and whether it is a true
    positive; per image and class the number of labels."""

    image: np.ndarray  # (P,) int
    cls: np.ndarray  # (P,) int
    conf: np.ndarray  # (P,) float
    tp: np.ndarray  # (P,) bool
    labels: np.ndarray  # (N, C) int

    @property
    def images(self) -> int:
        return int(self.labels.shape[0])

    @property
    def classes(self) -> int:
        return int(self.labels.shape[1])


def stored_matches(images: list[dict[str, Any]], nc: int) -> Matches:
    """``images.json``'s images (labels ``[cls, x1, y1, x2, y2]``, predictions ``[x1, y1, x2, y2, conf, cls]``)
    matched by yolov5's rule at IoU 0.5 within each class."""
    img, cls, conf, tp = [], [], [], []
    labels = np.zeros((len(images), max(1, nc)), dtype=np.int64)
    for i, item in enumerate(images):
        lab = np.asarray(item.get("labels") or [], dtype=np.float64).reshape(-1, 5)
        pred = np.asarray(item.get("predictions") or [], dtype=np.float64).reshape(-1, 6)
        for c in lab[:, 0].astype(int):
            if 0 <= c < labels.shape[1]:
                labels[i, c] += 1
        correct = np.zeros(len(pred), bool)
        if len(lab) and len(pred):
            iou = box_iou(lab[:, 1:], pred[:, :4])
            same = lab[:, 0:1] == pred[:, 5][None, :]
            for _, pi, _ in greedy_pairs(iou, (iou >= MATCH_IOU) & same):
                correct[pi] = True
        img.append(np.full(len(pred), i))
        cls.append(pred[:, 5].astype(int))
        conf.append(pred[:, 4])
        tp.append(correct)
    cat = (lambda parts, dtype: np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype))
    return Matches(cat(img, np.int64), cat(cls, np.int64), cat(conf, np.float64), cat(tp, bool), labels)


def counts_at(m: Matches, conf: float) -> tuple[np.ndarray, np.ndarray]:
    """(true positives, false alarms) per image and class, (N, C) each, of the predictions at or above ``conf``."""
    keep = (m.conf >= conf) & (m.cls >= 0) & (m.cls < m.classes)
    shape = (m.images, m.classes)
    tp = np.zeros(shape, np.int64)
    fp = np.zeros(shape, np.int64)
    np.add.at(tp, (m.image[keep & m.tp], m.cls[keep & m.tp]), 1)
    np.add.at(fp, (m.image[keep & ~m.tp], m.cls[keep & ~m.tp]), 1)
    return tp, fp


def _candidates(m: Matches) -> np.ndarray:
    """The confidences at which a count changes, ascending: every stored prediction's, and one above them all
    (no detection, no false alarm)."""
    confs = np.unique(m.conf[m.conf >= STORED_CONF])
    top = min(1.0, float(confs[-1]) + 1e-4) if len(confs) else 1.0
    return np.unique(np.r_[STORED_CONF, confs, top])


def _totals(m: Matches) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(candidate confidences, total TP at each, total false alarms at each) — pooled over classes."""
    cand = _candidates(m)
    order = np.argsort(m.conf)
    conf, tp = m.conf[order], m.tp[order]
    # predictions at or above c: those from searchsorted(c, 'left') on
    start = np.searchsorted(conf, cand, side="left")
    cum_tp = np.r_[np.cumsum(tp[::-1])[::-1], 0]
    cum_all = np.r_[np.arange(len(conf), 0, -1), 0]
    return cand, cum_tp[start], cum_all[start] - cum_tp[start]


@dataclass(frozen=True)
class OperatingPoint:
    """The confidence chosen, how (``rule``: best_f1, recall, false_alarms), the target asked for and whether it
    was reached on the stored matches."""

    confidence: float
    rule: str
    target: float | None = None
    reached: bool = True


def choose(m: Matches, *, best_f1: float | None = None, target_recall: float | None = None,
           max_false_alarms: float | None = None) -> OperatingPoint:
    """The operating confidence: with ``target_recall`` the highest at which the recall over all classes is at
    least it; with ``max_false_alarms`` the lowest at which false alarms per 100 images are at most it; else the
    evaluation's best-F1 confidence ``best_f1`` (not below ``STORED_CONF``). A target that cannot be met gives
    the confidence that comes nearest (the lowest for recall, the highest for false alarms), ``reached`` False."""
    cand, tp, fp = _totals(m)
    if target_recall is not None:
        total = int(m.labels.sum())
        recall = tp / total if total else np.zeros(len(cand))
        ok = np.nonzero(recall >= target_recall - 1e-12)[0]
        if len(ok):
            return OperatingPoint(float(cand[ok[-1]]), "recall", float(target_recall))
        return OperatingPoint(float(cand[0]), "recall", float(target_recall), reached=False)
    if max_false_alarms is not None:
        per100 = fp * 100.0 / max(1, m.images)
        ok = np.nonzero(per100 <= max_false_alarms + 1e-12)[0]
        return OperatingPoint(float(cand[ok[0]]), "false_alarms", float(max_false_alarms))  # the top always is
    conf = STORED_CONF if best_f1 is None else max(STORED_CONF, float(best_f1))
    return OperatingPoint(conf, "best_f1")


@dataclass(frozen=True)
class Figure:
    """A ratio with its bootstrap interval (None where it is undefined: no detections, no labels)."""

    value: float | None
    low: float | None
    high: float | None

    def to_json(self) -> dict[str, float | None]:
        return {"value": self.value, "low": self.low, "high": self.high}


def _figure(num: np.ndarray, den: np.ndarray, scale: float = 1.0) -> Figure:
    """``num[0] / den[0]`` (the point estimate: the draws start at index 1) and the percentile interval of the
    draws where the ratio is defined."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(den > 0, num * scale / np.where(den > 0, den, 1), np.nan)
    value = None if np.isnan(ratio[0]) else float(ratio[0])
    draws = ratio[1:][~np.isnan(ratio[1:])]
    if value is None or not len(draws):
        return Figure(value, value, value)
    low, high = np.percentile(draws, [LOW_PCT, HIGH_PCT])
    return Figure(value, float(low), float(high))


def draw_weights(images: int, draws: int, seed: int) -> np.ndarray:
    """(1 + draws, images): row 0 all ones (the evaluation itself), then how often each image is drawn in
    each resampling with replacement."""
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, images, (draws, images)) + np.arange(draws)[:, None] * images
    counts = np.bincount(idx.ravel(), minlength=draws * images).reshape(draws, images)
    return np.vstack([np.ones((1, images), np.int64), counts])


def at_confidence(m: Matches, conf: float, *, draws: int = DRAWS, seed: int = 0) -> dict[str, Any]:
    """Per class and overall at ``conf``: labels, true positives, false alarms, precision and recall with their
    intervals, false alarms per 100 images with its interval."""
    tp, fp = counts_at(m, conf)
    weights = draw_weights(m.images, draws, seed) if m.images else np.ones((1, 0), np.int64)
    # float products: BLAS (an integer matmul is numpy's own loop: 6.3 s instead of 0.8 s for 5000 images × 80
    # classes × 1000 draws, docs/performance.md); counts stay exact in float64 far beyond any val set
    w = weights.astype(np.float64)
    stp, sfp, slab = (w @ x.astype(np.float64) for x in (tp, fp, m.labels))  # (1 + draws, C)
    n_img = w.sum(1)
    rows = []
    for c in range(m.classes):
        rows.append({"class": c, "labels": int(m.labels[:, c].sum()), "true_positives": int(tp[:, c].sum()),
                     "false_alarms": int(fp[:, c].sum()),
                     "precision": _figure(stp[:, c], stp[:, c] + sfp[:, c]).to_json(),
                     "recall": _figure(stp[:, c], slab[:, c]).to_json(),
                     "false_alarms_per_100": _figure(sfp[:, c], n_img, 100.0).to_json()})
    t, f, lab = stp.sum(1), sfp.sum(1), slab.sum(1)
    overall = {"labels": int(m.labels.sum()), "true_positives": int(tp.sum()), "false_alarms": int(fp.sum()),
               "precision": _figure(t, t + f).to_json(), "recall": _figure(t, lab).to_json(),
               "false_alarms_per_100": _figure(f, n_img, 100.0).to_json()}
    return {"confidence": conf, "images": m.images, "draws": draws if m.images else 0, "seed": seed,
            "per_class": rows, "overall": overall}
