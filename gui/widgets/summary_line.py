"""A page's standing verdict in one line: icon + level word + sentence on a tinted strip (not dismissable).

Where ``Banner`` is a passing notice, this is the page's answer ("Ready to train on …" / "Training would
run on the CPU — here is why …"): it stays until the answer changes.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QWidget

from gui.widgets.levels import level_colour, level_icon, level_word


class SummaryLine(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("SummaryLine")
        self.level = "info"
        self._icon = QLabel(self)
        self._text = QLabel(self)
        self._text.setWordWrap(True)
        self._text.setTextFormat(Qt.TextFormat.RichText)
        self._text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self._text.font()
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self._text.setFont(font)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.addWidget(self._icon, 0, Qt.AlignmentFlag.AlignVCenter)
        layout.addWidget(self._text, 1)
        self.plain_text = ""

    def set_summary(self, level: str, text: str) -> None:
        self.level, self.plain_text = level, text
        colour = level_colour(level)
        self.setStyleSheet(
            f"#SummaryLine {{ border-left: 5px solid {colour.name()}; border-radius: 3px;"
            f" background: rgba({colour.red()}, {colour.green()}, {colour.blue()}, 30); }}")
        self._icon.setPixmap(level_icon(level).pixmap(24, 24))
        self._text.setText(self.tr("<b>{level}:</b> {text}").format(level=escape(level_word(level)), text=escape(text)))
