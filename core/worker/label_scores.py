"""cleanlab's object-detection label-quality scores for an evaluation's images (worker only).

cleanlab (2.9.0) pulls in scikit-learn and pandas and takes seconds to import, so it runs here, in the
evaluate worker, never in the GUI process (the import contract ``training-stack-in-workers`` lists it).
``core.evaluation.ranking`` joins the scores to the matched errors.

Two details of cleanlab's input that this module owns:
- ``predictions[i]`` is one (M, 5) array per class (``[x1, y1, x2, y2, confidence]``); the boxes come back in
  that class-by-class order, so the scores are put back in the order of the image's own predictions.
- With exactly three classes cleanlab's ``_get_prediction_type`` can mistake the per-class list for its
  other layout (boxes, labels, probabilities) when class 0 has five boxes and classes 1 and 2 the same
  count; an empty fourth class array keeps it on the per-class path (no box is added).
"""

from __future__ import annotations

import warnings

import numpy as np
from cleanlab.object_detection.rank import (compute_badloc_box_scores, compute_overlooked_box_scores,
                                            compute_swap_box_scores, get_label_quality_scores)

from core.evaluation.ranking import ImageScores

#: cleanlab's own "sure" confidence (``cleanlab/internal/constants.py`` HIGH_PROBABILITY_THRESHOLD, 2.9.0).
HIGH_PROBABILITY = 0.95


def cleanlab_inputs(labels: list[np.ndarray], predictions: list[np.ndarray], nc: int,
                    ) -> tuple[list[dict], list[list[np.ndarray]], list[np.ndarray]]:
    """(cleanlab's labels, its predictions, per image the order its predicted boxes come back in).

    ``labels[i]``: (L, 5) ``class, x1, y1, x2, y2``; ``predictions[i]``: (N, 6) ``x1, y1, x2, y2, conf, class``."""
    classes = nc if nc != 3 else 4
    out_labels, out_preds, orders = [], [], []
    for i, (lab, pred) in enumerate(zip(labels, predictions)):
        lab = np.asarray(lab, dtype=np.float64).reshape(-1, 5)
        pred = np.asarray(pred, dtype=np.float64).reshape(-1, 6)
        out_labels.append({"bboxes": lab[:, 1:5], "labels": lab[:, 0].astype(int), "image_name": str(i)})
        per_class, order = [], []
        for c in range(classes):
            idx = np.nonzero(pred[:, 5].astype(int) == c)[0]
            per_class.append(pred[idx][:, :5].reshape(-1, 5))
            order.extend(idx.tolist())
        out_preds.append(per_class)
        orders.append(np.asarray(order, dtype=int))
    return out_labels, out_preds, orders


def class_thresholds(labels: list[np.ndarray], predictions: list[np.ndarray], nc: int,
                     conf: float = 0.25) -> dict[int, float]:
    """Per class, the confidence this model has when it is right: the median confidence of its true positives
    at the operating threshold ``conf`` (yolov5's match: same class, IoU ≥ 0.5, greedy) — at most cleanlab's
    0.95. A class with no true positive
    keeps cleanlab's 0.95 (nothing to calibrate on).

    Why: cleanlab lets a prediction suggest a missing label or a swapped class only above one fixed 95 %
    confidence. A model trained briefly, or a hard class, rarely says 95 % even when it is right, so those two
    mistakes were never scored and sank below every sloppy box. The median of its own right answers is where
    this model, for this class, means "sure"."""
    from core.evaluation.matching import match_image

    confs: dict[int, list[float]] = {c: [] for c in range(nc)}
    for lab, pred in zip(labels, predictions):
        pred = np.asarray(pred, dtype=np.float64).reshape(-1, 6)
        for m in match_image(np.asarray(lab, dtype=np.float64).reshape(-1, 5), pred, conf=conf):
            if m.kind == "true_positive" and m.predicted_class in confs:
                confs[m.predicted_class].append(float(m.confidence))
    return {c: min(HIGH_PROBABILITY, float(np.median(v))) if v else HIGH_PROBABILITY for c, v in confs.items()}


