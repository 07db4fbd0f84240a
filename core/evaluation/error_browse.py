"""What the Errors browser shows and offers, as pure functions over a stored evaluation.

The list is ``result.json``'s ``errors`` in their stored order (the likeliest label mistake first,
``core.evaluation.ranking``), narrowed by kind, class and confidence; the boxes of a row come from
``images.json`` (native pixels); the fixes a row offers follow from which boxes it has: a label can be
deleted or given the predicted class, a prediction can be accepted as a label. The edits themselves are
``core.evaluation.label_edits``'.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from core.evaluation.label_edits import LabelEdit, add_box, change_class, delete_box

#: The kinds the browser lists (true positives are not errors); ``ranking.ranked_errors`` leaves them out too.
ERROR_KINDS = ("false_positive", "wrong_class", "poor_box", "missed", "duplicate")


@dataclass(frozen=True)
class ErrorFilter:
    kind: str = ""  # "" = every kind
    name: str = ""  # a class name; "" = every class
    min_confidence: float = 0.0  # rows without a prediction (missed objects) always pass

    def accepts(self, row: dict[str, Any]) -> bool:
        if self.kind and row.get("kind") != self.kind:
            return False
        if self.name and self.name not in (row.get("class"), row.get("predicted_name")):
            return False
        confidence = row.get("confidence")
        return confidence is None or float(confidence) >= self.min_confidence


def filtered(errors: Iterable[dict[str, Any]], rule: ErrorFilter) -> list[dict[str, Any]]:
    """The rows ``rule`` accepts, in their stored order."""
    return [row for row in errors if rule.accepts(row)]


def images_by_path(images: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(im["image"]): im for im in images}


@dataclass(frozen=True)
class RowBoxes:
    """A row's boxes in the image's pixels: the label (cls, x1, y1, x2, y2) and the prediction (x1..y2, conf, cls)."""
    width: int
    height: int
    label: list[float] | None
    prediction: list[float] | None


def row_boxes(row: dict[str, Any], image: dict[str, Any]) -> RowBoxes:
    labels, predictions = image.get("labels", []), image.get("predictions", [])
    li, pi = row.get("label"), row.get("prediction")
    return RowBoxes(int(image["width"]), int(image["height"]),
                    labels[li] if li is not None and 0 <= li < len(labels) else None,
                    predictions[pi] if pi is not None and 0 <= pi < len(predictions) else None)


def can_delete(boxes: RowBoxes) -> bool:
    return boxes.label is not None


def can_change_class(row: dict[str, Any], boxes: RowBoxes) -> bool:
    return (boxes.label is not None and row.get("predicted_class") is not None
            and int(row["predicted_class"]) != int(boxes.label[0]))


def can_accept(boxes: RowBoxes) -> bool:
    return boxes.prediction is not None


def delete_edit(row: dict[str, Any], boxes: RowBoxes) -> LabelEdit:
    assert boxes.label is not None
    return delete_box(row["image"], int(boxes.label[0]), list(boxes.label[1:5]), boxes.width, boxes.height)


def change_class_edit(row: dict[str, Any], boxes: RowBoxes) -> LabelEdit:
    assert boxes.label is not None
    return change_class(row["image"], int(boxes.label[0]), list(boxes.label[1:5]), boxes.width, boxes.height,
                        int(row["predicted_class"]))


def accept_edit(row: dict[str, Any], boxes: RowBoxes) -> LabelEdit:
    assert boxes.prediction is not None
    return add_box(row["image"], int(boxes.prediction[5]), list(boxes.prediction[:4]), boxes.width, boxes.height)
