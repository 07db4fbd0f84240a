"""How a worker start's ending becomes an outcome, and the PySide6 reference-count work-around."""

from __future__ import annotations

import sys

import pytest

from core.progress import RunProgress
from gui.run_session import outcome_of
from gui import pyside_workarounds


def _progress(*events: dict) -> RunProgress:
    progress = RunProgress()
    for event in events:
        progress.feed(event)
    return progress


DONE_COMPLETED = {"type": "done", "status": "completed", "elapsed_s": 3.0}
DONE_STOPPED = {"type": "done", "status": "stopped", "elapsed_s": 3.0}
ERROR = {"type": "error", "kind": "out_of_memory", "message": "CUDA out of memory", "hint": "Lower the batch size",
         "traceback": "Traceback ...", "exception": "OutOfMemoryError"}


@pytest.mark.parametrize(("events", "error", "code", "crashed", "killed", "status", "kind", "words"), [
    ([DONE_COMPLETED], None, 0, False, False, "completed", "", ""),
    ([DONE_STOPPED], None, 0, False, False, "stopped", "", ""),
    ([ERROR, {**DONE_COMPLETED, "status": "failed"}], ERROR, 1, False, False, "failed", "out_of_memory",
     "CUDA out of memory"),
    ([ERROR], ERROR, -1, True, False, "failed", "out_of_memory", "CUDA out of memory"),  # error, then died
    ([], None, 9, True, False, "failed", "worker_died", "ended without a word"),
    ([], None, 3, False, False, "failed", "worker_died", "exited with code 3"),
    ([], None, 9, True, True, "failed", "killed", "was killed"),
])
def test_outcome_of(events, error, code, crashed, killed, status, kind, words):
    outcome = outcome_of(_progress(*events), error, code, crashed, killed=killed)
    assert (outcome.status, outcome.kind) == (status, kind)
    assert words in outcome.message
    assert outcome.hint or status != "failed"  # every failure says what to do


def test_start_failure_is_a_failure_with_a_hint():
    outcome = outcome_of(RunProgress(), None, None, False, start_error="No such file")
    assert outcome.failed and outcome.kind == "launch" and "No such file" in outcome.message and outcome.hint


def test_a_resumed_worker_that_dies_does_not_inherit_the_previous_done():
    progress = _progress(DONE_STOPPED, {"type": "stage", "stage": "starting", "pid": 1})
    assert outcome_of(progress, None, -1, True).status == "failed"


def test_signals_and_void_calls_can_run_forever_without_exhausting_none_or_true(qtbot):
    from PySide6.QtCore import QObject, Signal

    class Emitter(QObject):
        ping = Signal(object)

    assert pyside_workarounds.pinned  # installed by importing gui
    emitter = Emitter()
    emitter.ping.connect(lambda value: None)
    calls = 200_000  # far more than None's or True's count would survive on an affected PySide6
    for _ in range(calls):
        emitter.ping.emit(True)
        emitter.setObjectName("x")
    assert sys.getrefcount(None) > 0 and sys.getrefcount(True) > 0  # and, above all, no abort
