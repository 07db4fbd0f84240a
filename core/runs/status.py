"""What a run's events say, and the status derived from them: the one rule for "is this run running?".

A run's status is *derived*, never stored (``core.runs.store`` reads the folder): the last ``done`` event says
how a worker ended; with no ``done``, a worker whose process is still alive (same pid *and* start time, so a
recycled pid can't fool us: ``core.run.owner.worker_alive``) is running, and one that is gone died without a
word: ``failed``, never "running" forever. ``fold_events`` reads the events in one pass and can continue a
fold with the lines appended since (``core.runs.index`` caches the folds).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from core.run.best_epoch import BestEpoch, best_from_event
from core.run.owner import worker_alive

RUN_STATUSES = ("running", "completed", "stopped", "failed")


#: A run whose worker has not said a word yet is "running" for this long after its folder was made.
STARTING_GRACE_S = 60.0


@dataclass
class _Segment:
    pid: int | None = None
    create_time: float | None = None
    started: float | None = None  # the ``t`` of its ``stage: starting``
    done: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


@dataclass
class RunSummary:
    """What a run's events say, folded in one pass."""

    segment: _Segment = field(default_factory=_Segment)
    started: float | None = None
    last_t: float | None = None
    epochs_total: int = 0
    epochs_done: int = 0
    best: BestEpoch | None = None
    last_weights: str = ""
    best_weights: str = ""
    efficiency: dict[str, Any] | None = None
    duration_s: float = 0.0


#: The event types ``fold_events`` reads (beyond every event's ``t``); readers may skip decoding the others.
FOLDED_TYPES = frozenset({"stage", "epoch_start", "epoch_end", "checkpoint", "error", "done"})


def fold_events(events: Any, summary: RunSummary | None = None) -> RunSummary:
    """Fold events into a run's summary; with ``summary``, continue that fold (events appended since)."""
    summary = RunSummary() if summary is None else summary
    for ev in events:
        kind = ev.get("type")
        t = ev.get("t")
        summary.last_t = t if isinstance(t, (int, float)) else summary.last_t
        if kind == "stage" and ev.get("stage") == "starting":
            summary.segment = _Segment(pid=ev.get("pid"), create_time=ev.get("create_time"),
                                       started=t if isinstance(t, (int, float)) else None)
            summary.started = summary.started or t
        elif kind == "epoch_start":
            summary.epochs_total = int(ev.get("epochs") or summary.epochs_total)
        elif kind == "epoch_end":
            summary.epochs_done = max(summary.epochs_done, int(ev.get("epoch", -1)) + 1)
            summary.epochs_total = int(ev.get("epochs") or summary.epochs_total)
            summary.best = best_from_event(summary.best, ev)
        elif kind == "checkpoint":
            if ev.get("reason") in ("epoch", "stop"):
                summary.last_weights = ev.get("path", summary.last_weights)
            if ev.get("best_path"):
                summary.best_weights = ev["best_path"]
        elif kind == "error":
            summary.segment.error = {k: ev.get(k) for k in ("kind", "message", "hint")}
        elif kind == "done":
            summary.segment.done = ev
            summary.efficiency = ev.get("efficiency") or summary.efficiency
            if isinstance(ev.get("elapsed_s"), (int, float)):
                summary.duration_s += float(ev["elapsed_s"])
            summary.best_weights = ev.get("best") or summary.best_weights
            summary.last_weights = ev.get("last") or summary.last_weights
    return summary


def derive_status(summary: RunSummary, *, folder_mtime: float, now: float,
                  alive: Callable[[int | None, float | None], bool] = worker_alive) -> str:
    seg = summary.segment
    if seg.done is not None:
        status = seg.done.get("status")
        return status if status in RUN_STATUSES else "failed"
    if seg.pid is None:
        # No worker has spoken: just launched, or the launch itself failed long ago.
        return "running" if now - folder_mtime < STARTING_GRACE_S else "failed"
    return "running" if alive(seg.pid, seg.create_time) else "failed"