def score_images(labels: list[np.ndarray], predictions: list[np.ndarray], nc: int, *,
                 calibrated: bool = True, conf: float = 0.25) -> list[ImageScores]:
    """cleanlab's scores per image. A prediction suggests a missing label or a swapped class only above a
    "sure" confidence, a sloppy box above 50 % (cleanlab's defaults: 95 % and 50 %); ``calibrated`` takes the
    "sure" confidence per class from the model's own true positives at ``conf`` (``class_thresholds``), each class's
    scores from a cleanlab call with its own threshold. An error no score covers keeps 1.0 and follows the
    scored ones."""
    if not labels:
        return []
    cl_labels, cl_preds, orders = cleanlab_inputs(labels, predictions, nc)
    thresholds = class_thresholds(labels, predictions, nc, conf) if calibrated else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # cleanlab's pruning notes; the figures speak for themselves
        image = get_label_quality_scores(cl_labels, cl_preds, verbose=False)
        overlooked = _per_class_overlooked(cl_labels, cl_preds, thresholds)
        swap = _per_class_swap(cl_labels, cl_preds, thresholds)
        badloc = compute_badloc_box_scores(labels=cl_labels, predictions=cl_preds)
    out = []
    for i, order in enumerate(orders):
        per_pred = np.full(len(np.asarray(predictions[i]).reshape(-1, 6)), np.nan)
        per_pred[order] = overlooked[i]
        out.append(ImageScores(image=float(image[i]), overlooked=per_pred, swap=np.asarray(swap[i]),
                               badloc=np.asarray(badloc[i])))
    return out


def _only_class(cl_preds: list[list[np.ndarray]], c: int) -> list[list[np.ndarray]]:
    """The predictions with every class but ``c`` emptied (cleanlab's per-class layout kept)."""
    return [[arr if k == c else arr[:0] for k, arr in enumerate(per_class)] for per_class in cl_preds]


def _per_class_overlooked(cl_labels: list[dict], cl_preds: list[list[np.ndarray]],
                          thresholds: dict[int, float]) -> list[np.ndarray]:
    """Per predicted box (cleanlab's class-by-class order), scored at its own class's threshold. A predicted
    box's overlooked score depends only on the labels and on its own confidence, so one call per threshold
    and the boxes of that class taken from it give exactly cleanlab's score at that threshold."""
    if not thresholds:
        return compute_overlooked_box_scores(labels=cl_labels, predictions=cl_preds)
    out = []
    calls = {t: compute_overlooked_box_scores(labels=cl_labels, predictions=cl_preds, high_probability_threshold=t)
             for t in set(thresholds.values())}
    for i, per_class in enumerate(cl_preds):
        classes = np.concatenate([np.full(len(arr), k) for k, arr in enumerate(per_class)] or [np.zeros(0)])
        scores = np.full(len(classes), np.nan)
        for k in range(len(per_class)):
            mask = classes == k
            if mask.any():
                scores[mask] = calls[thresholds.get(k, HIGH_PROBABILITY)][i][mask]
        out.append(scores)
    return out


def _per_class_swap(cl_labels: list[dict], cl_preds: list[list[np.ndarray]],
                    thresholds: dict[int, float]) -> list[np.ndarray]:
    """Per label box, the lowest swap score over the other classes, each judged at its own threshold (the
    predictions restricted to that class: a label of class k is then compared only with class-j boxes)."""
    if not thresholds:
        return compute_swap_box_scores(labels=cl_labels, predictions=cl_preds)
    # cleanlab's swap test is strict (``> threshold``), its overlooked test is not (``< threshold`` skips): one
    # step below makes "at least as sure as the class's median right answer" the rule for both.
    per_class = [compute_swap_box_scores(labels=cl_labels, predictions=_only_class(cl_preds, c),
                                         high_probability_threshold=float(np.nextafter(t, 0.0)))
                 for c, t in thresholds.items()]
    return [np.min(np.stack([np.asarray(s[i], dtype=float) for s in per_class]), axis=0)
            if len(cl_labels[i]["labels"]) else np.zeros(0) for i in range(len(cl_labels))]
