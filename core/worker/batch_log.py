"""yolov5's per-batch progress row, as ``log`` events the log view and a replay show (throttled).

yolov5 prints this row through a tqdm bar on stderr, which the worker sends to ``worker.log``: the GUI's
log pane saw only the header row (a LOGGER line). The same columns are written here from the values yolov5
hands its ``on_train_batch_end`` hook (its running mean losses), so the pane reads like yolov5's console:
the first and last batch of each epoch, and at most one row every ``EVERY_S`` seconds between them (an
hour-long run adds about 700 lines to events.jsonl, not one per batch).
"""

from __future__ import annotations

import time
from typing import Callable

EVERY_S = 5.0


def batch_row(epoch: int, epochs: int, mem_gb: float | None, losses: tuple[float, float, float], instances: int,
              size: int, done: int, count: int) -> str:
    """yolov5 7.0's row (``'%11s' * 2 + '%11.4g' * 5``) with the batch count tqdm would show after it."""
    mem = f"{mem_gb or 0:.3g}G"
    row = ("%11s" * 2 + "%11.4g" * 5) % (f"{epoch}/{epochs - 1}", mem, *losses, instances, size)
    percent = 100 * done / count if count else 0
    return f"{row}: {percent:3.0f}% {done}/{count}"


class BatchLog:
    """Decides which batches get a row: first and last of an epoch, else one per ``every_s`` seconds."""

    def __init__(self, every_s: float = EVERY_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.every_s = every_s
        self.clock = clock
        self._last = float("-inf")

    def due(self, index: int, count: int) -> bool:
        now = self.clock()
        if index == 0 or index >= count - 1 or now - self._last >= self.every_s:
            self._last = now
            return True
        return False
