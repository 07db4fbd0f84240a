"""How often this model is right, per class and confidence — the calibration the label scores use (worker only).

A detector's confidence is not a probability, and not the same scale for every class: a short training, or a
hard class, is right at 40 % where an easy class says 90 %. ``ClassCalibration`` fits, per class, the share of
the evaluation's own predictions that are true positives as a non-decreasing function of confidence
(scikit-learn's ``IsotonicRegression`` — the usual calibration of a score to a probability; scikit-learn comes
with cleanlab, both only in the worker). The predictions are held out (val, or the k-fold's folds), so the
calibration says how often a prediction *the model did not learn from* is right.

``label_beliefs`` then asks, for every label box, how strongly the model believes what is there: its own class
(the labelled one) and the likeliest other class on the box, each as that calibrated probability.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.isotonic import IsotonicRegression

from core.evaluation.matching import MATCH_IOU, OVERLAP_IOU, box_iou, match_image


@dataclass
class ClassCalibration:
    """Per class, confidence → P(the prediction is right); a class with no prediction keeps its confidence."""

    models: dict[int, IsotonicRegression]

    @classmethod
    def fit(cls, labels: list[np.ndarray], predictions: list[np.ndarray], nc: int) -> ClassCalibration:
        """From yolov5's matching (same class, IoU ≥ 0.5, greedy) of every stored prediction. Duplicates are left
        out: a second box on a labelled object says nothing about whether the class is right."""
        xs: dict[int, list[float]] = {c: [] for c in range(nc)}
        ys: dict[int, list[float]] = {c: [] for c in range(nc)}
        for lab, pred in zip(labels, predictions):
            lab = np.asarray(lab, dtype=np.float64).reshape(-1, 5)
            pred = np.asarray(pred, dtype=np.float64).reshape(-1, 6)
            for m in match_image(lab, pred, conf=0.0):
                if m.prediction is None or m.kind == "duplicate" or m.predicted_class not in xs:
                    continue
                xs[m.predicted_class].append(float(m.confidence))
                ys[m.predicted_class].append(1.0 if m.kind == "true_positive" else 0.0)
        models = {}
        for c in range(nc):
            # One anchor a class always has: a prediction at confidence 0 is not right. Without it a class whose
            # every prediction was right would be "sure" at any confidence.
            xs[c].append(0.0)
            ys[c].append(0.0)
            if len(xs[c]) >= 2:
                model = IsotonicRegression(y_min=0.0, y_max=1.0, increasing=True, out_of_bounds="clip")
                models[c] = model.fit(xs[c], ys[c])
        return cls(models)

    def belief(self, confidences: np.ndarray, classes: np.ndarray) -> np.ndarray:
        """P(right) of each prediction (confidence, class); 0 where the confidence is 0 (no prediction)."""
        confidences = np.asarray(confidences, dtype=np.float64).reshape(-1)
        classes = np.asarray(classes, dtype=int).reshape(-1)
        out = confidences.copy()
        for c, model in self.models.items():
            mask = classes == c
            if mask.any():
                out[mask] = model.predict(confidences[mask])
        return np.where(confidences > 0, out, 0.0)


@dataclass
class LabelBeliefs:
    """Per label box: P(right) of the labelled class on it (IoU ≥ 0.5), of the likeliest other class on it, and of
    the labelled class anywhere overlapping it (IoU ≥ 0.1: a sloppy box's object)."""

    own: np.ndarray
    other: np.ndarray
    own_overlap: np.ndarray


def label_beliefs(labels: np.ndarray, predictions: np.ndarray, calibration: ClassCalibration) -> LabelBeliefs:
    labels = np.asarray(labels, dtype=np.float64).reshape(-1, 5)
    predictions = np.asarray(predictions, dtype=np.float64).reshape(-1, 6)
    n = len(labels)
    own, other, own_overlap = np.zeros(n), np.zeros(n), np.zeros(n)
    if n == 0 or len(predictions) == 0:
        return LabelBeliefs(own, other, own_overlap)
    iou = box_iou(labels[:, 1:5], predictions[:, :4])
    classes = predictions[:, 5].astype(int)
    belief = calibration.belief(predictions[:, 4], classes)
    for i in range(n):
        k = int(labels[i, 0])
        on_box = iou[i] >= MATCH_IOU
        same = classes == k
        own[i] = belief[on_box & same].max(initial=0.0)
        other[i] = belief[on_box & ~same].max(initial=0.0)
        own_overlap[i] = belief[(iou[i] >= OVERLAP_IOU) & same].max(initial=0.0)
    return LabelBeliefs(own, other, own_overlap)
