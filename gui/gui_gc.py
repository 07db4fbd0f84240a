"""Python's cyclic garbage collector, run in the GUI thread only, on a timer.

Python collects in whichever thread happens to allocate; collecting Qt objects in a background job's
thread deadlocks on Qt's locks (seen: a demo-dataset job froze the window). So automatic collection is
off in the GUI process and this timer collects a generation when its threshold was passed — the recipe
of pyqtgraph's ``GarbageCollector``, written here so start-up needn't import pyqtgraph for it.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer


class MainThreadCollector(QObject):
    def __init__(self, interval_ms: int = 1000, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.threshold = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self, interval=interval_ms, timeout=self.check)
        self.timer.start()

    def check(self) -> None:
        counts = gc.get_count()
        for generation in range(3):  # a younger generation over its threshold may push the next one over
            if counts[generation] <= self.threshold[generation]:
                return
            gc.collect(generation)

    def stop(self) -> None:
        self.timer.stop()
        gc.enable()
