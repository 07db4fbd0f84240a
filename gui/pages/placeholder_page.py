"""A page that is not built yet: says what it will do, plainly marked "Coming soon" — nothing fake.

Keeps the rail in the order a newcomer walks it (Environment → Export) while only Train is real,
without pretending: there are no dead buttons and no sample data here.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from gui.pages.page import Page
from gui.widgets.banner import Banner
from gui.widgets.page_header import PageHeader


class PlaceholderPage(Page):
    def __init__(self, workspace: Path, title: str, explanation: str, parent: QWidget | None = None) -> None:
        super().__init__(workspace, parent)
        self.title = title
        self.explanation = explanation
        self.header = PageHeader(title, explanation, parent=self)
        self.state = Banner(self)
        self.state.show_message("info", self.tr("Coming soon — this page is not built yet. "
                                                "Meanwhile, the Train page trains on the demo dataset or on "
                                                "your own data.yaml."))
        empty = QLabel(self.tr("Coming soon"), self)
        empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        empty.setEnabled(False)
        font = empty.font()
        font.setPointSizeF(font.pointSizeF() * 1.4)
        empty.setFont(font)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 20, 24, 20)
        layout.setSpacing(12)
        layout.addWidget(self.header)
        layout.addWidget(self.state)
        layout.addWidget(empty, 1)
