"""A crash after a double-click launch leaves a trace: the rotating log file and the unexpected-error dialog."""

from __future__ import annotations

import logging
import sys
import threading

import pytest
from PySide6.QtCore import QTimer

from gui import app_log
from tests.waits import TIMEOUT_MS


@pytest.fixture
def logged(tmp_path):
    path = app_log.setup_logging(tmp_path, max_bytes=2000, backups=2)
    yield path
    root = logging.getLogger(app_log.LOGGER)
    for handler in [h for h in root.handlers if getattr(h, "_yolostudio", False)]:
        root.removeHandler(handler)
        handler.close()


@pytest.fixture
def dialogs(monkeypatch, logged):
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(app_log, "show_crash_dialog", lambda parent, summary, details: shown.append((summary, details)))
    restore = app_log.install_excepthook(logged)
    yield shown
    restore()


def test_every_yolostudio_logger_goes_to_the_rotating_file(logged, tmp_path):
    assert logged == tmp_path / "logs" / "gui.log"
    logging.getLogger("yolostudio.gui.background").error("a job failed: %s", "disk full")
    logging.getLogger("somebody.else").error("not ours")
    for i in range(30):  # more than max_bytes: the file rotates, the newest lines stay in gui.log
        logging.getLogger("yolostudio.gui.runs").warning("line %d of padding to make the file rotate", i)
    assert (tmp_path / "logs" / "gui.log.1").exists() and not (tmp_path / "logs" / "gui.log.3").exists()
    text = "".join(p.read_text() for p in sorted((tmp_path / "logs").glob("gui.log*")))
    assert "started" in text and "not ours" not in text and "line 29 of padding" in logged.read_text()


def test_an_unwritable_workspace_still_starts(tmp_path, monkeypatch):
    (tmp_path / "logs").write_text("a file where the folder should be")
    assert app_log.setup_logging(tmp_path) is None
    root = logging.getLogger(app_log.LOGGER)
    for handler in [h for h in root.handlers if getattr(h, "_yolostudio", False)]:
        root.removeHandler(handler)


def test_an_exception_nobody_caught_is_logged_and_explained(qtbot, dialogs, logged):
    try:
        raise ValueError("the dataset moved")
    except ValueError:
        sys.excepthook(*sys.exc_info())
    qtbot.waitUntil(lambda: len(dialogs) == 1, timeout=TIMEOUT_MS)
    summary, details = dialogs[0]
    assert "ValueError: the dataset moved" in summary and str(logged) in summary and "Traceback" not in summary
    assert "Traceback (most recent call last)" in details and "the dataset moved" in details
    assert "Traceback (most recent call last)" in logged.read_text()


@pytest.mark.qt_no_exception_capture
def test_a_failing_slot_is_reported(qtbot, dialogs):
    def slot() -> None:
        raise RuntimeError("a slot broke")

    QTimer.singleShot(0, slot)
    qtbot.waitUntil(lambda: any("a slot broke" in summary for summary, _ in dialogs), timeout=TIMEOUT_MS)


def test_a_failing_thread_is_reported_in_the_gui_thread(qtbot, dialogs, logged):
    def work() -> None:
        raise OSError("no space left on device")

    thread = threading.Thread(target=work, name="exporter")
    thread.start()
    thread.join()
    qtbot.waitUntil(lambda: len(dialogs) == 1, timeout=TIMEOUT_MS)
    assert "no space left on device" in dialogs[0][0] and "in exporter" in logged.read_text()


def test_copy_details_puts_the_report_on_the_clipboard(qtbot, monkeypatch):
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QMessageBox

    presses = iter(["Copy details", "OK"])

    def fake_exec(box: QMessageBox) -> int:
        wanted = next(presses)
        button = next(b for b in box.buttons() if b.text().replace("&", "") == wanted)
        monkeypatch.setattr(box, "clickedButton", lambda: button)
        return 0

    monkeypatch.setattr(QMessageBox, "exec", fake_exec)
    app_log.show_crash_dialog(None, "summary words", "Traceback …")
    assert QGuiApplication.clipboard().text() == "summary words\n\nTraceback …"


def test_the_start_up_log_is_the_same_file_and_rotates_after_the_first_paint(tmp_path):
    root = logging.getLogger(app_log.LOGGER)
    early = app_log.setup_logging(tmp_path, rotating=False)
    logging.getLogger("yolostudio.gui").warning("before the first paint")
    [handler] = [h for h in root.handlers if getattr(h, "_yolostudio", False)]
    assert type(handler) is logging.FileHandler
    later = app_log.setup_logging(tmp_path, max_bytes=2000, backups=1)
    try:
        [handler] = [h for h in root.handlers if getattr(h, "_yolostudio", False)]
        assert type(handler).__name__ == "RotatingFileHandler" and later == early
        text = later.read_text()
        assert text.index("before the first paint") < text.index("started")  # one file, nothing lost
    finally:
        root.removeHandler(handler)
        handler.close()
