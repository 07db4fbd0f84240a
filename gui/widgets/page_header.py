"""The header every page shares: title, a one-line explanation, and the page's primary actions."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget


class PageHeader(QWidget):
    def __init__(self, title: str, explanation: str, actions: Sequence[QWidget] = (),
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel(title, self)
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        self.title.setFont(font)
        self.explanation = QLabel(explanation, self)
        self.explanation.setWordWrap(True)
        texts = QVBoxLayout()
        texts.setSpacing(2)
        texts.addWidget(self.title)
        texts.addWidget(self.explanation)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(texts, 1)
        for action in actions:
            layout.addWidget(action)
