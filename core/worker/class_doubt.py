"""How likely each label's class is wrong, judged by how *this* model mixes classes up (worker only).

A box the model sees as two classes at once (a "circle" at 0.59 and a "square" at 0.57 on one object) is its own
confusion as often as a label mistake, and the per-class calibration (``core.worker.label_belief``) cannot tell
them apart: each prediction alone is right about as often. What can is the whole vector of class confidences on
the box, read the way this model reads it: a short training may say "square" a little louder than "circle" on
every circle. So, per label box, the features are the model's highest confidence of each class on it (IoU ≥ 0.5),
as log-odds, and a multinomial logistic regression maps them to the probability of each class — the standard
multiclass calibration ("vector scaling", Guo et al. 2017, *On Calibration of Modern Neural Networks*), fitted on
the evaluation's own labelled boxes. The probabilities are cross-validated (stratified
folds): a box's own label never takes part in judging it — cleanlab's recipe for label issues in classification
(out-of-sample predicted probabilities, then the self-confidence of the given label). The doubt is 1 − that
self-confidence. scikit-learn comes with cleanlab; both only in the worker.

The Errors list uses the doubt to order the "both classes on one object" rows (``core.evaluation.ranking``).
Measured with ``bench/label_finder.py`` (docs/performance.md, "The wrong-label finder").
"""

from __future__ import annotations

import warnings

import numpy as np

from core.evaluation.matching import MATCH_IOU, box_iou

#: At most this many folds; fewer when a class has fewer labelled boxes (each fold needs one of each).
FOLDS = 5
#: At most this many boxes per fit (a sample, every class kept): the fit's cost stays bounded on large sets.
FIT_CAP = 4000
#: A confidence of 0 (no box of that class on the label) as log-odds: the floor of the features.
FLOOR = 1e-3


def class_confidences(labels: np.ndarray, predictions: np.ndarray, nc: int) -> np.ndarray:
    """(L, nc): per label box, the highest confidence of each class among predictions overlapping it (IoU ≥ 0.5)."""
    labels = np.asarray(labels, dtype=np.float64).reshape(-1, 5)
    predictions = np.asarray(predictions, dtype=np.float64).reshape(-1, 6)
    out = np.zeros((len(labels), nc))
    if len(labels) == 0 or len(predictions) == 0:
        return out
    on_box = box_iou(labels[:, 1:5], predictions[:, :4]) >= MATCH_IOU
    conf = np.where(on_box, predictions[None, :, 4], 0.0)
    classes = predictions[:, 5].astype(int)
    for c in np.unique(classes):
        if 0 <= c < nc:
            out[:, c] = conf[:, classes == c].max(axis=1)
    return out


def class_doubts(labels: list[np.ndarray], predictions: list[np.ndarray], nc: int) -> list[np.ndarray]:
    """Per image, per label: P(the labelled class is wrong) from the cross-validated calibration; 0 where it
    cannot be judged (a class with fewer than two labelled boxes, or fewer than two such classes)."""
    sizes = [len(np.asarray(lab).reshape(-1, 5)) for lab in labels]
    doubts = np.zeros(sum(sizes))
    if doubts.size:
        classes = np.concatenate([np.asarray(lab, dtype=np.float64).reshape(-1, 5)[:, 0] for lab in labels]).astype(int)
        counts = np.bincount(classes[(classes >= 0) & (classes < nc)], minlength=nc)
        judged = (classes >= 0) & (classes < nc) & (counts[np.clip(classes, 0, nc - 1)] >= 2)
        if len(np.unique(classes[judged])) >= 2:
            features = np.vstack([class_confidences(lab, pred, nc) for lab, pred in zip(labels, predictions)])
            clipped = np.clip(features[judged], FLOOR, 1 - FLOOR)
            doubts[judged] = _held_out_doubts(np.log(clipped / (1 - clipped)), classes[judged])
    return np.split(doubts, np.cumsum(sizes)[:-1]) if sizes else []


def _held_out_doubts(features: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """1 − P(own class) for each row, from a model fitted on the other folds (stratified, seeded). Each fit sees at
    most ``FIT_CAP`` rows, every class kept: a 5,000-image COCO-sized evaluation stays seconds, not minutes."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold
    from threadpoolctl import threadpool_limits

    present, column = np.unique(classes, return_inverse=True)
    folds = StratifiedKFold(int(min(FOLDS, np.bincount(column).min())), shuffle=True, random_state=0)
    rng = np.random.default_rng(0)
    out = np.zeros(len(classes))
    for fit_rows, judged_rows in folds.split(features, column):
        fit_rows = _capped(fit_rows, column, rng)
        # One BLAS thread: these matrices are small, and BLAS's own threads beside torch's (or a busy machine)
        # made one fit 59 s instead of 2.7 s (4,000 boxes × 80 classes, 2 shared cores).
        with warnings.catch_warnings(), threadpool_limits(1):
            warnings.simplefilter("ignore")  # convergence notes on tiny or separable sets
            model = LogisticRegression(max_iter=1000).fit(features[fit_rows], column[fit_rows])
        probabilities = model.predict_proba(features[judged_rows])
        where = np.searchsorted(model.classes_, column[judged_rows])
        out[judged_rows] = 1.0 - probabilities[np.arange(len(judged_rows)), where]
    return out


def _capped(rows: np.ndarray, column: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """At most ``FIT_CAP`` of ``rows``, each class's share kept and at least one of each."""
    if len(rows) <= FIT_CAP:
        return rows
    kept = []
    for c in np.unique(column[rows]):
        members = rows[column[rows] == c]
        take = max(1, int(round(FIT_CAP * len(members) / len(rows))))
        kept.append(rng.choice(members, size=min(take, len(members)), replace=False))
    return np.sort(np.concatenate(kept))
