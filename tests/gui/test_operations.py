"""CoreOp: the one way a page calls core — off the GUI thread, with a failure path that names the file."""

from __future__ import annotations

import errno
import logging
import threading

from PySide6.QtWidgets import QLabel, QMainWindow

from gui.operations import CoreOp, describe_failure

TIMEOUT_MS = 20_000


def _window(qtbot) -> tuple[QMainWindow, QLabel]:
    window = QMainWindow()
    page = QLabel("page", window)
    window.setCentralWidget(page)
    qtbot.addWidget(window)
    return window, page


def test_the_call_runs_off_the_gui_thread_and_its_result_comes_back(qtbot):
    window, page = _window(qtbot)
    results: list[tuple[str, bool]] = []
    gui_thread = threading.get_ident()
    CoreOp(page, lambda: ("read", threading.get_ident() != gui_thread), what="Reading").success(results.append).run()
    qtbot.waitUntil(lambda: bool(results), timeout=TIMEOUT_MS)
    assert results == [("read", True)]


def test_a_file_error_is_said_with_its_file_and_logged(qtbot, caplog):
    window, page = _window(qtbot)

    def fail():
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", "/data/coco.yaml")

    with caplog.at_level(logging.ERROR, logger="yolostudio.gui.operations"):
        CoreOp(page, fail, what="Reading the dataset").run()
        qtbot.waitUntil(lambda: window.statusBar().currentMessage() != "", timeout=TIMEOUT_MS)
    assert window.statusBar().currentMessage() == \
        "Reading the dataset failed: No such file or directory: /data/coco.yaml"
    [record] = [r for r in caplog.records if r.name == "yolostudio.gui.operations"]
    assert record.exc_info and record.exc_info[0] is FileNotFoundError


def test_an_own_failure_handler_replaces_the_default(qtbot):
    window, page = _window(qtbot)
    seen: list[BaseException] = []
    CoreOp(page, lambda: 1 / 0, what="Dividing").failure(seen.append).run()
    qtbot.waitUntil(lambda: bool(seen), timeout=TIMEOUT_MS)
    assert isinstance(seen[0], ZeroDivisionError) and window.statusBar().currentMessage() == ""


def test_progress_is_reported_and_cancel_reaches_the_call(qtbot):
    window, page = _window(qtbot)
    steps: list[tuple[int, int]] = []
    results: list[str] = []
    release = threading.Event()

    def slow(progress, cancelled):
        progress(1, 2)
        release.wait(TIMEOUT_MS / 1000)
        return "stopped" if cancelled() else "finished"

    task = CoreOp(page, slow, what="Counting").progress(lambda d, t: steps.append((d, t))).success(results.append).run()
    qtbot.waitUntil(lambda: bool(steps), timeout=TIMEOUT_MS)
    task.cancel()
    release.set()
    qtbot.waitUntil(lambda: bool(results), timeout=TIMEOUT_MS)
    assert steps == [(1, 2)] and results == ["stopped"]


def test_a_core_refusal_is_said_as_its_first_line():
    assert describe_failure(ValueError("line 3: names must be a list\nmore detail")) == "line 3: names must be a list"
    assert describe_failure(KeyError()) == "KeyError"
