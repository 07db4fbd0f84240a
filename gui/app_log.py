"""The GUI's log file, and the last line of defence for an exception nothing else caught.

A person who double-clicked the icon has no terminal: a traceback printed to stderr is lost, and a crash
leaves no trace. So the GUI process logs every ``yolostudio.*`` logger (background failures, the runs
store, start-up facts) to ``<workspace>/logs/gui.log``, rotated (1 MB x 3), and an exception that reaches
``sys.excepthook`` — from a slot, a timer, the main thread — or ``threading.excepthook`` is logged with
its traceback and shown in a dialog that says what happened in words, where the log is, and offers "Copy
details" for a bug report. The raw traceback is never the only message. Training is unaffected: it runs
in its own process. The dialog is a module function so tests answer it.
"""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from pathlib import Path
from types import TracebackType
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from core import __version__

LOGGER = "yolostudio"
LOG_FILE = Path("logs") / "gui.log"
MAX_BYTES = 1 << 20
BACKUPS = 3
log = logging.getLogger(f"{LOGGER}.gui")

ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None]


def _tr(text: str) -> str:
    return QCoreApplication.translate("AppLog", text)


def setup_logging(workspace: Path, *, max_bytes: int = MAX_BYTES, backups: int = BACKUPS,
                  rotating: bool = True) -> Path | None:
    """Log ``yolostudio.*`` to the workspace's rotating ``logs/gui.log``; its path, or None when the folder
    cannot be written (then the log goes to stderr, and the app still starts).

    ``rotating=False`` is the app's start: a plain handler on the same file, replaced by the rotating one when
    this is called again after the window's first paint — ``logging.handlers`` (socket and more) and the
    platform string cost 20-30 ms of start-up, and nothing is lost in between: both append to one file."""
    root = logging.getLogger(LOGGER)
    root.setLevel(logging.INFO)
    for handler in [h for h in root.handlers if getattr(h, "_yolostudio", False)]:
        root.removeHandler(handler)
        handler.close()
    path = Path(workspace) / LOG_FILE
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = _rotating_handler(path, max_bytes, backups) if rotating else logging.FileHandler(
            path, encoding="utf-8")
    except OSError as exc:
        handler, path = logging.StreamHandler(sys.stderr), None
        print(f"YOLO Studio: cannot write the log in {Path(workspace) / LOG_FILE.parent}: {exc}", file=sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s"))
    handler._yolostudio = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    if rotating:
        import platform  # noqa: PLC0415 - platform() reads the interpreter's file for its libc version

        log.info("YOLO Studio %s started (Python %s, %s), workspace %s", __version__, platform.python_version(),
                 platform.platform(), workspace)
    return path


def _rotating_handler(path: Path, max_bytes: int, backups: int) -> logging.Handler:
    import logging.handlers  # noqa: PLC0415 - see setup_logging

    return logging.handlers.RotatingFileHandler(path, maxBytes=max_bytes, backupCount=backups, encoding="utf-8")


def show_crash_dialog(parent: QWidget | None, summary: str, details: str) -> None:
    """Say what happened and where it is logged; "Copy details" puts the traceback on the clipboard."""
    box = QMessageBox(QMessageBox.Icon.Critical, _tr("Something went wrong"), summary, QMessageBox.StandardButton.Ok,
                      parent)
    box.setDetailedText(details)
    copy = box.addButton(_tr("Copy details"), QMessageBox.ButtonRole.ActionRole)
    while True:
        box.exec()
        if box.clickedButton() is not copy:
            return
        QGuiApplication.clipboard().setText(f"{summary}\n\n{details}")


class _Reporter(QObject):
    """Lives in the GUI thread: a report emitted from any thread is shown there (queued)."""

    report = Signal(str, str)

    def __init__(self, log_path: Path | None) -> None:
        super().__init__()
        self.log_path = log_path
        self.showing = False
        self.report.connect(self._show)

    def _show(self, summary: str, details: str) -> None:
        if self.showing:  # one dialog at a time; the rest are in the log
            return
        self.showing = True
        try:
            show_crash_dialog(QApplication.activeWindow(), summary, details)
        finally:
            self.showing = False


_reporter: _Reporter | None = None


def report_exception(exc_info: ExcInfo, where: str = "") -> None:
    """Log an unexpected exception with its traceback and tell the user (from any thread)."""
    kind, value, tb = exc_info
    details = "".join(traceback.format_exception(kind, value, tb))
    log.critical("unexpected error%s", f" in {where}" if where else "", exc_info=exc_info)
    if _reporter is None or QCoreApplication.instance() is None:
        return
    where_log = str(_reporter.log_path) if _reporter.log_path else _tr("the terminal (the log folder is not writable)")
    summary = _tr("YOLO Studio hit an unexpected problem: {reason}\n\nIt is recorded in {log}. Training runs are "
                  "not affected (they run in their own process). You can keep working; if something looks wrong, "
                  "restart the app, and please send the details with a bug report.").format(
        reason=f"{kind.__name__}: {value}", log=where_log)
    _reporter.report.emit(summary, details)


def install_excepthook(log_path: Path | None) -> Callable[[], None]:
    """Route unhandled exceptions (main thread, Qt slots, other threads) to ``report_exception``.

    Returns a function that puts the previous hooks back."""
    global _reporter
    _reporter = _Reporter(log_path)
    previous_hook, previous_thread_hook = sys.excepthook, threading.excepthook

    def hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            previous_hook(kind, value, tb)
            return
        report_exception((kind, value, tb))

    def thread_hook(args: Any) -> None:
        if args.exc_type is SystemExit:
            return
        report_exception((args.exc_type, args.exc_value, args.exc_traceback),
                         where=getattr(args.thread, "name", "") or "")

    sys.excepthook, threading.excepthook = hook, thread_hook

    def restore() -> None:
        global _reporter
        sys.excepthook, threading.excepthook = previous_hook, previous_thread_hook
        _reporter = None

    return restore
