"""The Errors browser's order: the likeliest *label* mistake first, from cleanlab's per-box scores.

The worker scores each box with cleanlab's object-detection label-quality scores
(``core/worker/label_scores.py``; low = the label is likely wrong) and this module joins them to the
matched errors (``core.evaluation.matching``), naming the label mistake each error suggests:

| error (matching)  | label mistake (cleanlab's sub-score) | the box it is scored on |
|-------------------|--------------------------------------|-------------------------|
| false_positive    | overlooked: a label is missing       | the prediction          |
| wrong_class       | swap: the label has the wrong class  | the label               |
| poor_box          | badloc: the label's box is sloppy    | the label               |
| missed            | swap: another class is seen there;   | the label               |
|                   | else badloc                          |                         |
| duplicate, of     | swap, unscored (1.0): ordered by the | the label               |
| another class     | label's class doubt, after the       |                         |
|                   | scored rows                          |                         |
| duplicate         | — (a model fault, not a label's)     | —                       |

(cleanlab 2.9.0, ``cleanlab/object_detection/rank.py``: ``compute_overlooked_box_scores`` per predicted box,
``compute_swap_box_scores`` and ``compute_badloc_box_scores`` per label box; calibrated per class by the
worker, ``core/worker/label_scores.py``: a missed label is a swap when the model sees another class there
below the threshold and not its own.) Ties keep the image's own
score (cleanlab's ``get_label_quality_scores``), then the more confident prediction first; an error that
suggests no label mistake (a duplicate) comes after those that do at the same score.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from core.evaluation.matching import MATCH_IOU, Match

LABEL_ISSUE = {"false_positive": "overlooked", "wrong_class": "swap", "poor_box": "badloc"}


@dataclass
class ImageScores:
    """cleanlab's scores for one image: per prediction (overlooked), per label (swap, badloc), the image's."""
    image: float = 1.0
    overlooked: np.ndarray = field(default_factory=lambda: np.zeros(0))
    swap: np.ndarray = field(default_factory=lambda: np.zeros(0))
    badloc: np.ndarray = field(default_factory=lambda: np.zeros(0))
    #: per label: P(its class is wrong) by how this model mixes classes (``core/worker/class_doubt.py``)
    class_doubt: np.ndarray = field(default_factory=lambda: np.zeros(0))


def _score(values: np.ndarray, index: int | None) -> float:
    if index is None or index >= len(values):
        return 1.0
    value = float(values[index])
    return 1.0 if math.isnan(value) else value


def issue_score(match: Match, scores: ImageScores) -> tuple[str | None, float]:
    """(the label mistake ``match`` suggests, its cleanlab score; 1.0 = no reason to doubt the label)."""
    issue = LABEL_ISSUE.get(match.kind)
    if issue == "overlooked":
        return issue, _score(scores.overlooked, match.prediction)
    if issue == "swap":
        return issue, _score(scores.swap, match.label)
    if issue == "badloc":
        return issue, _score(scores.badloc, match.label)
    if _both_classes(match):  # a model that sees two classes on the object: a swap only by its class doubt
        return "swap", 1.0
    if match.kind == "missed":  # no detection of its class at the threshold: another class seen there is a swap
        swap = _score(scores.swap, match.label)
        return ("swap", swap) if swap < 1.0 else ("badloc", _score(scores.badloc, match.label))
    return None, 1.0


def _both_classes(match: Match) -> bool:
    """A second detection, of another class, on a labelled object the model also found as labelled."""
    return (match.kind == "duplicate" and match.predicted_class != match.label_class
            and (match.iou or 0.0) >= MATCH_IOU)


def class_doubt(match: Match, scores: ImageScores) -> float:
    """P(the label's class is wrong) for a both-classes row (``core/worker/class_doubt.py``); 0 for the rest."""
    if not _both_classes(match) or match.label is None or match.label >= len(scores.class_doubt):
        return 0.0
    return float(scores.class_doubt[match.label])


def ranked_errors(images: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every error of every image, one dict each, the likeliest label mistake first.

    ``images``: ``{"image": path, "matches": [Match], "scores": ImageScores}``; the result's dicts carry the
    image, the match's fields, ``label_issue``, ``label_score`` and ``image_score``."""
    rows: list[dict[str, Any]] = []
    for item in images:
        scores: ImageScores = item["scores"]
        for match in item["matches"]:
            if match.kind == "true_positive":
                continue
            issue, score = issue_score(match, scores)
            rows.append({"image": item["image"], **match.to_json(), "label_issue": issue,
                         "label_score": round(score, 6), "image_score": round(float(scores.image), 6),
                         "class_doubt": round(class_doubt(match, scores), 6)})
    rows.sort(key=lambda r: (r["label_score"], r["label_issue"] is None, -r["class_doubt"], r["image_score"],
                             -(r["confidence"] or 0.0), r["image"]))
    return rows
