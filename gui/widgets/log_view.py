"""A bounded, read-only log of the run: worker notes, warnings, errors and stray output lines.

Lines are buffered and appended in one go by a timer, so a chatty worker costs one text update per
tick, not one per line; the document keeps the last ``MAX_BLOCKS`` lines.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

from PySide6.QtCore import QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QFontDatabase
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from core.display_text import escape_controls

MAX_BLOCKS = 5000
FLUSH_MS = 150
CONTINUATION = "    "  # the later lines of one entry: indented, never taken for an entry of their own


class LogView(QWidget):
    enlarge_toggled = Signal(bool)  # "Enlarge": the page gives the log the room of the charts

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._pending: deque[str] = deque(maxlen=MAX_BLOCKS)
        self._tail: deque[str] = deque(maxlen=200)
        self._log_file: Path | None = None
        self.text = QPlainTextEdit(self, readOnly=True)
        self.text.setMaximumBlockCount(MAX_BLOCKS)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setPlaceholderText(self.tr("The run's log appears here."))
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.open_button = QPushButton(self.tr("Open worker.log"), self, clicked=self.open_log_file)
        self.open_button.setToolTip(self.tr("The worker's own output: library messages, warnings, tracebacks."))
        self.open_button.setEnabled(False)
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Log"), self))
        top.addStretch(1)
        self.enlarge_button = QPushButton(self.tr("Enlarge"), self, checkable=True)
        self.enlarge_button.setToolTip(self.tr("Give the log the room of the charts (click again to restore)"))
        self.enlarge_button.toggled.connect(self._on_enlarge)
        top.addWidget(self.enlarge_button)
        top.addWidget(self.open_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.text)
        self._following = True
        bar = self.text.verticalScrollBar()
        bar.valueChanged.connect(self._on_scrolled)
        bar.rangeChanged.connect(self._on_range_changed)
        self._timer = QTimer(self, interval=FLUSH_MS, timeout=self.flush)
        self._timer.start()

    def _on_enlarge(self, on: bool) -> None:
        self.enlarge_button.setText(self.tr("Restore") if on else self.tr("Enlarge"))
        self.enlarge_toggled.emit(on)

    def set_log_file(self, path: Path | None) -> None:
        self._log_file = path
        self.open_button.setEnabled(path is not None)

    def add(self, line: str) -> None:
        """One entry. A message of several lines is shown as lines (a literal ``\\n`` read badly, issue 32),
        the later ones indented, so no line of it can pass for an entry of its own; every other control
        character (ESC, CR) is escaped so it can neither forge nor hide a line."""
        parts = line.replace("\r\n", "\n").split("\n")
        for i, part in enumerate(parts):
            shown = escape_controls(part) if i == 0 else CONTINUATION + escape_controls(part)
            self._pending.append(shown)
            self._tail.append(shown)

    def flush(self) -> None:
        if self._pending:
            self.text.appendPlainText("\n".join(self._pending))
            self._pending.clear()

    def _on_scrolled(self, value: int) -> None:
        self._following = value >= self.text.verticalScrollBar().maximum() - 2

    def _on_range_changed(self, _minimum: int, maximum: int) -> None:
        if self._following:  # new lines or a resize: stay at the newest line unless the user scrolled up
            self.text.verticalScrollBar().setValue(maximum)

    def clear(self) -> None:
        self._pending.clear()
        self._tail.clear()
        self.text.clear()
        self._following = True

    def last_lines(self, count: int) -> list[str]:
        return list(self._tail)[-count:]

    def open_log_file(self) -> None:
        if self._log_file is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self._log_file)))
