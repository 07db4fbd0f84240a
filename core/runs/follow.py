"""Following one run folder as ``tail -f`` does: fold only what was appended, and probe its worker's life.

``yolostudio attach`` and the GUI's follower (``gui/run_follower.py``) both follow a run this process did not
start. Re-reading the run every tick made ``attach`` on an idle run with a 20 MB events file cost half a core;
a ``RunFollow`` keeps the events file's offset and its partial last line (``core.job.protocol.EventFileTail``,
``LineDecoder``), so each file byte is read once, and continues the run's one fold (``core.runs.status``) with
the new events. Its status is that fold's, with the one liveness probe (``worker_present``): the same events
give the same status here as in ``yolostudio runs``. While nothing is appended a poll costs a ``stat``-sized
read and the probe a lock test.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from core.job.protocol import EventFileTail
from core.run.files import EVENTS_FILE, check_events_file, folder_mtime
from core.run.owner import worker_alive
from core.runs.status import RunSummary, derive_status, fold_events

#: What one poll reads at most by default: enough to catch up with any run in a few polls.
CATCH_UP_BYTES = 4 << 20


class RunFollow:
    """A run's fold, kept up with its events file by reading only what was appended since the last poll."""

    def __init__(self, run_dir: Path, *, alive: Callable[[int | None, float | None], bool] = worker_alive) -> None:
        self.run_dir = Path(run_dir)
        self._alive = alive
        self._tail = EventFileTail(self.run_dir / EVENTS_FILE, from_start=True)
        self.summary = RunSummary()

    @property
    def bytes_read(self) -> int:
        """Bytes of the events file read so far (each byte once: the offset of the next read)."""
        return self._tail.offset

    @property
    def caught_up(self) -> bool:
        """False when the last poll stopped at its byte limit: more is waiting to be read."""
        return self._tail.caught_up

    def poll(self, max_bytes: int = CATCH_UP_BYTES) -> list[dict[str, Any]]:
        """The events appended since the last poll (at most ``max_bytes`` of them), folded into ``summary``.

        ``core.run.files.UnreadableRun`` when something other than a file stands where the events file goes."""
        check_events_file(self.run_dir)
        events = self._tail.poll(max_bytes)
        fold_events(events, self.summary)
        return events

    def read_to_end(self) -> list[dict[str, Any]]:
        """Every event not read yet, however many polls that takes (a replay, or the backlog of a long run)."""
        events = self.poll()
        while not self.caught_up:
            events.extend(self.poll())
        return events

    def status(self, now: float | None = None) -> str:
        """The run's status from what was folded so far: ``core.runs.status.derive_status`` with the lock probe."""
        return derive_status(self.summary, folder_mtime=folder_mtime(self.run_dir),
                             now=time.time() if now is None else now, alive=self._alive, run_dir=self.run_dir)

    @property
    def running(self) -> bool:
        return self.status() == "running"
