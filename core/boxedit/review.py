"""The review queue as the box editor's host lists it: one row per image, what most needs a person first.

The queue's storage and its scores are the auto-labeller's (issue 33's ``label auto``); this module only says
what a row shows and in which order: ``need`` is how much the image needs a person (1 − the least certain
proposal's confidence, say), ``reason`` the words saying why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class ReviewRow:
    image: str
    need: float
    reason: str
    boxes: int = 0


def by_need(rows: Iterable[ReviewRow]) -> list[ReviewRow]:
    """Most in need first; ties by image path so the order is stable between loads."""
    return sorted(rows, key=lambda r: (-r.need, r.image))
