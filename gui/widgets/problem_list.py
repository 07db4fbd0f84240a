"""Validation problems shown inline under a form: icon + "Error"/"Warning" + the field + message + hint.

Displays ``core.findings.Finding`` problems (``field`` names the option) as they are (they already name the file or value and
say what to do); an empty list reads "Ready to train", so the state is never blank.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from core.findings import Finding, by_severity
from gui.widgets.levels import level_icon, level_word


class ProblemList(QWidget):
    def __init__(self, field_labels: dict[str, str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._field_labels = field_labels
        self._grid = QGridLayout()
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setColumnStretch(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self._grid)
        self.messages: list[str] = []
        self.problems: list[Finding] = []
        self.set_problems([], ready_text=self.tr("Checking the options…"), ready_level="info")

    def set_problems(self, problems: list[Finding], *, ready_text: str = "", ready_level: str = "ok") -> None:
        """Show ``problems``; with none, one ``ready_level`` row saying ``ready_text``."""
        while self._grid.count():
            item = self._grid.takeAt(0)
            if item.widget() is not None:
                item.widget().hide()  # deleteLater waits for the event loop; until then it would overlap
                item.widget().deleteLater()
        self.problems = list(problems)  # what is shown, for a reader that needs more than the message
        self.messages = [p.message for p in problems]
        if not problems:
            self._add_row(0, ready_level, ready_text or self.tr("Ready to train."))
            return
        ordered = by_severity(problems)
        for row, problem in enumerate(ordered):
            field = self._field_labels.get(problem.field, problem.field)
            values = {"level": escape(level_word(problem.severity)), "field": escape(field),
                      "message": escape(problem.message), "hint": escape(problem.fix)}
            template = (self.tr("<b>{level}</b> · {field}: {message}<br>{hint}") if problem.fix
                        else self.tr("<b>{level}</b> · {field}: {message}"))
            self._add_row(row, problem.severity, template.format(**values))

    def _add_row(self, row: int, level: str, text: str) -> None:
        icon = QLabel(self)
        icon.setPixmap(level_icon(level).pixmap(16, 16))
        label = QLabel(text, self)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._grid.addWidget(icon, row, 0, Qt.AlignmentFlag.AlignTop)
        self._grid.addWidget(label, row, 1)
