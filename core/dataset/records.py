"""The report's per-image records (path, split, size, boxes, problem codes) that the gallery pages through.

Why lazy: the gallery shows one page of 48 images at a time, and building 20,000 records with their boxes
up front would be most of a re-check's time. ``ImageRecords`` reads the checked table and builds a record
only when it is asked for; iterating all of them once keeps them for the next pass (the problems filter).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from core.dataset.table import HAS_LABEL, ScanTable


@dataclass
class ImageRecord:
    path: str
    split: str
    label: str
    label_exists: bool
    width: int
    height: int
    boxes: list[tuple[int, float, float, float, float]] = field(default_factory=list)  # class, x, y, w, h
    problems: list[str] = field(default_factory=list)  # codes of error/warning findings about this image


class ImageRecords(Sequence[ImageRecord]):
    """Every image of every split, split by split (an image in two splits appears twice)."""

    def __init__(self, table: ScanTable | None = None, members: dict[str, np.ndarray] | None = None,
                 problems: dict[int, list[str]] | None = None) -> None:
        self._table = table
        self._splits = list(members or {})
        parts = list((members or {}).values())
        self._index = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        self._ends = np.cumsum([len(p) for p in parts])
        self._problems = problems or {}  # by table position; only images with problems
        self._all: list[ImageRecord] | None = None

    def __len__(self) -> int:
        return len(self._index)

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, slice):
            return [self._record(j) for j in range(*k.indices(len(self)))]
        k = int(k) + (len(self) if int(k) < 0 else 0)
        if not 0 <= k < len(self):
            raise IndexError(k)
        return self._record(k)

    def __iter__(self) -> Iterator[ImageRecord]:
        if self._all is None:
            self._all = [self._record(j) for j in range(len(self))]
        return iter(self._all)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and len(self) == len(other) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def _record(self, k: int) -> ImageRecord:
        if self._all is not None:
            return self._all[k]
        table = self._table
        assert table is not None
        i = int(self._index[k])
        split = self._splits[int(np.searchsorted(self._ends, k, side="right"))]
        start, count = int(table.starts[i]), int(table.counts[i])
        boxes = [(int(c), x, y, w, h) for _, c, x, y, w, h in table.rows[start:start + count].tolist()]
        return ImageRecord(table.paths[i], split, table.labels[i], bool(table.flags[i] & HAS_LABEL),
                           int(table.wh[i, 0]), int(table.wh[i, 1]), boxes, list(self._problems.get(i, [])))
