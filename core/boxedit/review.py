"""The review queue as the box editor's host lists it: one row per image, what most needs a person first.

The queue's storage and its scores are the auto-labeller's (issue 33's ``label auto``); this module only says
what a row shows and in which order: ``need`` is how much the image needs a person (1 − the least certain
proposal's confidence, say), ``reason`` the words saying why.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from core.dataset.files import label_path_for
from core.dataset.images import is_image_name
from core.i18n import tr, tr_n


@dataclass(frozen=True)
class ReviewRow:
    image: str
    need: float
    reason: str
    boxes: int = 0


def by_need(rows: Iterable[ReviewRow]) -> list[ReviewRow]:
    """Most in need first; ties by image path so the order is stable between loads."""
    return sorted(rows, key=lambda r: (-r.need, r.image))


def folder_rows(folder: str | Path, limit: int = 100_000) -> list[ReviewRow]:
    """The images of ``folder`` (not its subfolders; yolov5's formats) as rows to label: those without a label
    file first (``need`` 1), then the ones with the fewest boxes. The label is where yolov5 looks for it
    (``core.dataset.files.label_path_for``: ``…/images/…`` → ``…/labels/….txt``, else beside the image)."""
    rows = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if len(rows) >= limit:
                break
            if not (entry.is_file() and is_image_name(entry.name)):
                continue
            label = Path(label_path_for(entry.path))
            try:
                count = sum(1 for line in label.read_text(encoding="utf-8", errors="replace").splitlines()
                            if line.strip())
            except OSError:
                rows.append(ReviewRow(entry.path, 1.0, tr("no labels yet"), 0))
                continue
            rows.append(ReviewRow(entry.path, 1.0 / (2 + count), tr_n("{n} box", "{n} boxes", count), count))
    return rows
