"""A one-line notice under a page header: icon + words on a tinted strip, dismissable.

Used for things the user should notice without a modal dialog: a refused action and its reason, a
re-attached run, a failure to prepare the demo dataset.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from gui.widgets.levels import level_colour, level_icon


class Banner(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("Banner")
        self.level = "info"
        self._icon = QLabel(self)
        self._text = QLabel(self)
        self._text.setWordWrap(True)
        self._text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        close = QToolButton(self, text="✕", autoRaise=True, clicked=self.hide)
        close.setToolTip(self.tr("Dismiss"))
        close.setAccessibleName(self.tr("Dismiss"))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.addWidget(self._icon, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self._text, 1)
        layout.addWidget(close, 0, Qt.AlignmentFlag.AlignTop)
        self.hide()

    @property
    def text(self) -> str:
        return self._text.text()

    def show_message(self, level: str, text: str) -> None:
        self.level = level
        colour = level_colour(level)
        self.setStyleSheet(
            f"#Banner {{ border-left: 4px solid {colour.name()}; border-radius: 3px;"
            f" background: rgba({colour.red()}, {colour.green()}, {colour.blue()}, 28); }}")
        self._icon.setPixmap(level_icon(level).pixmap(18, 18))
        self._text.setText(text)
        self.show()
