"""Background jobs: a failure without a handler of its own is logged and shown in the status bar, never lost."""

from __future__ import annotations

import logging

from PySide6.QtWidgets import QLabel, QMainWindow

from gui.background import run_in_background

TIMEOUT_MS = 20_000


def _fail(progress, cancelled):
    raise OSError("the disk went away")


def _window(qtbot) -> tuple[QMainWindow, QLabel]:
    window = QMainWindow()
    page = QLabel("page", window)
    window.setCentralWidget(page)
    qtbot.addWidget(window)
    return window, page


def test_an_unhandled_failure_is_logged_with_its_traceback_and_shown(qtbot, caplog):
    window, page = _window(qtbot)
    with caplog.at_level(logging.ERROR, logger="yolostudio.gui.background"):
        run_in_background(page, _fail, on_done=lambda result: None, what="Listing runs")
        qtbot.waitUntil(lambda: window.statusBar().currentMessage() != "", timeout=TIMEOUT_MS)
    assert window.statusBar().currentMessage() == "Listing runs failed: the disk went away"
    [record] = [r for r in caplog.records if r.name == "yolostudio.gui.background"]
    assert "Listing runs" in record.getMessage() and record.exc_info and record.exc_info[0] is OSError
    assert "_fail" in caplog.text  # the traceback names where it happened


def test_a_job_with_its_own_handler_is_left_to_it(qtbot, caplog):
    window, page = _window(qtbot)
    seen: list[BaseException] = []
    with caplog.at_level(logging.ERROR, logger="yolostudio.gui.background"):
        run_in_background(page, _fail, on_done=lambda result: None, on_failed=seen.append)
        qtbot.waitUntil(lambda: bool(seen), timeout=TIMEOUT_MS)
    assert isinstance(seen[0], OSError)
    assert window.statusBar().currentMessage() == "" and not caplog.records
