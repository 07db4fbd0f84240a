"""Runs the bottleneck monitor inside the training worker, on the events the worker itself emits.

Every event passes through ``feed`` (an ``EventWriter`` listener). At each epoch end, and every
``interval_s`` of training in between, the window is diagnosed; a ``diagnosis`` event goes out at every
epoch end and whenever the verdict changes mid-epoch, so the CLI and the GUI show the same verdict, live
or replayed. The whole-run efficiency summary is folded alongside and stored with the run at the end.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

from core.training.bottleneck import EfficiencyAccumulator, RunWindow, diagnose, verdict_event_fields


class BottleneckMonitor:
    def __init__(self, emit: Callable[..., Any], config: dict[str, Any], *, interval_s: float = 30.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._emit = emit
        self._lock = threading.Lock()
        self.window = RunWindow()
        self.window.config = config
        self.efficiency = EfficiencyAccumulator()
        self._interval_s = interval_s
        self._clock = clock
        self._last_eval = clock()
        self._last_code: str | None = None
        self._epoch = 0

    def feed(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "diagnosis":
            return
        with self._lock:
            self.window.feed(event)
            self.efficiency.feed(event)
            if kind in ("epoch_start", "epoch_end", "batch"):
                self._epoch = int(event.get("epoch", self._epoch))
            due = kind == "epoch_end" or (kind == "batch" and self._clock() - self._last_eval >= self._interval_s)
            if not due:
                return
            self._last_eval = self._clock()
            verdict = diagnose(self.window.figures())
            if verdict is None or (kind != "epoch_end" and verdict.code == self._last_code):
                return
            self._last_code = verdict.code
        self._emit("diagnosis", epoch=self._epoch, at="epoch_end" if kind == "epoch_end" else "mid_epoch",
                   **verdict_event_fields(verdict))
