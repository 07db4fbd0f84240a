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

Calibrated per class (the default): cleanlab's overlooked and swap scores count a prediction only above one
fixed 95 % confidence, and a model trained briefly, or a hard class, rarely says 95 % even when it is right —
those two mistakes were then never scored and sank below every sloppy box (issue 31: 3 of 6 swapped classes
in the first 20 images). Here each class's confidence is first turned into how often this model is right at
that confidence for that class (``core.worker.label_belief``, isotonic regression on the evaluation's own
predictions — held out: val, or the k-fold's folds), and a label's doubt is that belief times cleanlab's
geometric evidence (its overlooked / badly-located sub-score, at the operating threshold):

| mistake    | doubt (1 − score)                                                                  |
|------------|------------------------------------------------------------------------------------|
| overlooked | P(right, its class, its confidence) × (1 − cleanlab overlooked score)                  |
| swap       | max over other classes j of P(right, j) × (1 − P(right, the labelled class)) on the box |
| badloc     | P(right, the class, its best overlapping prediction) × (1 − cleanlab badloc score)     |

A box the model sees as two classes at once (its own class at the threshold, and another) is scored by neither:
those rows follow the scored ones, ordered by how likely the label's class is wrong given how this model mixes
its classes up (``core.worker.class_doubt``: a cross-validated multinomial calibration of the class confidences
on the box).

``calibrated=False`` keeps cleanlab's own defaults (95 %, 50 %): ``bench/label_finder.py`` prints both.
"""

from __future__ import annotations

import warnings

import numpy as np
from cleanlab.object_detection.rank import (compute_badloc_box_scores, compute_overlooked_box_scores,
                                            compute_swap_box_scores, get_label_quality_scores)

from core.worker.class_doubt import class_doubts
from core.worker.label_belief import ClassCalibration, label_beliefs
from core.evaluation.ranking import ImageScores


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


def score_images(labels: list[np.ndarray], predictions: list[np.ndarray], nc: int, *,
                 calibrated: bool = True, conf: float = 0.25) -> list[ImageScores]:
    """Per image: cleanlab's image score, and per box a score in [0, 1], low = the label is likely wrong
    (``overlooked`` per prediction, ``swap`` and ``badloc`` per label). ``conf`` is the operating threshold
    the errors are shown at. An error no score covers keeps 1.0 and follows the scored ones."""
    if not labels:
        return []
    cl_labels, cl_preds, orders = cleanlab_inputs(labels, predictions, nc)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # cleanlab's pruning notes; the figures speak for themselves
        image = get_label_quality_scores(cl_labels, cl_preds, verbose=False)
        if calibrated:
            overlooked = compute_overlooked_box_scores(labels=cl_labels, predictions=cl_preds,
                                                       high_probability_threshold=conf)
            badloc = compute_badloc_box_scores(labels=cl_labels, predictions=cl_preds, low_probability_threshold=conf)
        else:
            overlooked = compute_overlooked_box_scores(labels=cl_labels, predictions=cl_preds)
            swap = compute_swap_box_scores(labels=cl_labels, predictions=cl_preds)
            badloc = compute_badloc_box_scores(labels=cl_labels, predictions=cl_preds)
    calibration = ClassCalibration.fit(labels, predictions, nc) if calibrated else None
    doubts = class_doubts(labels, predictions, nc) if calibrated else None
    out = []
    for i, order in enumerate(orders):
        pred = np.asarray(predictions[i], dtype=np.float64).reshape(-1, 6)
        per_pred = np.full(len(pred), np.nan)
        per_pred[order] = overlooked[i]
        if calibration is None:
            out.append(ImageScores(image=float(image[i]), overlooked=per_pred, swap=np.asarray(swap[i]),
                                   badloc=np.asarray(badloc[i])))
            continue
        lab = np.asarray(labels[i], dtype=np.float64).reshape(-1, 5)
        geometry = np.where(np.isnan(per_pred), 0.0, per_pred)  # below the threshold: nothing near it was scored
        belief = calibration.belief(pred[:, 4], pred[:, 5].astype(int))
        beliefs = label_beliefs(lab, pred, calibration)
        out.append(ImageScores(
            image=float(image[i]),
            overlooked=1.0 - belief * (1.0 - geometry),
            swap=1.0 - beliefs.other * (1.0 - beliefs.own),
            badloc=1.0 - beliefs.own_overlap * (1.0 - np.asarray(badloc[i], dtype=np.float64)),
            class_doubt=doubts[i]))
    return out
