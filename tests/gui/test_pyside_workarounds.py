"""The PySide6 reference-count work-around (how a job's ending becomes an outcome: tests/core/test_jobs.py)."""

from __future__ import annotations

import sys

from gui import pyside_workarounds


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
