"""A Stop of a search lets each running trial save and end as a stopped run before Ray Tune ends its actors.

Why: Ray Tune's interrupt (the SIGINT a Stop becomes, ``core/worker/tune_hooks.StopOnRequest``) gives trial actors
5 s to stop and then kills them (ray 2.x ``TuneController._cleanup_trials``), and an actor busy in ``step`` never
runs its ``stop`` at all. A trial whose worker needed longer to finish its batch and write ``last.pt`` was killed
with it: its run "failed — ended without its final report", ``weights/`` empty (issue 32). So the driver raises a
flag in the search folder (``TuneFolder.stop_flag``); each trial watching it passes the protocol's stop line to its
worker, and the driver waits until every running trial's run has written its ``done`` (or cannot: no run yet after
a grace period, or the bound passed) before Ray ends anything.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Iterable

from core.job.protocol import iter_events
from core.run.folder import RunFolder

#: The longest the driver waits for the running trials to save (a batch, then last.pt; as each trial waits).
STOP_WAIT_S = 120.0
#: How long a trial that has no run folder yet may take to make one before the driver stops waiting for it.
NO_RUN_GRACE_S = 15.0


def run_ended(run_dir: Path) -> bool:
    """The run's worker wrote its final ``done`` (it ended as it reports: stopped, completed or failed)."""
    return any(e.get("type") == "done" for e in iter_events(RunFolder(run_dir).events))


def still_running(run_dirs: Iterable[Path], waited_s: float, grace_s: float = NO_RUN_GRACE_S) -> list[Path]:
    """The runs the driver still waits for: a run folder without its ``done``, or none yet within the grace."""
    waiting = []
    for run_dir in run_dirs:
        if Path(run_dir).is_dir():  # its worker may still be starting: its events come, then its done
            if not run_ended(run_dir):
                waiting.append(run_dir)
        elif waited_s < grace_s:
            waiting.append(run_dir)
    return waiting


def wait_for_runs(run_dirs: list[Path], timeout_s: float = STOP_WAIT_S, *, poll_s: float = 0.5,
                  clock: Callable[[], float] = time.monotonic,
                  sleep: Callable[[float], None] = time.sleep) -> list[Path]:
    """Wait until every run in ``run_dirs`` has ended; the ones that had not by ``timeout_s``."""
    start = clock()
    while True:
        waiting = still_running(run_dirs, clock() - start)
        if not waiting or clock() - start >= timeout_s:
            return waiting
        sleep(poll_s)
