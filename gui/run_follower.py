"""Following a run this window did not start: tail its events.jsonl and watch its worker's life.

Used to re-attach to a run that kept training while the window was closed (or was started from the
CLI), and to replay a finished one. Events come out with the same ``event`` signal as
``WorkerProcess``, so the Train page cannot tell the two apart. The reading, the fold and the liveness
probe are ``core.runs.follow.RunFollow``'s (the same as ``yolostudio attach`` and ``yolostudio runs``); this
class only drives it with timers. Reading is bounded per poll (a long run's file replays over a few ticks
instead of freezing the window); a worker that vanished without its ``done`` event ends the follow as
crashed — it never hangs "running".
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from core.run.files import UnreadableRun
from core.run.owner import worker_alive
from core.runs.follow import RunFollow
from core.runs.store import request_stop

POLL_MS = 100
BACKLOG_POLL_MS = 15
LIVENESS_MS = 1000
MAX_BYTES_PER_POLL = 48 * 1024  # ~80 events: each poll stays well under a frame of work


class RunFollower(QObject):
    """Tails ``<run_dir>/events.jsonl`` until the current worker start is done or its process is gone."""

    event = Signal(object)  # one protocol event (dict), as WorkerProcess.event
    finished = Signal(int, bool)  # as WorkerProcess.finished: (0 or 1 after ``done``, -1 when it died), crashed

    def __init__(self, run_dir: Path, parent: QObject | None = None, *,
                 alive: Callable[[int | None, float | None], bool] = worker_alive) -> None:
        super().__init__(parent)
        self.run_dir = Path(run_dir)
        self._follow = RunFollow(self.run_dir, alive=alive)
        self._gone = False
        self._following = False
        self._poll_timer = QTimer(self, interval=POLL_MS, timeout=self._poll)
        self._alive_timer = QTimer(self, interval=LIVENESS_MS, timeout=self._check_alive)

    # -- control ------------------------------------------------------------------------------------
    def start(self) -> None:
        self._following = True
        self._poll_timer.start()
        self._alive_timer.start()
        QTimer.singleShot(0, self._poll)

    def stop_following(self) -> None:
        self._following = False
        self._poll_timer.stop()
        self._alive_timer.stop()

    def send_stop(self) -> bool:
        """Ask the worker to stop through the run's control file (it polls it twice a second)."""
        if not self._following:
            return False
        request_stop(self.run_dir)
        return True

    # -- state --------------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._following

    @property
    def pid(self) -> int | None:
        return self._follow.summary.segment.pid

    @property
    def create_time(self) -> float | None:
        return self._follow.summary.segment.create_time

    # -- polling ------------------------------------------------------------------------------------
    def _poll(self) -> None:
        if not self._following:
            return
        try:
            events = self._follow.poll(MAX_BYTES_PER_POLL)
        except (UnreadableRun, OSError):
            events = []  # something else stands where the events file goes: the liveness check decides
        for event in events:
            if event.get("type") == "stage" and event.get("stage") == "starting":
                self._gone = False  # a new worker start (resume)
            self.event.emit(event)
        if not self._follow.caught_up and self._following:
            QTimer.singleShot(BACKLOG_POLL_MS, self._poll)  # a backlog (replay): soon, but let the loop breathe
            return
        if events or not self._following:
            return
        # Caught up with the file: end when this worker start said ``done``, or its process is gone.
        done = self._follow.summary.segment.done
        if done is not None:
            self._end(1 if done.get("status") == "failed" else 0, False)
        elif self._gone:
            self._end(-1, True)

    def _check_alive(self) -> None:
        if self._follow.summary.segment.done is not None or self._gone:
            return
        self._gone = self._follow.status() != "running"

    def _end(self, code: int, crashed: bool) -> None:
        self.stop_following()
        self.finished.emit(code, crashed)
