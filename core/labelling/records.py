"""One image of a review queue and its boxes, as both faces see them: values, states, and why it needs a person.

Why boxes carry a class *name*, not an index: the proposals come from a run's model and go into whichever
dataset the user accepts them into; the two index their classes differently, and only the name is shared
(``core.labelling.accept`` maps by name, refusing a name the dataset lacks). Coordinates are pixels of the
image as yolov5 reads it (EXIF orientation applied: OpenCV's ``imread``, which the predictor uses, applies it,
and yolov5 normalises labels by the EXIF-corrected size, ``utils/dataloaders.py: exif_size``), corners
``x1 y1 x2 y2`` — what an editor draws; ``yolo_row`` turns one into a label line.

"Least certain first": a box's uncertainty is how close its confidence is to the queue's threshold (1 at
the threshold, 0 at confidence 1 or 0): a box just above it may be wrong, one just below may be a missed
object. An image's uncertainty is its most uncertain box's; two boxes of different classes on the same object
(IoU ≥ ``CONFLICT_IOU``) and an image where the model found nothing are reasons of their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from core.i18n import N_, tr

# Box states: what a person decided about one box.
PROPOSED = "proposed"  # the model's, nobody looked yet
ACCEPTED = "accepted"  # a person confirmed the model's box unchanged
EDITED = "edited"  # a person moved/resized it or changed its class (or drew it: origin "person")
REJECTED = "rejected"  # a person said it is wrong: never written into a dataset
BOX_STATES = (PROPOSED, ACCEPTED, EDITED, REJECTED)

# Where a box came from.
MODEL, PERSON = "model", "person"

# Image states.
PENDING = "pending"  # not predicted yet (a cancelled or killed auto-label resumes here)
TO_REVIEW = "to-review"  # predicted; no person has decided on the image
REVIEWED = "reviewed"  # a person decided on its boxes; ready to go into a dataset
IMAGE_REJECTED = "rejected"  # a person said the image is not to be added
ADDED = "added"  # written into a dataset by accept
UNREADABLE = "unreadable"  # the predictor could not read it
IMAGE_STATES = (PENDING, TO_REVIEW, REVIEWED, IMAGE_REJECTED, ADDED, UNREADABLE)

#: Two boxes of different classes overlapping this much are one object the model could not name.
CONFLICT_IOU = 0.6
#: Boxes below this confidence are not kept at all (a threshold lower than it lowers it).
KEEP_FLOOR = 0.05

# Why an image needs a person: code -> words (shown translated; ``reason_words``).
REASONS: dict[str, str] = {
    "class-conflict": N_("two boxes of different classes on one object"),
    "near-threshold": N_("a box close to the confidence threshold (confidence {conf:.2f})"),
    "below-threshold": N_("a possible object just below the threshold (confidence {conf:.2f})"),
    "no-boxes": N_("the model found nothing: an empty image, or everything missed"),
    "unreadable": N_("the image could not be read: {reason}"),
    "confident": N_("every box well above the threshold (lowest {conf:.2f})"),
}


@dataclass(frozen=True, slots=True)
class Box:
    """One box: corners in image pixels, class name, the model's confidence (None for a person's box)."""

    x1: float
    y1: float
    x2: float
    y2: float
    cls: str
    conf: float | None = None
    state: str = PROPOSED
    origin: str = MODEL

    def to_list(self) -> list[Any]:
        return [self.x1, self.y1, self.x2, self.y2, self.cls, self.conf, self.state, self.origin]

    @classmethod
    def from_list(cls, row: list[Any]) -> Box:
        x1, y1, x2, y2, name, conf, state, origin = row
        if state not in BOX_STATES or origin not in (MODEL, PERSON):
            raise ValueError(f"box state {state!r} / origin {origin!r}")
        return cls(float(x1), float(y1), float(x2), float(y2), str(name), None if conf is None else float(conf),
                   str(state), str(origin))

    def with_state(self, state: str) -> Box:
        return replace(self, state=state)

    @property
    def kept(self) -> bool:
        """Would go into a dataset if the image were accepted now (at the queue's threshold: ``goes_in``)."""
        return self.state in (ACCEPTED, EDITED)


@dataclass(slots=True)
class ImageItem:
    """One image of a queue: its id (path relative to the queue's images folder), size, boxes and state."""

    id: str
    path: str  # absolute
    state: str = PENDING
    width: int = 0
    height: int = 0
    boxes: list[Box] = field(default_factory=list)
    uncertainty: float = 0.0
    reason: str = ""  # a REASONS code
    reason_value: dict[str, Any] = field(default_factory=dict)
    problem: str = ""  # why unreadable
    added_as: str = ""  # the image's path in the dataset, once added

    @property
    def reason_text(self) -> str:
        return reason_words(self.reason, self.reason_value)

    def to_dict(self) -> dict[str, Any]:
        """The queue listing's ``--json`` shape (boxes as objects: what a script reads)."""
        return {"id": self.id, "path": self.path, "state": self.state, "width": self.width, "height": self.height,
                "uncertainty": round(self.uncertainty, 4), "reason": self.reason, "reason_text": self.reason_text,
                "problem": self.problem, "added_as": self.added_as,
                "boxes": [{"xyxy": [b.x1, b.y1, b.x2, b.y2], "class": b.cls, "conf": b.conf, "state": b.state,
                           "origin": b.origin} for b in self.boxes]}


def reason_words(code: str, values: dict[str, Any]) -> str:
    text = REASONS.get(code)
    return tr(text, **values) if text else ""


def iou(a: Box, b: Box) -> float:
    ix = max(0.0, min(a.x2, b.x2) - max(a.x1, b.x1))
    iy = max(0.0, min(a.y2, b.y2) - max(a.y1, b.y1))
    inter = ix * iy
    union = (a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - inter
    return inter / union if union > 0 else 0.0


def box_uncertainty(conf: float, threshold: float) -> float:
    """1 at the threshold, falling to 0 at confidence 1 (above) or 0 (below)."""
    if conf >= threshold:
        return 1.0 - (conf - threshold) / max(1e-9, 1.0 - threshold)
    return conf / max(1e-9, threshold)


def rank(item: ImageItem, threshold: float) -> None:
    """Set ``item``'s uncertainty and reason from its model boxes (a person's decisions do not change them)."""
    if item.state == UNREADABLE:
        item.uncertainty, item.reason, item.reason_value = 1.0, "unreadable", {"reason": item.problem}
        return
    model = [b for b in item.boxes if b.origin == MODEL and b.conf is not None]
    if not [b for b in model if (b.conf or 0.0) >= threshold]:
        below = max((b.conf or 0.0 for b in model), default=0.0)
        if below > 0.0:
            item.uncertainty, item.reason = box_uncertainty(below, threshold), "below-threshold"
            item.reason_value = {"conf": below}
            item.uncertainty = max(item.uncertainty, 0.5)  # nothing proposed: worth a look either way
        else:
            item.uncertainty, item.reason, item.reason_value = 0.5, "no-boxes", {}
        return
    above = [b for b in model if (b.conf or 0.0) >= threshold]
    for i, a in enumerate(above):
        for b in above[i + 1:]:
            if a.cls != b.cls and iou(a, b) >= CONFLICT_IOU:
                item.uncertainty, item.reason, item.reason_value = 1.0, "class-conflict", {}
                return
    worst = max(model, key=lambda b: box_uncertainty(b.conf or 0.0, threshold))
    item.uncertainty = box_uncertainty(worst.conf or 0.0, threshold)
    if item.uncertainty < 0.5:
        lowest = min(b.conf or 0.0 for b in model if (b.conf or 0.0) >= threshold)
        item.reason, item.reason_value = "confident", {"conf": lowest}
    else:
        item.reason = "near-threshold" if (worst.conf or 0.0) >= threshold else "below-threshold"
        item.reason_value = {"conf": worst.conf or 0.0}


def review_order(items: list[ImageItem]) -> list[ImageItem]:
    """What most needs a person first: images still to review, least certain first (ties by id); then the
    reviewed, then the unreadable, rejected and added ones."""
    group = {TO_REVIEW: 0, REVIEWED: 1, PENDING: 2, UNREADABLE: 3, IMAGE_REJECTED: 4, ADDED: 5}
    return sorted(items, key=lambda it: (group.get(it.state, 9), -it.uncertainty, it.id))


def goes_in(box: Box, threshold: float) -> bool:
    """Whether ``box`` is written when its image is accepted: a person's yes (accepted, edited, drawn), or the
    model's box left untouched at or above ``threshold``; never a rejected one."""
    if box.state == REJECTED:
        return False
    if box.state in (ACCEPTED, EDITED):
        return True
    return box.conf is not None and box.conf >= threshold


def yolo_row(box: Box, class_index: int, width: int, height: int) -> str:
    """The label line yolov5 reads for ``box`` (normalised centre x, y, w, h; 6 decimals, as the Errors
    browser writes: ``core.evaluation.label_edits.add_box``), the box clipped to the image."""
    x1, x2 = (min(max(v, 0.0), width) for v in (box.x1, box.x2))
    y1, y2 = (min(max(v, 0.0), height) for v in (box.y1, box.y2))
    return (f"{int(class_index)} {(x1 + x2) / 2 / width:.6f} {(y1 + y2) / 2 / height:.6f} "
            f"{(x2 - x1) / width:.6f} {(y2 - y1) / height:.6f}")
