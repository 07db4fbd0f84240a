"""Following a run on another machine from the window: ``core.remote.follow.RemoteRunStream`` on a thread of its own.

The same signals as ``gui.run_follower.RunFollower`` (``event``, ``finished``), so ``gui.job_runner.JobRunner`` and
the Train page show a run there as one here. The stream is the CLI's (``yolostudio attach RUN --machine NAME``):
it reads the run's events over ssh from a byte offset, and after a dropped link connects again from there, each
event once. ``note`` says the link dropped (the run goes on there) and ``restored`` that it is back; ``send_stop``
runs ``yolostudio stop RUN`` there, off the GUI thread. The thread only reads and emits: every signal is
delivered on the GUI thread (queued), and nothing here blocks it.
"""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import QObject, Signal

from core.remote.follow import RemoteFollowError, RemoteRunStream
from core.remote.machines import Machine
from core.remote.ssh import failure_words, remote_words, run_remote

#: Seconds ``yolostudio stop`` there may take (ssh connection included).
STOP_TIMEOUT_S = 60.0


class RemoteFollower(QObject):
    event = Signal(object)  # one protocol event (dict)
    finished = Signal(int, bool)  # (0: the run there ended and every event was read; -1: could not follow), crashed
    note = Signal(str)  # the link dropped (the words say the run goes on there and where reading resumes)
    restored = Signal(int)  # the link is back: reading resumed from this byte
    failed = Signal(str)  # following is impossible (host key, no such run, a launch that never began): the reason
    stop_answer = Signal(bool, str)  # the remote stop: asked, or the reason it could not be

    def __init__(self, machine: Machine, run: str, parent: QObject | None = None, *,
                 reconnect_delay_s: float | None = None) -> None:
        super().__init__(parent)
        self.machine, self.run = machine, run
        extra = {} if reconnect_delay_s is None else {"reconnect_delay_s": reconnect_delay_s}
        self.stream = RemoteRunStream(machine, run, self._emit_event, on_note=self._dropped, **extra)
        self._dropped_at: int | None = None
        self._following = False
        self._thread: threading.Thread | None = None

    # -- control ------------------------------------------------------------------------------------
    def start(self) -> None:
        self._following = True
        self._thread = threading.Thread(target=self._follow, name=f"remote-follow-{self.run}", daemon=True)
        self._thread.start()

    def stop_following(self) -> None:
        """Leave the run training there; the ssh client is ended, no ``finished`` follows."""
        self._following = False
        self.stream.close()

    def send_stop(self) -> bool:
        """Ask the run there to stop (``yolostudio stop RUN`` over ssh, on its own thread)."""
        if not self._following:
            return False
        threading.Thread(target=self._stop_there, name=f"remote-stop-{self.run}", daemon=True).start()
        return True

    @property
    def running(self) -> bool:
        return self._following

    @property
    def offset(self) -> int:
        """The byte of the run's events file read up to (where a reconnection resumes)."""
        return self.stream.offset

    # -- the thread ---------------------------------------------------------------------------------
    def _dropped(self, text: str) -> None:
        self._dropped_at = self.stream.connections
        self.note.emit(text)

    def _emit_event(self, event: dict[str, Any]) -> None:
        if self._dropped_at is not None and self.stream.connections > self._dropped_at:
            self._dropped_at = None
            self.restored.emit(self.stream.offset)
        self.event.emit(event)

    def _follow(self) -> None:
        try:
            self._read()
        except RuntimeError:
            pass  # this object was deleted while its thread read (the window closed): nobody listens any more

    def _read(self) -> None:
        try:
            self.stream.follow()
        except RemoteFollowError as exc:
            if self._following:
                self._following = False
                self.failed.emit(str(exc))
                self.finished.emit(-1, True)
            return
        except OSError as exc:  # no ssh client at all
            if self._following:
                self._following = False
                self.failed.emit(str(exc))
                self.finished.emit(-1, True)
            return
        if self._following:
            self._following = False
            self.finished.emit(0, False)

    def _stop_there(self) -> None:
        result = run_remote(self.machine, remote_words(self.machine, "stop", self.run), timeout_s=STOP_TIMEOUT_S)
        message, hint = ("", "") if result.returncode == 0 else failure_words(self.machine, result) \
            if result.ssh_failed else ((result.stderr.strip().splitlines() or [""])[-1], "")
        try:
            self.stop_answer.emit(result.returncode == 0, " ".join(p for p in (message, hint) if p))
        except RuntimeError:
            pass  # deleted meanwhile (the window closed): the stop was asked all the same
