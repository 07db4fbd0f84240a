"""One GUI→core call, as one small operation with a default failure path (in the style of Anki's ``aqt/operations``).

Why: pages used to call core directly — some on the GUI thread (a page froze while core listed a split),
each with its own ``try/except`` and its own idea of what a failure shows. An operation is the one way a
page asks core for something that touches the disk, a process or a slow library:

    CoreOp(self, lambda: read_dataset(path), what=self.tr("Reading the dataset")) \
        .success(self._show).run()

- the call runs on the background pool (``gui.background``), never on the GUI thread;
- ``success`` gets its result on the GUI thread;
- without a ``failure`` of its own, a failure is logged with its traceback and said in words in the
  window's status bar (``describe_failure``: a file error names its file, a core refusal its message) —
  nothing is swallowed, and no traceback dialog is ever shown;
- ``progress`` makes the call ``call(progress, cancelled)``, so slow work reports ``done/total`` and stops
  at its next check when the returned task is cancelled.

Each feature package keeps its operations in its own ``operations.py`` (``gui/dataset/operations.py``, …):
a short function per core call that builds the ``CoreOp``, so a reader finds every way a page reaches core
in one file, and a test can drive the operation without the page.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Generic, TypeVar

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QMainWindow, QWidget

from gui.background import STATUS_MESSAGE_MS, BackgroundTask, Cancelled, Progress, run_in_background

T = TypeVar("T")
log = logging.getLogger("yolostudio.gui.operations")


def describe_failure(exc: BaseException) -> str:
    """A failure in words a user can act on: a file error names its file and the system's reason."""
    if isinstance(exc, OSError) and exc.filename:
        reason = exc.strerror or type(exc).__name__
        return QCoreApplication.translate("Operations", "{reason}: {file}").format(reason=reason, file=exc.filename)
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def show_failure(parent: QObject, what: str, exc: BaseException) -> str:
    """The default failure path: log with the traceback, say it in the status bar; returns the words shown."""
    log.error("operation failed: %s", what or "(unnamed)", exc_info=(type(exc), exc, exc.__traceback__))
    text = QCoreApplication.translate("Operations", "{what} failed: {reason}").format(
        what=what or QCoreApplication.translate("Operations", "A background task"), reason=describe_failure(exc))
    window = parent.window() if isinstance(parent, QWidget) else None
    if isinstance(window, QMainWindow):
        window.statusBar().showMessage(text, STATUS_MESSAGE_MS)
    return text


class CoreOp(Generic[T]):
    """A core call the GUI makes: built, given its callbacks, then ``run()`` once."""

    def __init__(self, parent: QObject, call: Callable[..., T], *, what: str) -> None:
        self._parent, self._call, self._what = parent, call, what
        self._on_success: Callable[[T], None] = lambda result: None
        self._on_failure: Callable[[BaseException], None] | None = None
        self._on_progress: Callable[[int, int], None] | None = None
        self._task: BackgroundTask | None = None

    def success(self, on_success: Callable[[T], None]) -> CoreOp[T]:
        self._on_success = on_success
        return self

    def failure(self, on_failure: Callable[[BaseException], None]) -> CoreOp[T]:
        """Replace the default failure path (e.g. to show the words beside the field that caused it)."""
        self._on_failure = on_failure
        return self

    def progress(self, on_progress: Callable[[int, int], None]) -> CoreOp[T]:
        """The call takes ``(progress, cancelled)`` and reports ``done, total`` through ``on_progress``."""
        self._on_progress = on_progress
        return self

    def run(self) -> BackgroundTask:
        if self._task is not None:
            raise RuntimeError("an operation runs once; build a new CoreOp")
        call, wants_progress = self._call, self._on_progress is not None

        def job(progress: Progress, cancelled: Cancelled) -> Any:
            return call(progress, cancelled) if wants_progress else call()

        on_failure = self._on_failure or (lambda exc: show_failure(self._parent, self._what, exc))
        self._task = run_in_background(self._parent, job, on_done=self._on_success, on_failed=on_failure,
                                       on_progress=self._on_progress, what=self._what)
        return self._task
