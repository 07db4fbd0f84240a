"""Fixing a label from the Errors browser: delete a box, change its class, accept a prediction as a label.

Each edit is a ``LabelEdit`` — the label file's text before and after — so it can be applied and undone.
Files are the user's: written atomically with a ``.bak`` copy before the first overwrite (``core.atomic``);
only the edited line changes (other lines, comments and line endings stay as they were). A box is found in
the file by its class and position (IoU ≥ 0.9 with the box the browser shows), not by its index: yolov5's
loader drops duplicate rows, so its index can differ from the file's line number.

The dataset check's cache needs no call: its entries carry the (size, mtime) of the files they were read
at (``core.dataset.cache``), so the edited label file is read again at the next check — as long as the
(size, mtime) moves. A class change keeps the size, and two writes within one tick of the file system's
clock keep the mtime, so each write here moves the mtime past the one it replaced (``_moved_on``).
``label_boxes`` reads a label file as it is now, for the browser to draw after an edit.

Which label file an image's edit touches is ``core.evaluation.label_scope``'s answer (``dataset``): only one of
the dataset's own, whatever path the stored evaluation gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import os

import numpy as np

from core.atomic import atomic_write_text
from core.dataset.labels import parse_label_text
from core.evaluation.label_scope import DatasetLabels
from core.evaluation.matching import box_iou
from core.i18n import tr

#: How closely a file's row must overlap the box shown to be taken for it [design: coordinates are rounded
#: to 6 decimals in label files and to 0.1 px in the store].
SAME_BOX_IOU = 0.9


class LabelEditError(ValueError):
    """An edit that cannot be made (the box is not in the file, the file changed since): the words say why."""


@dataclass(frozen=True)
class LabelEdit:
    path: Path
    before: str
    after: str
    description: str

    def apply(self) -> None:
        _write(self.path, self.after)

    def undo(self) -> None:
        """Put the file back as it was — only if nobody changed it since this edit."""
        current = _read(self.path)
        if current != self.after:
            raise LabelEditError(tr("{path} changed after this edit; it was left as it is.", path=self.path))
        _write(self.path, self.before)
        # The file is as it was: a .bak the same as it adds nothing and is not left behind (issue 32).
        bak = self.path.with_name(self.path.name + ".bak")
        try:
            if not os.path.islink(bak) and bak.is_file() and _read(bak) == self.before:
                bak.unlink()
        except (OSError, LabelEditError):
            pass  # a .bak that cannot be read is left alone


def _write(path: Path, text: str) -> None:
    """Atomic with a ``.bak``; the new file's (size, mtime) is never the old one's (the check's cache key).
    A label (or its ``.bak``) that became a link since the edit was built is refused (``label_scope``)."""
    for checked in (path, path.with_name(path.name + ".bak")):
        if os.path.islink(checked):
            raise LabelEditError(tr("{path} is a link now; it was left as it is.", path=checked))
    try:
        old = os.stat(path)
    except OSError:
        old = None
    atomic_write_text(path, text, backup=True)
    if old is not None:
        _moved_on(path, old.st_size, old.st_mtime_ns)


def _moved_on(path: Path, size: int, mtime_ns: int) -> None:
    """When ``path`` still has the (size, mtime) of the file it replaced, move its mtime on by 1 µs."""
    st = os.stat(path)
    if st.st_size == size and st.st_mtime_ns <= mtime_ns:
        later = mtime_ns + 1000
        os.utime(path, ns=(st.st_atime_ns, later))


def _read(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8") if path.exists() else ""  # bytes: CRLF kept as it is
    except (OSError, UnicodeDecodeError) as exc:
        raise LabelEditError(tr("{path} cannot be read: {reason}", path=path, reason=exc)) from exc


def label_boxes(image: str, width: int, height: int, *, dataset: DatasetLabels) -> list[list[float]]:
    """The label file of ``image`` as it is now: ``[cls, x1, y1, x2, y2]`` in the image's pixels, to 0.1 px as the
    store keeps them (no file: [])."""
    path = dataset.label_for(image)
    return [[int(cls)] + [round(float(v), 1) for v in ((x - w / 2) * width, (y - h / 2) * height,
                                                       (x + w / 2) * width, (y + h / 2) * height)]
            for _line, cls, x, y, w, h in parse_label_text(_read(path), str(path)).rows]


def same_box(a: list[float], b: list[float]) -> bool:
    """Two pixel boxes (x1, y1, x2, y2) taken for one: IoU ≥ ``SAME_BOX_IOU``."""
    return float(box_iou(np.array([a], float), np.array([b], float))[0, 0]) >= SAME_BOX_IOU


def _find_line(text: str, path: Path, cls: int, box: list[float], width: int, height: int) -> int:
    """0-based index of the line holding the box (class ``cls``, pixels x1y1x2y2)."""
    rows = parse_label_text(text, str(path)).rows
    best, best_iou = None, 0.0
    for line, row_cls, x, y, w, h in rows:
        if int(row_cls) != int(cls):
            continue
        xyxy = np.array([[(x - w / 2) * width, (y - h / 2) * height, (x + w / 2) * width, (y + h / 2) * height]])
        iou = float(box_iou(xyxy, np.array([box], float))[0, 0])
        if iou > best_iou:
            best, best_iou = line - 1, iou
    if best is None or best_iou < SAME_BOX_IOU:
        raise LabelEditError(tr("{path}: no class {cls} box at {box} (the file changed since the evaluation?).",
                                path=path, cls=cls, box=[round(v) for v in box]))
    return best


def _replace_line(text: str, index: int, new: str | None) -> str:
    lines = text.splitlines(keepends=True)
    ending = lines[index][len(lines[index].rstrip("\r\n")):] if index < len(lines) else "\n"
    if new is None:
        del lines[index]
    else:
        lines[index] = new + ending
    return "".join(lines)


def class_word(cls: int, names: dict[int, str] | None) -> str:
    """A class as the user knows it: its name (issue 32: the browser said "change class 0 to 2"), else its id."""
    name = (names or {}).get(int(cls))
    return str(name) if name else str(int(cls))


def delete_box(image: str, cls: int, box: list[float], width: int, height: int, *,
               dataset: DatasetLabels, names: dict[int, str] | None = None) -> LabelEdit:
    path = dataset.label_for(image)
    text = _read(path)
    index = _find_line(text, path, cls, box, width, height)
    return LabelEdit(path, text, _replace_line(text, index, None),
                     tr("delete a class {cls} box", cls=class_word(cls, names)))


def change_class(image: str, cls: int, box: list[float], width: int, height: int, new_cls: int, *,
                 dataset: DatasetLabels, names: dict[int, str] | None = None) -> LabelEdit:
    path = dataset.label_for(image)
    text = _read(path)
    index = _find_line(text, path, cls, box, width, height)
    line = text.splitlines()[index]
    head = len(line) - len(line.lstrip())
    tokens = line.lstrip().split(maxsplit=1)
    new = line[:head] + str(int(new_cls)) + (" " + tokens[1] if len(tokens) > 1 else "")
    return LabelEdit(path, text, _replace_line(text, index, new),
                     tr("change class {old} to {new}", old=class_word(cls, names), new=class_word(new_cls, names)))


def add_box(image: str, cls: int, box: list[float], width: int, height: int, *,
            dataset: DatasetLabels, names: dict[int, str] | None = None) -> LabelEdit:
    """A prediction accepted as a label: one new line in yolov5's format (normalised centre x, y, w, h)."""
    path = dataset.label_for(image)
    text = _read(path)
    x1, y1, x2, y2 = (max(0.0, min(v, lim)) for v, lim in zip(box, (width, height, width, height)))
    row = f"{int(cls)} {(x1 + x2) / 2 / width:.6f} {(y1 + y2) / 2 / height:.6f} {(x2 - x1) / width:.6f} " \
          f"{(y2 - y1) / height:.6f}"
    ending = "\r\n" if "\r\n" in text else "\n"
    prefix = text if not text or text.endswith(("\n", "\r")) else text + ending
    return LabelEdit(path, text, prefix + row + ending, tr("add a class {cls} box", cls=class_word(cls, names)))
