"""Following a run this window did not start: tail its events.jsonl and watch its worker's life.

Used to re-attach to a run that kept training while the window was closed (or was started from the
CLI), and to replay a finished one. Events come out with the same ``event`` signal as
``WorkerProcess``, so the Train page cannot tell the two apart. Reading is bounded per poll (a long
run's file replays over a few ticks instead of freezing the window), and liveness is checked with
``core.run.owner.worker_alive`` on the pid / start time of the last ``stage: starting`` event (the
process must still be that YOLO Studio worker): a worker
that vanished without its ``done`` event ends the follow as crashed — it never hangs "running".
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QObject, QTimer, Signal

from core.job.protocol import EventFileTail
from core.run.owner import lock_owner, worker_alive
from core.runs.store import request_stop
from core.runs.status import STARTING_GRACE_S
from core.run.files import CONFIG_FILE, EVENTS_FILE

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
        self._alive = alive
        self._tail = EventFileTail(self.run_dir / EVENTS_FILE, from_start=True)
        self._pid: int | None = None
        self._create_time: float | None = None
        self._done: dict[str, Any] | None = None
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
        return self._pid

    @property
    def create_time(self) -> float | None:
        return self._create_time

    # -- polling ------------------------------------------------------------------------------------
    def _poll(self) -> None:
        if not self._following:
            return
        events = self._tail.poll(MAX_BYTES_PER_POLL)
        for event in events:
            self._note(event)
            self.event.emit(event)
        if not self._tail.caught_up and self._following:
            QTimer.singleShot(BACKLOG_POLL_MS, self._poll)  # a backlog (replay): soon, but let the loop breathe
            return
        if events or not self._following:
            return
        # Caught up with the file: end when this worker start said ``done``, or its process is gone.
        if self._done is not None:
            self._end(1 if self._done.get("status") == "failed" else 0, False)
        elif self._gone:
            self._end(-1, True)

    def _note(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "stage" and event.get("stage") == "starting":
            self._pid, self._create_time = event.get("pid"), event.get("create_time")
            self._done, self._gone = None, False
        elif kind == "done":
            self._done = event

    def _check_alive(self) -> None:
        if self._done is not None or self._gone:
            return
        if self._pid is None:
            self._gone = time.time() - self._folder_time() > STARTING_GRACE_S  # never said a word
        else:
            # The folder's lock is the kernel's word that a worker owns it; the pid check covers runs
            # written before workers took it.
            self._gone = lock_owner(self.run_dir) is None and not self._alive(self._pid, self._create_time)

    def _folder_time(self) -> float:
        for path in (self.run_dir / CONFIG_FILE, self.run_dir):
            try:
                return path.stat().st_mtime
            except OSError:
                continue
        return 0.0

    def _end(self, code: int, crashed: bool) -> None:
        self.stop_following()
        self.finished.emit(code, crashed)
