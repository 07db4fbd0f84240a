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


def score_images(labels: list[np.ndarray], predictions: list[np.ndarray], nc: int) -> list[ImageScores]:
    """cleanlab's scores per image, with cleanlab's own thresholds: a prediction suggests a missing label or
    a swapped class only above 95 % confidence, a sloppy box above 50 %. (Lowering them to the shown errors'
    confidence was tried: a faint box of a class the image has no label of then scores near 0 —
    ``min_possible_similarity * (1 - p)`` — and a 30 % guess outranked a 97 % swap.) An error no score
    covers keeps 1.0 and follows the scored ones."""
    if not labels:
        return []
    cl_labels, cl_preds, orders = cleanlab_inputs(labels, predictions, nc)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # cleanlab's pruning notes; the figures speak for themselves
        image = get_label_quality_scores(cl_labels, cl_preds, verbose=False)
        overlooked = compute_overlooked_box_scores(labels=cl_labels, predictions=cl_preds)
        swap = compute_swap_box_scores(labels=cl_labels, predictions=cl_preds)
        badloc = compute_badloc_box_scores(labels=cl_labels, predictions=cl_preds)
    out = []
    for i, order in enumerate(orders):
        per_pred = np.full(len(np.asarray(predictions[i]).reshape(-1, 6)), np.nan)
        per_pred[order] = overlooked[i]
        out.append(ImageScores(image=float(image[i]), overlooked=per_pred, swap=np.asarray(swap[i]),
                               badloc=np.asarray(badloc[i])))
    return out
