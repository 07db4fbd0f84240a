"""Boxes ``[x1, y1, x2, y2, conf, cls]`` filtered and merged in plain Python: the Predict page's sliders, the
sliced pass's merge.

Why plain Python: the GUI process imports neither torch nor numpy-heavy runtimes (``tests/test_import_contracts``),
and the page re-filters the latest frame each time a slider moves, without running the model again. The worker
sends that frame's boxes at a floor (``FLOOR_CONF`` after NMS at the loose ``FLOOR_IOU``); the page keeps those at
or above the confidence slider and runs class-wise greedy NMS at the IoU slider.

- Confidence: exact. Greedy NMS lets a box be suppressed only by a box of higher confidence, so filtering by
  confidence after NMS keeps exactly what NMS on the filtered candidates keeps.
- IoU: NMS at the slider's IoU (≤ ``FLOOR_IOU``) on boxes already NMS'd at ``FLOOR_IOU``. Every pair the looser
  pass removed overlaps more than the slider allows, so they would go again; it differs from one NMS at the
  slider's IoU only where a removed box would have survived because its remover was itself removed — rare, and
  the written outputs use yolov5's own NMS at the thresholds of Start.

Class-wise, as yolov5's ``non_max_suppression`` (``agnostic=False``: boxes of different classes never suppress
each other).
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Sequence

Box = Sequence[float]  # x1, y1, x2, y2, conf, cls

#: What the worker sends the Predict page: every box above this confidence, after NMS at ``FLOOR_IOU``.
FLOOR_CONF = 0.001
FLOOR_IOU = 0.7


def iou(a: Box, b: Box) -> float:
    """Intersection over union of two boxes (0 when either has no area)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def nms(boxes: Iterable[Box], iou_thres: float, conf_thres: float = 0.0) -> list[list[float]]:
    """Boxes at or above ``conf_thres`` kept by class-wise greedy NMS at ``iou_thres``, highest confidence first."""
    ranked = sorted((list(b) for b in boxes if b[4] >= conf_thres), key=lambda b: -b[4])
    kept: list[list[float]] = []
    by_class: dict[int, list[list[float]]] = {}
    for box in ranked:
        same = by_class.setdefault(int(box[5]), [])
        if all(iou(box, other) <= iou_thres for other in same):
            same.append(box)
            kept.append(box)
    return kept


def counts(boxes: Iterable[Box], names: dict[int, str]) -> list[tuple[str, int]]:
    """(class name, number of boxes), most first, then by name: the page's per-class counts."""
    found = Counter(names.get(int(b[5]), str(int(b[5]))) for b in boxes)
    return sorted(found.items(), key=lambda item: (-item[1], item[0]))
