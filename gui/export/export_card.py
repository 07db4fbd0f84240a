"""One export's report card: verified or not (icon + words + colour), the figures, and where the file is.

Shows an ``export.json`` as it is, through ``core.export.render`` (the same words as the CLI).
"Open folder" goes through ``open_folder`` (module attribute, so tests can replace it); "Try it" asks the
page to run this file on images.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from core.export.render import detail_lines, headline
from gui.widgets.levels import level_colour, level_icon


def open_folder(path: Path) -> bool:
    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))


class ExportCard(QFrame):
    try_requested = Signal(str)  # path of the exported file

    def __init__(self, report: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.report = report
        self.setObjectName("ExportCard")
        self.level, title = headline(report)
        colour = level_colour(self.level)
        self.setStyleSheet(f"#ExportCard {{ border: 1px solid rgba({colour.red()}, {colour.green()}, "
                           f"{colour.blue()}, 120); border-left: 4px solid {colour.name()}; border-radius: 4px; }}")
        icon = QLabel(self)
        icon.setPixmap(level_icon(self.level).pixmap(20, 20))
        self.title_label = QLabel(f"<b>{escape(title)}</b>", self, wordWrap=True)
        self.details_label = QLabel("<br>".join(escape(line) for line in detail_lines(report)), self, wordWrap=True)
        self.details_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        path = report.get("path")
        self.folder = Path(path).parent if path else None
        self.open_button = QPushButton(self.tr("Open folder"), self, clicked=self._open)
        self.open_button.setEnabled(self.folder is not None)
        self.open_button.setToolTip(str(self.folder or ""))
        self.try_button = QPushButton(self.tr("Try it"), self, clicked=self._try)
        self.try_button.setEnabled(bool(path))
        self.try_button.setToolTip(self.tr("Run this file on images and look at its detections"))
        head = QHBoxLayout()
        head.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        head.addWidget(self.title_label, 1)
        head.addWidget(self.try_button, 0, Qt.AlignmentFlag.AlignTop)
        head.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.addLayout(head)
        layout.addWidget(self.details_label)

    @property
    def verified(self) -> bool:
        return self.level == "ok"

    def _open(self) -> None:
        if self.folder is not None:
            open_folder(self.folder)

    def _try(self) -> None:
        if self.report.get("path"):
            self.try_requested.emit(str(self.report["path"]))
