"""Per-batch timing: how long each step waited for data and how long it computed, and throttling.

The gap between the end of one batch and the start of the next is time the GPU sat waiting for the
data loader (yolov5's progress-bar formatting synchronises the GPU every step, so the end time is real).
Every batch is timed, but a batch *event* goes out at most every ``min_interval_s``: it carries its own
figures plus the sums over the window since the previous event, so a reader that adds up windows covers
every batch. Pure Python with an injectable clock: tested without torch or a GPU.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable


@dataclass
class Sums:
    batches: int = 0
    images: int = 0
    data_wait_s: float = 0.0
    step_s: float = 0.0

    def add(self, images: int, wait: float, step: float) -> None:
        self.batches += 1
        self.images += images
        self.data_wait_s += wait
        self.step_s += step

    @property
    def images_per_s(self) -> float | None:
        total = self.data_wait_s + self.step_s
        return self.images / total if total > 0 else None

    @property
    def data_wait_share(self) -> float | None:
        total = self.data_wait_s + self.step_s
        return self.data_wait_s / total if total > 0 else None

    def to_dict(self) -> dict[str, float | int | None]:
        return {"batches": self.batches, "images": self.images, "data_wait_s": round(self.data_wait_s, 6),
                "step_s": round(self.step_s, 6), "images_per_s": self.images_per_s,
                "data_wait_share": self.data_wait_share}


@dataclass
class BatchTiming:
    data_wait_s: float
    step_s: float
    emit: bool
    window: Sums


@dataclass
class BatchTimer:
    min_interval_s: float = 0.1
    clock: Callable[[], float] = time.perf_counter
    epoch: Sums = field(default_factory=Sums)
    run: Sums = field(default_factory=Sums)
    _window: Sums = field(default_factory=Sums)
    _last_end: float | None = None
    _start: float | None = None
    _last_emit: float = float("-inf")

    def epoch_start(self) -> None:
        """Validation and checkpointing happened before this; they are not data wait."""
        self._last_end = self.clock()
        self.epoch = Sums()

    def batch_start(self) -> None:
        self._start = self.clock()
        if self._last_end is None:
            self._last_end = self._start

    def batch_end(self, images: int, *, force_emit: bool = False) -> BatchTiming:
        now = self.clock()
        start = self._start if self._start is not None else now
        wait = max(0.0, start - (self._last_end if self._last_end is not None else start))
        step = max(0.0, now - start)
        self._last_end, self._start = now, None
        for sums in (self._window, self.epoch, self.run):
            sums.add(images, wait, step)
        emit = force_emit or now - self._last_emit >= self.min_interval_s
        window = self._window
        if emit:
            self._last_emit = now
            self._window = Sums()
        return BatchTiming(wait, step, emit, window)
