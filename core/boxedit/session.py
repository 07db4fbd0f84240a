"""One image's labels being edited: rows in yolov5's format, every action undoable, written only when asked.

Why rows keep their line: a row the person did not touch is written back as the very text it was read from,
so saving an edited file changes only the edited rows (and a file saved with no edit is byte-identical).
A row the editor makes is rounded to 6 decimals *when it is made*, so what is written is what is re-read.

Coordinates: yolov5 7.0.14 reads the image with ``cv2.imread``, which applies the EXIF orientation, and sizes
it with ``exif_size`` (width and height swapped for orientations 6 and 8) — checked by running both on a
rotated JPEG (the bright corner lands at the same pixel in ``cv2.imread`` and ``exif_transpose``). So the
rows are fractions of the *oriented* image: the editor must be given its oriented width and height (the GUI
decodes with Qt's auto-transform, which turns the picture the same way).

Writing goes through ``core.evaluation.label_edits.LabelEdit`` (atomic, ``.bak`` beside it, the check's cache
key moved on), so the editor and the Errors browser write label files the same way and their undo refuses to
overwrite a file someone changed since.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from core.dataset.labels import parse_label_text
from core.evaluation.label_edits import SAME_BOX_IOU, LabelEdit, LabelEditError, _read
from core.i18n import tr

PLACES = 6  # decimals a made row keeps [yolov5's own label writers and ours (label_edits.add_box) use 6]


@dataclass(frozen=True)
class Box:
    """A yolov5 row: class and normalised centre x, y, width, height; ``line`` the text it was read from
    (None once edited), ``origin`` who made it: ``file``, ``model`` (a proposal) or ``person``."""

    cls: int
    x: float
    y: float
    w: float
    h: float
    line: str | None = None
    origin: str = "file"
    conf: float | None = None

    def text(self) -> str:
        if self.line is not None:
            return self.line
        return f"{self.cls} {self.x:.{PLACES}f} {self.y:.{PLACES}f} {self.w:.{PLACES}f} {self.h:.{PLACES}f}"

    def pixels(self, width: int, height: int) -> tuple[float, float, float, float]:
        """x1, y1, x2, y2 in the oriented image's pixels."""
        return ((self.x - self.w / 2) * width, (self.y - self.h / 2) * height,
                (self.x + self.w / 2) * width, (self.y + self.h / 2) * height)


def box_from_pixels(cls: int, rect: tuple[float, float, float, float], width: int, height: int,
                    origin: str = "person") -> Box:
    """A new row from pixel corners (any order), clipped to the image and rounded as it will be written."""
    x1, y1, x2, y2 = rect
    x1, x2 = sorted((min(max(x1, 0.0), width), min(max(x2, 0.0), width)))
    y1, y2 = sorted((min(max(y1, 0.0), height), min(max(y2, 0.0), height)))
    r = lambda v: round(v, PLACES)  # noqa: E731 - one rounding rule for the four values
    return Box(int(cls), r((x1 + x2) / 2 / width), r((y1 + y2) / 2 / height), r((x2 - x1) / width),
               r((y2 - y1) / height), None, origin)


def parse_rows(text: str, file: str = "") -> tuple[list[Box], bool]:
    """The rows of a label file's text, each with its own line; and whether the editor may rewrite it (a file
    with polygon rows is a segmentation label: shown, never rewritten as boxes)."""
    result = parse_label_text(text, file)
    lines = text.splitlines()
    boxes = []
    for line, cls, x, y, w, h in result.rows:
        text = lines[line - 1].strip()
        values = text.split()[1:5]  # as written (float64): the parser's are float32, as yolov5's array is
        if not result.segments and len(values) == 4:
            x, y, w, h = (float(v) for v in values)
        boxes.append(Box(int(cls), float(x), float(y), float(w), float(h), text))
    return boxes, not result.segments


def rows_text(boxes: list[Box], ending: str = "\n") -> str:
    return "".join(b.text() + ending for b in boxes)


