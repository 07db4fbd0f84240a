"""The main window's navigation rail: one row per page, every row on screen at any window height.

A fixed row height (52 px) needs 9 × 56 px; at 1280×720 with the first-run guide open the rail has less than
that, and it scrolled — Export and Machines were off screen (issue 32). The rows shrink to fit the height
(down to ``MIN_ROW``, below which it still scrolls), and the rail never scrolls sideways.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QWidget

#: Row heights in px: the roomy one when there is room, the least that still shows an icon and one line.
ROW, MIN_ROW = 52, 30


class NavigationRail(QListWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)

    def add_row(self, item: QListWidgetItem) -> None:
        self.addItem(item)
        self.fit_rows()

    def row_height(self) -> int:
        """The row height that shows every row in the rail's present height (``ROW`` at most)."""
        rows = max(1, self.count())
        room = self.viewport().height() - 2 * self.frameWidth() - 2 * self.spacing() * rows
        return max(MIN_ROW, min(ROW, room // rows))

    def fit_rows(self) -> None:
        size = QSize(max(1, self.viewport().width() - 2 * self.spacing()), self.row_height())
        for row in range(self.count()):
            if self.item(row).sizeHint() != size:
                self.item(row).setSizeHint(size)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.fit_rows()
