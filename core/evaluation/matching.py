"""Each image's predictions and labels, matched the way yolov5's metrics match them, sorted into kinds.

yolov5's ``val.process_batch`` counts a detection as correct when it overlaps a label of the same class with
IoU ≥ the threshold, greedily by IoU, one label per detection and one detection per label. ``match_image``
runs that same rule at IoU 0.5 for the true positives, then names what is left, so the Errors browser can
say *why* each box is wrong:

- ``wrong_class``: a detection on a labelled object (IoU ≥ 0.5) of another class;
- ``poor_box``: a detection of the right class on a labelled object, but IoU below 0.5 (at least ``overlap``);
- ``duplicate``: a second detection on an object that already has its match;
- ``false_positive``: a detection where no label is (IoU < ``overlap`` with every label) — a missing label,
  when the model is confident;
- ``missed``: a label that no detection found.

Only detections at or above ``conf`` take part (yolov5's validation keeps boxes down to 0.001, which would
drown the list); the evaluation passes the best-F1 threshold. Pure numpy, boxes x1y1x2y2 in pixels.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

#: yolov5's first mAP threshold (``iouv = linspace(0.5, 0.95, 10)`` in val.py): the IoU of a true positive.
MATCH_IOU = 0.5
#: Below this IoU a detection is "nowhere near" a label [design: a tenth overlap is still the same object].
OVERLAP_IOU = 0.1

KINDS = ("true_positive", "wrong_class", "poor_box", "duplicate", "false_positive", "missed")
ERROR_KINDS = KINDS[1:]


@dataclass(frozen=True)
class Match:
    kind: str
    label: int | None  # index into the image's labels
    prediction: int | None  # index into the image's predictions
    label_class: int | None
    predicted_class: int | None
    confidence: float | None
    iou: float | None

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box in ``a`` (N, 4) with every box in ``b`` (M, 4): (N, M), as yolov5's ``box_iou``."""
    a = np.asarray(a, dtype=np.float64).reshape(-1, 4)
    b = np.asarray(b, dtype=np.float64).reshape(-1, 4)
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.clip(rb - lt, 0, None).prod(2)
    area_a = (a[:, 2:] - a[:, :2]).prod(1)
    area_b = (b[:, 2:] - b[:, :2]).prod(1)
    return inter / (area_a[:, None] + area_b[None, :] - inter + 1e-7)


def greedy_pairs(iou: np.ndarray, allowed: np.ndarray) -> list[tuple[int, int, float]]:
    """(label, detection, iou) pairs where ``allowed``, one per label and per detection, by IoU — the
    de-duplication of yolov5's ``process_batch`` line for line (sort by IoU, unique detection, unique label)."""
    li, di = np.nonzero(allowed)
    if not len(li):
        return []
    matches = np.stack([li, di, iou[li, di]], 1)
    if len(li) > 1:
        matches = matches[matches[:, 2].argsort()[::-1]]
        matches = matches[np.unique(matches[:, 1], return_index=True)[1]]
        matches = matches[np.unique(matches[:, 0], return_index=True)[1]]
    return [(int(m[0]), int(m[1]), float(m[2])) for m in matches]


def match_image(labels: np.ndarray, predictions: np.ndarray, conf: float = 0.25,
                overlap: float = OVERLAP_IOU) -> list[Match]:
    """Every label and every detection at or above ``conf``, each in exactly one ``Match``.

    ``labels``: (L, 5) ``class, x1, y1, x2, y2``; ``predictions``: (N, 6) ``x1, y1, x2, y2, conf, class``
    (yolov5's layouts)."""
    labels = np.asarray(labels, dtype=np.float64).reshape(-1, 5)
    predictions = np.asarray(predictions, dtype=np.float64).reshape(-1, 6)
    kept = np.nonzero(predictions[:, 4] >= conf)[0]
    preds = predictions[kept]
    iou = box_iou(labels[:, 1:], preds[:, :4])  # (L, N)
    same = labels[:, 0:1] == preds[:, 5][None, :]
    free_l = np.ones(len(labels), bool)
    free_p = np.ones(len(preds), bool)
    out: list[Match] = []

    def take(kind: str, allowed: np.ndarray) -> None:
        mask = allowed & free_l[:, None] & free_p[None, :]
        for li, pi, value in greedy_pairs(iou, mask):
            free_l[li] = free_p[pi] = False
            out.append(Match(kind, li, int(kept[pi]), int(labels[li, 0]), int(preds[pi, 5]),
                             float(preds[pi, 4]), value))

    take("true_positive", (iou >= MATCH_IOU) & same)
    take("wrong_class", (iou >= MATCH_IOU) & ~same)
    take("poor_box", (iou >= overlap) & same)
    for pi in np.nonzero(free_p)[0]:
        column = iou[:, pi]
        best = float(column.max()) if len(column) else 0.0
        li = int(column.argmax()) if len(column) else None
        kind = "duplicate" if best >= overlap else "false_positive"
        out.append(Match(kind, li if kind == "duplicate" else None, int(kept[pi]),
                         int(labels[li, 0]) if kind == "duplicate" and li is not None else None,
                         int(preds[pi, 5]), float(preds[pi, 4]), best))
    for li in np.nonzero(free_l)[0]:
        out.append(Match("missed", int(li), None, int(labels[li, 0]), None, None, None))
    return out


def count_kinds(matches: list[Match]) -> dict[str, int]:
    """How many of each kind (every kind present, zeros included)."""
    counts = dict.fromkeys(KINDS, 0)
    for m in matches:
        counts[m.kind] += 1
    return counts
