"""A page's empty state: one sentence that says what to do next, and the buttons that do it.

Never a blank table: the words name the next step, the buttons take it.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget


class EmptyState(QWidget):
    def __init__(self, text: str, actions: list[tuple[str, Callable[[], object]]],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text = QLabel(text, self)
        font = self.text.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        self.text.setFont(font)
        self.text.setWordWrap(True)
        self.text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for label, slot in actions:
            buttons.addWidget(QPushButton(label, self, clicked=slot))
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(self.text)
        layout.addLayout(buttons)
        layout.addStretch(2)