class EditSession:
    """The boxes of one image while a person edits them. Every change is one undo step; ``save`` writes."""

    def __init__(self, label_path: Path | str, width: int, height: int,
                 proposals: list[Box] | None = None) -> None:
        self.path = Path(label_path)
        self.width, self.height = int(width), int(height)
        self._read_text = _read(self.path)
        boxes, self.editable = parse_rows(self._read_text, str(self.path))
        self.ending = "\r\n" if "\r\n" in self._read_text else "\n"
        self._saved = list(boxes)
        self.boxes: list[Box] = boxes + list(proposals or [])
        self._undo: list[list[Box]] = []
        self._redo: list[list[Box]] = []
        self.actions = 0  # edits made (the bench counts them)

    # --- edits -------------------------------------------------------------------------------------------
    def _push(self, boxes: list[Box]) -> None:
        if not self.editable:
            raise LabelEditError(tr("{path} holds polygon rows; the box editor does not rewrite it.",
                                    path=self.path))
        self._undo.append(self.boxes)
        self._redo.clear()
        self.boxes = boxes
        self.actions += 1

    def add(self, cls: int, rect: tuple[float, float, float, float]) -> int:
        self._push(self.boxes + [box_from_pixels(cls, rect, self.width, self.height)])
        return len(self.boxes) - 1

    def set_rect(self, index: int, rect: tuple[float, float, float, float]) -> None:
        old = self.boxes[index]
        new = box_from_pixels(old.cls, rect, self.width, self.height, "person")
        if (new.x, new.y, new.w, new.h) == (old.x, old.y, old.w, old.h):
            return
        self._push(self.boxes[:index] + [new] + self.boxes[index + 1:])

    def set_class(self, index: int, cls: int) -> None:
        old = self.boxes[index]
        if old.cls == int(cls):
            return
        new = replace(old, cls=int(cls), line=None, origin="person")
        self._push(self.boxes[:index] + [new] + self.boxes[index + 1:])

    def confirm(self, index: int) -> None:
        """A proposal taken as it is (one action: the person looked and agreed)."""
        old = self.boxes[index]
        if old.origin == "model":
            self._push(self.boxes[:index] + [replace(old, origin="confirmed")] + self.boxes[index + 1:])

    def reject_proposals(self) -> None:
        """Every proposal not yet confirmed or edited dropped at once (the image's proposals rejected)."""
        kept = [b for b in self.boxes if b.origin != "model"]
        if len(kept) != len(self.boxes):
            self._push(kept)

    def delete(self, index: int) -> None:
        self._push(self.boxes[:index] + self.boxes[index + 1:])

    def undo(self) -> bool:
        if not self._undo:
            return False
        self._redo.append(self.boxes)
        self.boxes = self._undo.pop()
        return True

    def redo(self) -> bool:
        if not self._redo:
            return False
        self._undo.append(self.boxes)
        self.boxes = self._redo.pop()
        return True

    # --- state and writing -------------------------------------------------------------------------------
    def pixels(self, index: int) -> tuple[float, float, float, float]:
        return self.boxes[index].pixels(self.width, self.height)

    def find(self, cls: int, rect: tuple[float, float, float, float]) -> int:
        """Index of the row the Errors browser points at (class ``cls``, pixels ``rect``): the one overlapping it
        most with IoU ≥ ``label_edits.SAME_BOX_IOU``; -1 when none."""
        best, best_iou = -1, SAME_BOX_IOU
        for i, box in enumerate(self.boxes):
            if box.cls != int(cls):
                continue
            a = box.pixels(self.width, self.height)
            iw = max(0.0, min(a[2], rect[2]) - max(a[0], rect[0]))
            ih = max(0.0, min(a[3], rect[3]) - max(a[1], rect[1]))
            union = (a[2] - a[0]) * (a[3] - a[1]) + (rect[2] - rect[0]) * (rect[3] - rect[1]) - iw * ih
            iou = iw * ih / union if union > 0 else 0.0
            if iou >= best_iou:
                best, best_iou = i, iou
        return best

    def text(self) -> str:
        """The file as it would be written: untouched rows as they were read, with the file's line ending."""
        return rows_text(self.boxes, self.ending)

    @property
    def dirty(self) -> bool:
        return [b.text() for b in self.boxes] != [b.text() for b in self._saved]

    def save(self) -> LabelEdit | None:
        """Write the boxes (atomic, ``.bak``) when they differ from the file; the edit returned can be undone.
        A file changed on disk since it was read is refused in words, never overwritten."""
        if not self.dirty:
            return None
        if _read(self.path) != self._read_text:
            raise LabelEditError(tr("{path} changed after the editor read it; it was left as it is.",
                                    path=self.path))
        edit = LabelEdit(self.path, self._read_text, self.text(), tr("edit the boxes of {path}", path=self.path))
        edit.apply()
        self._read_text = edit.after
        self._saved = list(self.boxes)
        return edit
