"""Background work for the GUI: run a plain function on a pool thread, get its result by a queued signal.

Why: the GUI thread must never block on disk or a slow library call (demo dataset generation, listing
runs, NVML start-up). There is one mechanism for it: the function runs on a pool thread, reports
progress through a callback and checks a cancel flag; its result or its exception comes back to the
GUI thread through a queued Qt signal. The function never touches widgets.

A failure is never dropped: without an ``on_failed`` of its own, a job's exception is logged (logger
``yolostudio.gui.background``, with its traceback) and shown in the window's status bar.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtWidgets import QMainWindow, QWidget

Progress = Callable[[int, int], None]
Cancelled = Callable[[], bool]
Job = Callable[[Progress, Cancelled], Any]

_POOL = QThreadPool()
_POOL.setMaxThreadCount(4)
_ACTIVE: set[threading.Event] = set()
STATUS_MESSAGE_MS = 15_000
log = logging.getLogger("yolostudio.gui.background")


def report_failure(owner: QObject, what: str, exc: BaseException) -> None:
    """The default ``on_failed``: log the exception with its traceback, and say it in the status bar."""
    log.error("background job failed: %s", what or "(unnamed)", exc_info=(type(exc), exc, exc.__traceback__))
    window = owner.window() if isinstance(owner, QWidget) else None
    if isinstance(window, QMainWindow):
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        text = QCoreApplication.translate("Background", "{what} failed: {reason}").format(
            what=what or QCoreApplication.translate("Background", "A background task"), reason=reason)
        window.statusBar().showMessage(text, STATUS_MESSAGE_MS)


class _Relay(QObject):
    """Lives in the GUI thread; its signals are emitted from the pool thread, so delivery is queued."""

    progress = Signal(int, int)
    succeeded = Signal(object)
    failed = Signal(object)


class BackgroundTask:
    """Handle on a started job: ``cancel()`` asks the function to give up at its next check."""

    def __init__(self, relay: _Relay, cancel: threading.Event) -> None:
        self.relay = relay
        self._cancel = cancel

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()


class _Runnable(QRunnable):
    def __init__(self, job: Job, relay: _Relay, cancel: threading.Event) -> None:
        super().__init__()
        self._job, self._relay, self._cancel = job, relay, cancel

    def run(self) -> None:
        try:
            result = self._job(self._progress, self._cancel.is_set)
        except BaseException as exc:  # noqa: BLE001 - every failure goes back to the GUI as a message
            self._emit(self._relay.failed, exc)
        else:
            self._emit(self._relay.succeeded, result)
        finally:
            _ACTIVE.discard(self._cancel)

    def _progress(self, done: int, total: int) -> None:
        self._emit(self._relay.progress, done, total)

    @staticmethod
    def _emit(signal: Any, *args: Any) -> None:
        try:
            signal.emit(*args)
        except RuntimeError:
            pass  # the owner (and its relay) was deleted meanwhile: nobody is waiting for this result


def run_in_background(owner: QObject, job: Job, *, on_done: Callable[[Any], None],
                      on_failed: Callable[[BaseException], None] | None = None,
                      on_progress: Callable[[int, int], None] | None = None, what: str = "") -> BackgroundTask:
    """Start ``job(progress, cancelled)`` on the pool; the callbacks run on the GUI thread.

    ``what`` names the job for a person ("Reading this machine's GPUs"); without ``on_failed`` a failure
    goes to ``report_failure``."""
    relay = _Relay(owner)  # parented: lives exactly as long as whoever waits for the answer
    queued = Qt.ConnectionType.QueuedConnection
    relay.succeeded.connect(on_done, queued)
    relay.failed.connect(on_failed or (lambda exc: report_failure(owner, what, exc)), queued)
    if on_progress is not None:
        relay.progress.connect(on_progress, queued)
    cancel = threading.Event()
    _ACTIVE.add(cancel)
    _POOL.start(_Runnable(job, relay, cancel))
    return BackgroundTask(relay, cancel)


def shutdown_background(timeout_ms: int = 3000) -> bool:
    """At exit: ask every job to cancel, then wait for the pool; True when it drained in time."""
    for cancel in list(_ACTIVE):
        cancel.set()
    return _POOL.waitForDone(timeout_ms)
