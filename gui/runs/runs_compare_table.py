"""The Compare dialog's table: one column per run, the rows ``core.run_compare.comparison_rows`` makes
(the settings that differ, mAP overall and per class with where it comes from, speed, data wait, GPU
use, epochs). It only displays; the rows are read in the dialog's background job."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem, QWidget


class CompareTable(QTableWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(True)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)

    def set_rows(self, names: list[str], rows: list[tuple[str, list[str]]]) -> None:
        self.setColumnCount(len(names))
        self.setRowCount(len(rows))
        self.setHorizontalHeaderLabels(names)
        self.setVerticalHeaderLabels([title for title, _cells in rows])
        for r, (_title, cells) in enumerate(rows):
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.setItem(r, c, item)

    def cell_text(self, title: str, column: int) -> str:
        """The text of the row named ``title`` in ``column`` ("" when there is no such row)."""
        for r in range(self.rowCount()):
            if self.verticalHeaderItem(r).text() == title:
                return self.item(r, column).text()
        return ""
