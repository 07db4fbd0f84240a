"""The raw data.yaml text view: highlighting, the parse error marked at its line and column, one undo stack.

The editor's own undo is off: every change goes through the page's ``QUndoStack`` (typing is committed
as one step after a short pause), so Ctrl+Z undoes form edits and typed edits in one history.
Typing is pending from the first keystroke until it is sent (``pending``): when the pause's single-shot
timer fires it is no longer active, so "pending" is a flag of its own, not the timer's state — the timer's
state made every pause a no-op, and typed edits never reached the form (issue 25).
"""

from __future__ import annotations

from PySide6.QtCore import QRegularExpression, Qt, QTimer, Signal
from PySide6.QtGui import (QColor, QFont, QFontDatabase, QKeyEvent, QKeySequence, QSyntaxHighlighter,
                           QTextCharFormat, QTextCursor, QTextFormat)
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

from gui.widgets.levels import level_colour, level_icon

COMMIT_DELAY_MS = 400


def _fmt(colour: str, bold: bool = False, italic: bool = False) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(QColor(colour))
    if bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    fmt.setFontItalic(italic)
    return fmt


class YamlHighlighter(QSyntaxHighlighter):
    """Keys, strings, numbers, list dashes and comments; colours readable on light and dark themes."""

    RULES = [
        (QRegularExpression(r"^\s*(- )?[^\s#'\"][^:#]*?(?=:(\s|$))"), _fmt("#2f7fd1", bold=True)),
        (QRegularExpression(r"(?<=[\s\[,:{])-?\d+(\.\d+)?(?=\s*($|[,\]}#]))"), _fmt("#b5651d")),
        (QRegularExpression(r"'[^']*'|\"(?:[^\"\\\\]|\\\\.)*\""), _fmt("#2e9d57")),
        (QRegularExpression(r"^\s*-(?=\s)"), _fmt("#8a63d2", bold=True)),
        (QRegularExpression(r"(^|\s)#.*$"), _fmt("#888888", italic=True)),
    ]

    def highlightBlock(self, text: str) -> None:
        for pattern, fmt in self.RULES:
            it = pattern.globalMatch(text)
            while it.hasNext():
                match = it.next()
                self.setFormat(match.capturedStart(), match.capturedLength(), fmt)


class _TextEdit(QPlainTextEdit):
    """Hands Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y to the page's history: a focused text edit takes those keys
    before any shortcut sees them, even with its own undo turned off."""

    undo_requested = Signal()
    redo_requested = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.matches(QKeySequence.StandardKey.Undo):
            self.undo_requested.emit()
        elif event.matches(QKeySequence.StandardKey.Redo) or (
                event.key() == Qt.Key.Key_Y and event.modifiers() == Qt.KeyboardModifier.ControlModifier):
            self.redo_requested.emit()
        else:
            super().keyPressEvent(event)


class YamlEditor(QWidget):
    #: The user typed; emitted once per pause with the whole text.
    text_edited = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = _TextEdit(self)
        self.edit.setUndoRedoEnabled(False)
        self.edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.edit.setAccessibleName(self.tr("data.yaml text"))
        self.highlighter = YamlHighlighter(self.edit.document())
        self._error_icon = QLabel(self)
        self.error_label = QLabel(self)
        self.error_label.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self._error_icon)
        row.addWidget(self.error_label, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit, 1)
        layout.addLayout(row)
        self._timer = QTimer(self, singleShot=True, interval=COMMIT_DELAY_MS, timeout=self._send)
        self._loading = False
        self._pending = False
        self.edit.textChanged.connect(self._changed)
        self.set_error(None)

    def _changed(self) -> None:
        if not self._loading:
            self._pending = True
            self._timer.start()

    def commit(self) -> None:
        """Send pending typing now (before a save, a form edit or an undo)."""
        self._timer.stop()
        if self._pending:
            self._send()

    def _send(self) -> None:
        self._pending = False
        self.text_edited.emit(self.edit.toPlainText())

    @property
    def pending(self) -> bool:
        """Typed text not sent yet (the pause has not ended)."""
        return self._pending

    def set_text(self, text: str) -> None:
        """Show ``text`` (``\\n`` newlines), keeping the cursor's line where possible; no signal."""
        if self.edit.toPlainText() == text:
            return
        cursor = self.edit.textCursor()
        position = cursor.position()
        self._loading = True
        try:
            self.edit.setPlainText(text)
        finally:
            self._loading = False
        cursor = self.edit.textCursor()
        cursor.setPosition(min(position, len(text)))
        self.edit.setTextCursor(cursor)

    def set_error(self, error: tuple[int, int, str] | None) -> None:
        """Mark ``(line, column, message)`` (1-based) in the text and say it under it; None clears."""
        if error is None:
            self.edit.setExtraSelections([])
            self._error_icon.setPixmap(level_icon("ok").pixmap(16, 16))
            self.error_label.setText(self.tr("The YAML parses."))
            return
        line, column, message = error
        block = self.edit.document().findBlockByNumber(max(0, line - 1))
        selection = QTextEdit.ExtraSelection()
        colour = level_colour("error")
        selection.format.setBackground(QColor(colour.red(), colour.green(), colour.blue(), 40))
        selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        cursor = QTextCursor(block)
        selection.cursor = cursor
        marker = QTextEdit.ExtraSelection()
        marker.format.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        marker.format.setUnderlineColor(colour)
        marker_cursor = QTextCursor(block)
        marker_cursor.movePosition(QTextCursor.MoveOperation.Right, n=max(0, column - 1))
        marker_cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
        marker.cursor = marker_cursor
        self.edit.setExtraSelections([selection, marker])
        self._error_icon.setPixmap(level_icon("error").pixmap(16, 16))
        self.error_label.setText(self.tr("Error at line {line}, column {column}: {message}").format(
            line=line, column=column, message=message))

    def go_to_line(self, line: int, column: int = 0) -> None:
        block = self.edit.document().findBlockByNumber(max(0, line - 1))
        cursor = QTextCursor(block)
        if column > 1:
            cursor.movePosition(QTextCursor.MoveOperation.Right, n=column - 1)
        self.edit.setTextCursor(cursor)
        self.edit.centerCursor()
        self.edit.setFocus(Qt.FocusReason.OtherFocusReason)

