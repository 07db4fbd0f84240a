"""What a run's events say, and the status derived from them: the one rule for "is this run running?".

A run's status is *derived*, never stored: the last worker start's ``done`` event says how it ended; with no
``done``, the run is running while its worker is present (``worker_present``: the run folder's lock is held —
the kernel's word — or, for runs written before workers took the lock, the recorded pid is still that worker,
same pid *and* start time) and ``failed`` once it is gone without a word, never "running" forever.
``fold_events`` reads the events in one pass and continues a fold with the lines appended since. Every reader
uses this fold and this probe: ``runs`` (``core.runs.store``, through ``core.runs.index``), ``attach`` and the
GUI's follower (``core.runs.follow``), and a worker start's ending is ``core.job.jobs.JobTracker``'s fold.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from core.job.jobs import JobTracker
from core.run.best_epoch import BestEpoch, best_from_event
from core.run.owner import lock_owner, worker_alive

RUN_STATUSES = ("running", "completed", "stopped", "failed")


#: A run whose worker has not said a word yet is "running" for this long after its folder was made.
STARTING_GRACE_S = 60.0


@dataclass
class _Segment(JobTracker):
    """One worker start: who it was, when it began, and its ending (``JobTracker``'s fold: done, first error)."""

    pid: int | None = None
    create_time: float | None = None
    started: float | None = None  # the ``t`` of its ``stage: starting``


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
            summary.segment.feed(ev)
        elif kind == "done":
            summary.segment.feed(ev)
            summary.efficiency = ev.get("efficiency") or summary.efficiency
            if isinstance(ev.get("elapsed_s"), (int, float)):
                summary.duration_s += float(ev["elapsed_s"])
            summary.best_weights = ev.get("best") or summary.best_weights
            summary.last_weights = ev.get("last") or summary.last_weights
    return summary


def worker_present(run_dir: Path | None, pid: int | None, create_time: float | None, *,
                   alive: Callable[[int | None, float | None], bool] = worker_alive) -> bool:
    """The one liveness probe: a worker holds the run folder's lock (``core.run.owner.lock_owner``), or the pid
    the events recorded is still that worker (runs written before workers took the lock)."""
    if run_dir is not None and lock_owner(run_dir) is not None:
        return True
    return pid is not None and alive(pid, create_time)


def derive_status(summary: RunSummary, *, folder_mtime: float, now: float,
                  alive: Callable[[int | None, float | None], bool] = worker_alive,
                  run_dir: Path | None = None) -> str:
    """The run's status from its fold and the liveness probe (the lock of ``run_dir`` when given)."""
    seg = summary.segment
    if seg.done is not None:
        status = seg.done.get("status")
        return status if status in RUN_STATUSES else "failed"
    if worker_present(run_dir, seg.pid, seg.create_time, alive=alive):
        return "running"
    if seg.pid is None:
        # No worker has spoken: just launched, or the launch itself failed long ago.
        return "running" if now - folder_mtime < STARTING_GRACE_S else "failed"
    return "failed"
