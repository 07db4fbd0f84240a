"""A slow job's progress as one row: what it is doing, a bar with "done / total" and an ETA, and Cancel.

Pages show it while a background job runs (checking a dataset, making the demo, splitting folders) and
hide it when the job ends; the ETA comes from the measured rate (``core.dataset.scan.Eta``), never a guess.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from core.dataset.scan import SEARCHING, Eta


class ProgressRow(QWidget):
    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bar = QProgressBar(self)
        self.label = QLabel(self)
        self.cancel_button = QPushButton(self.tr("Cancel"), self, clicked=self.cancel_requested)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label)
        row.addWidget(self.bar, 1)
        row.addWidget(self.cancel_button)
        self._eta = Eta()
        self.hide()

    def start(self, text: str) -> None:
        """Show ``text`` with a busy bar until the first count arrives."""
        self._eta = Eta()
        self.bar.setRange(0, 0)
        self.label.setText(text)
        self.cancel_button.setVisible(True)
        self.show()

    def update_counts(self, done: int, total: int) -> None:
        if total == SEARCHING:  # folders still being searched: the busy bar stays, the count says it moves
            self.label.setText(self.tr("Searching folders: {n} so far…").format(n=f"{done:,}"))
            return
        if total <= 0:
            return
        self.bar.setRange(0, total)
        self.bar.setValue(done)
        left = self._eta.update(done, total)
        eta = self.tr(" · about {s} s left").format(s=round(left)) if left is not None and done < total else ""
        self.label.setText(self.tr("{done} / {total} files{eta}").format(done=done, total=total, eta=eta))
