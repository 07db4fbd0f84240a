"""One row per trial of a search, as its ``trial`` events say: settings, epoch, fitness so far, state.

Fed by the page with every ``trial`` event (docs/protocol.md); a trial's row is found by its Ray trial id, so
a start, each epoch and the end update the same row, in the order the trials started.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem, QWidget

#: The protocol's trial states, in words (``core/worker/tune_hooks.py`` sets them).
STATE_WORDS = {
    "pending": QT_TRANSLATE_NOOP("TrialTable", "waiting"),
    "running": QT_TRANSLATE_NOOP("TrialTable", "running"),
    "completed": QT_TRANSLATE_NOOP("TrialTable", "completed"),
    "stopped_early": QT_TRANSLATE_NOOP("TrialTable", "stopped early"),
    "stopped": QT_TRANSLATE_NOOP("TrialTable", "stopped"),
    "failed": QT_TRANSLATE_NOOP("TrialTable", "failed"),
}


def state_words(state: str) -> str:
    return QCoreApplication.translate("TrialTable", STATE_WORDS.get(state, state))


def settings_text(config: dict[str, Any]) -> str:
    """The trial's searched values, short: ``lr0 0.0031 · mosaic 0.62 · model yolov5n.pt``."""
    parts = []
    for name, value in config.items():
        shown = f"{value:.3g}" if isinstance(value, float) else str(value)
        parts.append(f"{name} {shown}")
    return " · ".join(parts)


class TrialTable(QTableWidget):
    COLUMNS = (QT_TRANSLATE_NOOP("TrialTable", "Trial"), QT_TRANSLATE_NOOP("TrialTable", "State"),
               QT_TRANSLATE_NOOP("TrialTable", "Epochs"), QT_TRANSLATE_NOOP("TrialTable", "Fitness"),
               QT_TRANSLATE_NOOP("TrialTable", "Settings"))

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, len(self.COLUMNS), parent)
        self.setHorizontalHeaderLabels([self.tr(c) for c in self.COLUMNS])
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.verticalHeader().setVisible(False)
        self.horizontalHeader().setSectionResizeMode(len(self.COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)
        self.rows: dict[str, dict[str, Any]] = {}  # trial id -> its last event
        self._order: list[str] = []

    def clear_trials(self) -> None:
        self.rows.clear()
        self._order.clear()
        self.setRowCount(0)

    def update_trial(self, event: dict[str, Any]) -> int:
        """Show a ``trial`` event in its trial's row; returns the row."""
        trial = str(event["trial"])
        if trial not in self.rows:
            self._order.append(trial)
            self.setRowCount(len(self._order))
        self.rows[trial] = dict(event)
        row = self._order.index(trial)
        fitness = event.get("fitness")
        state = state_words(str(event.get("state", "")))
        if event.get("reason"):
            state = f"{state}: {event['reason']}"
        cells = (trial, state, str(event.get("epochs", 0)), "–" if fitness is None else f"{float(fitness):.4f}",
                 settings_text(dict(event.get("config") or {})))
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if column in (2, 3):
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            item.setToolTip(text)
            self.setItem(row, column, item)
        return row

    def trial_ids(self) -> list[str]:
        return list(self._order)

    def cell_text(self, row: int, column: int) -> str:
        item = self.item(row, column)
        return item.text() if item is not None else ""
