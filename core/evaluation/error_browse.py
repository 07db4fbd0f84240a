"""What the Errors browser shows and offers, as pure functions over a stored evaluation.

The list is ``result.json``'s ``errors`` in their stored order (the likeliest label mistake first,
``core.evaluation.ranking``), narrowed by kind, class and confidence; the boxes of a row come from
``images.json`` (native pixels); the fixes a row offers follow from which boxes it has: a label can be
deleted or given any other class of the dataset (the predicted one offered first), a prediction can be
accepted as a label. The edits themselves are ``core.evaluation.label_edits``', each confined to the label
files of the evaluation's dataset (``dataset``: ``core.evaluation.label_scope``).

After an edit the stored labels are stale: a row's label is then looked up in the label file as it is now
(``labels_now``, read by ``label_edits.label_boxes``) by its position — its class may have changed, it may
be gone — so the browser draws and offers what the file holds, not what the evaluation saw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from core.evaluation.label_edits import LabelEdit, add_box, change_class, delete_box, same_box
from core.evaluation.label_scope import DatasetLabels

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


def row_boxes(row: dict[str, Any], image: dict[str, Any],
              labels_now: list[list[float]] | None = None) -> RowBoxes:
    """The row's boxes; with ``labels_now`` (the label file now), its label as the file holds it (or None)."""
    labels, predictions = image.get("labels", []), image.get("predictions", [])
    li, pi = row.get("label"), row.get("prediction")
    label = labels[li] if li is not None and 0 <= li < len(labels) else None
    if label is not None and labels_now is not None:
        label = next((now for now in labels_now if same_box(now[1:5], label[1:5])), None)
    return RowBoxes(int(image["width"]), int(image["height"]), label,
                    predictions[pi] if pi is not None and 0 <= pi < len(predictions) else None)


def can_delete(boxes: RowBoxes) -> bool:
    return boxes.label is not None


def class_choices(row: dict[str, Any], boxes: RowBoxes, names: dict[int, str]) -> list[int]:
    """The classes a label can be changed to: every class of the dataset but its own, the predicted one first."""
    if boxes.label is None:
        return []
    own = int(boxes.label[0])
    predicted = row.get("predicted_class")
    first = [int(predicted)] if predicted is not None and int(predicted) != own and int(predicted) in names else []
    return first + [c for c in sorted(names) if c != own and c not in first]


def can_change_class(row: dict[str, Any], boxes: RowBoxes, names: dict[int, str]) -> bool:
    return bool(class_choices(row, boxes, names))


def can_accept(boxes: RowBoxes, labels_now: list[list[float]] | None = None) -> bool:
    """A prediction can become a label — unless the file already holds that box of that class."""
    if boxes.prediction is None:
        return False
    cls, box = int(boxes.prediction[5]), list(boxes.prediction[:4])
    return not any(int(now[0]) == cls and same_box(now[1:5], box) for now in labels_now or [])


def delete_edit(row: dict[str, Any], boxes: RowBoxes, dataset: DatasetLabels,
                names: dict[int, str] | None = None) -> LabelEdit:
    assert boxes.label is not None
    return delete_box(row["image"], int(boxes.label[0]), list(boxes.label[1:5]), boxes.width, boxes.height,
                      dataset=dataset, names=names)


def change_class_edit(row: dict[str, Any], boxes: RowBoxes, dataset: DatasetLabels, new_class: int,
                      names: dict[int, str] | None = None) -> LabelEdit:
    assert boxes.label is not None
    return change_class(row["image"], int(boxes.label[0]), list(boxes.label[1:5]), boxes.width, boxes.height,
                        int(new_class), dataset=dataset, names=names)


def accept_edit(row: dict[str, Any], boxes: RowBoxes, dataset: DatasetLabels,
                names: dict[int, str] | None = None) -> LabelEdit:
    assert boxes.prediction is not None
    return add_box(row["image"], int(boxes.prediction[5]), list(boxes.prediction[:4]), boxes.width, boxes.height,
                   dataset=dataset, names=names)
