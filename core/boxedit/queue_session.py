"""One image of a review queue in the box editor: the editor's ``EditSession`` whose save is a queue decision.

The box editor edits rows of a label file (``core.boxedit.session``); a queue's image has no label file until it
is accepted into a dataset (``core.labelling.accept``: the only way in). So this session is read from the
queue's ``ImageItem`` and written back to the queue (``store.save_image``: one whole line in ``reviews.jsonl``),
never to a file of a dataset. What the editor shows is what would go in (``records.goes_in``): the model's boxes
at or above the queue's threshold (dashed, "model"), the ones a person confirmed ("confirmed") or drew/edited
("person"). A proposal under the threshold is kept in the queue as it was (a later ``--conf`` may take it) and a
deleted model box is kept as ``rejected``, so the queue remembers what the person refused.

Class numbers in the editor index ``names``: the model's classes (the queue's), then any other class name the
queue's boxes carry; a dataset that lacks one is refused at accept, naming it.
"""

from __future__ import annotations

from dataclasses import replace

from core.boxedit.session import Box as RowBox
from core.boxedit.session import EditSession, box_from_pixels
from core.labelling.records import (ACCEPTED, EDITED, MODEL, PERSON, PROPOSED, REJECTED, REVIEWED, Box,
                                    ImageItem)
from core.labelling.store import Queue, save_image


def queue_class_names(queue: Queue) -> list[str]:
    """The editor's class list for ``queue``: the model's classes by index, then other names its boxes use."""
    names = [queue.names[i] for i in sorted(queue.names)]
    for item in queue.items.values():
        for box in item.boxes:
            if box.cls not in names:
                names.append(box.cls)
    return names


def _key(row: RowBox) -> tuple[int, float, float, float, float]:
    return (row.cls, row.x, row.y, row.w, row.h)


class QueueSession(EditSession):
    """An ``EditSession`` over one queue image; ``save`` appends the decision to the queue (``REVIEWED``)."""

    def __init__(self, queue: Queue, image_id: str, names: list[str]) -> None:  # noqa: D107 - no file read
        item = queue.item(image_id)
        self.queue, self.image_id, self.names = queue, image_id, list(names)
        self.path = queue.folder.reviews
        self.width, self.height = int(item.width), int(item.height)
        self.editable, self.ending, self._read_text = True, "\n", ""
        self._original: dict[tuple[int, float, float, float, float], Box] = {}
        self._edited_from: dict[RowBox, Box] = {}  # a moved, resized or re-classed row -> the queue box it was
        self._hidden: list[Box] = []  # under the threshold, or rejected: kept in the queue as they are
        shown: list[RowBox] = []
        for box in item.boxes:
            visible = box.state in (ACCEPTED, EDITED) or (box.state == PROPOSED and box.conf is not None
                                                          and box.conf >= queue.header.threshold)
            if not visible or box.cls not in self.names:
                self._hidden.append(box)
                continue
            origin = {PROPOSED: "model", ACCEPTED: "confirmed"}.get(box.state, "person")
            row = replace(box_from_pixels(self.names.index(box.cls), (box.x1, box.y1, box.x2, box.y2),
                                          self.width, self.height, origin), conf=box.conf)
            self._original[_key(row)] = box
            shown.append(row)
        self._saved = list(shown)
        self.boxes = list(shown)
        self._undo, self._redo = [], []
        self.actions = 0

    def _source(self, row: RowBox) -> Box | None:
        return self._edited_from.get(row) or self._original.get(_key(row))

    def _keep_source(self, index: int, old: RowBox) -> None:
        new = self.boxes[index]
        source = self._source(old)
        if new is not old and source is not None:
            self._edited_from[new] = source  # a correction of the model's box, not a rejection and a new one

    def set_rect(self, index: int, rect: tuple[float, float, float, float]) -> None:
        old = self.boxes[index]
        super().set_rect(index, rect)
        self._keep_source(index, old)

    def set_class(self, index: int, cls: int) -> None:
        old = self.boxes[index]
        super().set_class(index, cls)
        self._keep_source(index, old)

    def queue_boxes(self) -> list[Box]:
        """The image's boxes as the queue stores them after the edits (what ``save`` writes)."""
        out: list[Box] = []
        used: set[int] = set()
        for row in self.boxes:
            original = self._source(row)
            if original is not None and row.origin == "model":
                out.append(original)
            elif original is not None and row.origin == "confirmed":
                out.append(original if original.state == EDITED else original.with_state(ACCEPTED))
            elif original is not None and row not in self._edited_from and original.state == EDITED:
                out.append(original)  # a person's box left as it was
            else:
                x1, y1, x2, y2 = row.pixels(self.width, self.height)
                name = self.names[row.cls] if 0 <= row.cls < len(self.names) else str(row.cls)
                came = original.origin if original is not None else PERSON
                out.append(Box(round(x1, 1), round(y1, 1), round(x2, 1), round(y2, 1), name,
                               original.conf if original is not None and came == MODEL else None, EDITED, came))
            if original is not None:
                used.add(id(original))
        refused = [b.with_state(REJECTED) for b in self._original.values() if id(b) not in used and b.origin == MODEL]
        return out + refused + self._hidden

    @property
    def dirty(self) -> bool:
        """A confirmed proposal is a change here (its row text is the same; its state is not)."""
        return [(b.text(), b.origin) for b in self.boxes] != [(b.text(), b.origin) for b in self._saved]

    def decide(self, state: str = REVIEWED) -> ImageItem:
        """Record the image as decided (``REVIEWED``: its boxes as shown; ``IMAGE_REJECTED``) even when no box
        changed: Enter on an image the model got right, or on an empty one, is a decision too."""
        item = save_image(self.queue, self.image_id, self.queue_boxes(), state)
        self._saved = list(self.boxes)
        return item

    def save(self, state: str = REVIEWED) -> ImageItem | None:  # type: ignore[override]
        """The person's decision on the image into the queue (one line); None when nothing changed."""
        if not self.dirty:
            return None
        item = save_image(self.queue, self.image_id, self.queue_boxes(), state)
        self._saved = list(self.boxes)
        return item
