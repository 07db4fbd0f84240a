"""Run progress folded from events: where the run is, how fast it goes, when it will end.

One model for both faces: the CLI's progress bar and the GUI's Train page feed it the same events
(live, or replayed from events.jsonl) and read the same figures, so they never disagree. The ETA comes
from measured throughput: once an epoch has been measured, the remaining epochs at the mean measured epoch time
(training + validation, the first epoch's warm-up left out when later ones exist) and the current epoch's time
left by the clock (the same measured time less the time it has run) — so it falls steadily instead of swinging
between the batch rate (which leaves validation out) and the epoch time (issue 32: 2:06 → 4:02 → 0:37). Before
the first epoch ends, the batch rate is all there is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from core.job.jobs import is_job_error
from core.run.best_epoch import BestEpoch, best_from_event


@dataclass
class RunProgress:
    stage: str = "starting"
    epoch: int = 0
    epochs: int = 0
    batch: int = 0  # batches done in the current epoch
    batches: int = 0
    losses: dict[str, float] = field(default_factory=dict)
    images_per_s: float | None = None
    data_wait_share: float | None = None
    epoch_times: list[float] = field(default_factory=list)
    metrics: dict[str, float] = field(default_factory=dict)
    best: BestEpoch | None = None  # yolov5's best epoch (highest fitness), the one best.pt holds
    status: str | None = None  # set by done
    elapsed_s: float | None = None
    error: dict[str, Any] | None = None
    done: dict[str, Any] | None = None
    _batch_rate: float | None = None  # batches per second, smoothed
    _last_batch_t: float | None = None
    _last_batch_index: int | None = None
    _started_t: float | None = None
    _epoch_start_t: float | None = None
    now: float | None = None

    def feed(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        t = event.get("t")
        if isinstance(t, (int, float)):
            self.now = t
        if kind == "stage":
            self.stage = str(event.get("stage", self.stage))
            if self.stage == "starting":
                self._started_t = self._started_t or t
                self.begin_segment()
        elif kind == "epoch_start":
            self.epoch = int(event.get("epoch", 0))
            self.epochs = int(event.get("epochs", self.epochs))
            self.batches = int(event.get("batches", self.batches))
            self.batch = 0
            self._last_batch_t, self._last_batch_index = t, -1
            self._epoch_start_t = t if isinstance(t, (int, float)) else None
            self.stage = "training"
        elif kind == "batch":
            self._feed_batch(event)
        elif kind == "epoch_end":
            self._feed_epoch_end(event)
        elif is_job_error(event) and self.error is None:  # the one ending rule (``core.job.jobs.JobTracker``)
            self.error = {k: event.get(k) for k in ("kind", "message", "hint")}
        elif kind == "done":
            self.done = event
            self.status = event.get("status")
            self.elapsed_s = event.get("elapsed_s")
            self.stage = "done"

    def begin_segment(self) -> None:
        """A new worker start (resume) begins: forget how the previous one ended, keep the history."""
        self.status, self.done, self.error = None, None, None

    def _feed_batch(self, event: dict[str, Any]) -> None:
        self.epoch = int(event.get("epoch", self.epoch))
        self.epochs = int(event.get("epochs", self.epochs))
        index = int(event.get("index", 0))
        self.batches = int(event.get("count", self.batches))
        self.batch = index + 1
        # null: the loss was not a finite number (JSON has no NaN) — kept as NaN, so it is shown as NaN, not 0
        self.losses = {k: float(v) if isinstance(v, (int, float)) else math.nan
                       for k, v in (event.get("losses") or {}).items() if v is None or isinstance(v, (int, float))}
        window = event.get("window") or {}
        ips = window.get("images_per_s")
        if isinstance(ips, (int, float)) and not event.get("warmup"):
            self.images_per_s = ips if self.images_per_s is None else 0.7 * self.images_per_s + 0.3 * ips
        share = window.get("data_wait_share")
        if isinstance(share, (int, float)) and not event.get("warmup"):
            self.data_wait_share = share if self.data_wait_share is None else 0.7 * self.data_wait_share + 0.3 * share
        t = event.get("t")
        if (isinstance(t, (int, float)) and self._last_batch_t is not None and self._last_batch_index is not None
                and index > self._last_batch_index and t > self._last_batch_t and not event.get("warmup")):
            rate = (index - self._last_batch_index) / (t - self._last_batch_t)
            self._batch_rate = rate if self._batch_rate is None else 0.7 * self._batch_rate + 0.3 * rate
        if isinstance(t, (int, float)):
            self._last_batch_t, self._last_batch_index = t, index

    def _feed_epoch_end(self, event: dict[str, Any]) -> None:
        self.epoch = int(event.get("epoch", self.epoch))
        self.epochs = int(event.get("epochs", self.epochs))
        self.metrics = {k: float(v) for k, v in (event.get("metrics") or {}).items() if isinstance(v, (int, float))}
        epoch_time = event.get("epoch_time_s")
        if isinstance(epoch_time, (int, float)):
            self.epoch_times.append(float(epoch_time))
        self.best = best_from_event(self.best, event)
        self.batch = self.batches
        self.stage = "validated"

    # -- derived figures ------------------------------------------------------------------------------
    @property
    def best_map50(self) -> float | None:
        return self.best.map50 if self.best else None

    @property
    def best_map50_95(self) -> float | None:
        return self.best.map50_95 if self.best else None

    @property
    def best_epoch(self) -> int | None:
        return self.best.epoch if self.best else None

    @property
    def epoch_fraction(self) -> float:
        return min(1.0, self.batch / self.batches) if self.batches else 0.0

    @property
    def run_fraction(self) -> float:
        if not self.epochs:
            return 0.0
        if self.status == "completed":
            return 1.0
        done_epochs = self.epoch + (1.0 if self.stage == "validated" else self.epoch_fraction)
        return min(1.0, done_epochs / self.epochs)

    def eta_epoch_s(self) -> float | None:
        if not self._batch_rate or not self.batches or self.stage != "training":
            return None
        return max(0.0, (self.batches - self.batch) / self._batch_rate)

    def eta_run_s(self) -> float | None:
        if self.status is not None or not self.epochs:
            return None
        remaining_epochs = self.epochs - self.epoch - 1
        if self.epoch_times:
            measured = self.epoch_times[1:] if len(self.epoch_times) > 1 else self.epoch_times
            per_epoch = sum(measured[-5:]) / len(measured[-5:])
            if self.stage == "validated":
                return max(0.0, remaining_epochs * per_epoch)
            if self._epoch_start_t is not None and self.now is not None:
                current = max(0.0, per_epoch - (self.now - self._epoch_start_t))
            else:
                current = per_epoch * (1.0 - self.epoch_fraction)
            return max(0.0, current + remaining_epochs * per_epoch)
        if self._batch_rate and self.batches:
            per_epoch = self.batches / self._batch_rate
        else:
            return None
        if self.stage == "validated":
            return max(0.0, remaining_epochs * per_epoch)
        current = self.eta_epoch_s()
        if current is None:
            current = per_epoch * (1.0 - self.epoch_fraction)
        return max(0.0, current + remaining_epochs * per_epoch)


def format_loss(value: float, digits: int = 4) -> str:
    """A loss (or metric) as the progress lines show it: ``digits`` decimals, or ``NaN`` for one that is not a
    finite number — never 0, which would read as a model that learned perfectly."""
    return f"{value:.{digits}f}" if math.isfinite(value) else "NaN"


def format_duration(seconds: float | None) -> str:
    """``1:02:03`` / ``4:05``; an em dash when unknown."""
    if seconds is None:
        return "—"
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
