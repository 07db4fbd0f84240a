"""The review queue's list: thousands of images, loaded without freezing the window.

The rows are read and ordered off the GUI thread (``operations.load_review``) and handed to a flat model in
one insert: a ``QListView`` with uniform row sizes lays 10,000 rows out in a few ms (bench/box_editor.py (c)
prints the longest GUI-thread stall). Inserting them in slices per turn of the event loop was worse: the view
lays out every row again after each slice (16 → 40 ms a turn, 300 ms in all, against 8 ms at once).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import QListView, QWidget

from core.boxedit.review import ReviewRow
from gui.labelling import operations

LAYOUT_BATCH = 1000


class ReviewModel(QAbstractListModel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[ReviewRow] = []

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.rows)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{Path(row.image).name} — {row.reason}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return row.image
        return None

    def extend(self, rows: list[ReviewRow]) -> None:
        if rows:
            self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows) + len(rows) - 1)
            self.rows.extend(rows)
            self.endInsertRows()


class ReviewList(QListView):
    """The queue, most in need first; ``loaded(n)`` when every row is in."""

    loaded = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model_ = ReviewModel(self)
        self.setModel(self.model_)
        self.setUniformItemSizes(True)
        # Laid out 1,000 rows per turn of the event loop: at once, the first setCurrentIndex after 10,000 rows
        # made Qt ask the model's rowCount 20,000 times (84 ms on the GUI thread; 15 ms batched).
        self.setLayoutMode(QListView.LayoutMode.Batched)
        self.setBatchSize(LAYOUT_BATCH)

    def load(self, read: Callable[[], list[ReviewRow]]) -> None:
        """``read`` (core's queue reader) runs on the pool; its rows arrive here a slice at a time."""
        self.model_.beginResetModel()
        self.model_.rows = []
        self.model_.endResetModel()
        self.load_op(operations.load_review(self, read))

    def load_op(self, op) -> None:  # noqa: ANN001 - a CoreOp of rows
        """Rows from an operation of the caller's (a folder listed, a queue read)."""
        self.model_.beginResetModel()
        self.model_.rows = []
        self.model_.endResetModel()
        op.success(self._arrived).run()

    def show_rows(self, rows: list[ReviewRow]) -> None:
        """Rows read already (a review queue, folded and ordered off the GUI thread), in one insert."""
        self.model_.beginResetModel()
        self.model_.rows = []
        self.model_.endResetModel()
        self._arrived(rows)

    def _arrived(self, rows: list[ReviewRow]) -> None:
        self.model_.extend(rows)
        if self.model_.rows:
            self.setCurrentIndex(self.model_.index(0))
        self.loaded.emit(len(self.model_.rows))
