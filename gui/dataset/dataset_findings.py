"""The validator's findings as a list: level (icon + word), code, file:line, message; a click opens the place.

Selecting a finding shows the file it names beside the list with the line marked (label files are small;
only the first 256 KB of any file is read), or, for the data.yaml itself, asks the page to jump there.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFontDatabase, QTextCursor, QTextFormat
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QLabel, QMenu, QPlainTextEdit, QPushButton, QSplitter,
                               QTextEdit, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from core.dataset.fix_catalogue import fix_description
from core.display_text import escape_controls
from core.findings import Finding
from gui.widgets.levels import level_colour, level_icon, level_word

PREVIEW_BYTES = 256 * 1024
MAX_ROWS = 5000  # the list stays responsive; the CLI's --json has them all


class FindingsView(QWidget):
    #: a finding in the data.yaml was chosen: (line, column)
    yaml_location = Signal(int, int)
    #: the user asked for the one-click fix of this finding
    fix_requested = Signal(object)
    #: a finding was chosen: the page reads its file and plans its fix, and answers with ``show_preview``
    #: and ``set_fix``
    finding_opened = Signal(object)
    #: the user asked to undo the last fix
    undo_fix_requested = Signal()
    #: the user gave the finding's label row this class (an id beyond the names: issue 32)
    reassign_requested = Signal(object, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.findings: list[Finding] = []
        self.yaml_file = ""
        self.summary = QLabel(self.tr("Not checked yet. Press Check (F5) to validate every image and label."), self)
        self.summary.setWordWrap(True)
        self.level_filter = QComboBox(self)
        self.level_filter.addItems([self.tr("All levels"), self.tr("Errors"), self.tr("Warnings"), self.tr("Info")])
        self.level_filter.setAccessibleName(self.tr("Show findings of level"))
        self.level_filter.currentIndexChanged.connect(self._refill)
        self.tree = QTreeWidget(self)
        self.tree.setHeaderLabels([self.tr("Level"), self.tr("Code"), self.tr("Where"), self.tr("Message")])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setColumnWidth(0, 90)
        self.tree.setColumnWidth(1, 170)
        self.tree.setColumnWidth(2, 220)
        self.tree.currentItemChanged.connect(self._selected)
        self.preview = QPlainTextEdit(self, readOnly=True)
        self.preview.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.preview.setPlaceholderText(self.tr("Select a finding to see its file here."))
        self.preview_title = QLabel(self)
        self.fix_button = QPushButton(self.tr("Fix…"), self, enabled=False)
        self.fix_button.setToolTip(self.tr("Preview and apply the one-click fix for this finding (a backup is kept)"))
        self.fix_button.clicked.connect(self._fix_clicked)
        self.undo_fix_button = QPushButton(self.tr("Undo fix"), self)
        self.undo_fix_button.clicked.connect(lambda: self.undo_fix_requested.emit())
        self.undo_fix_button.hide()
        self.reassign_button = QPushButton(self.tr("Change its class"), self)
        self.reassign_button.setToolTip(self.tr("Keep the box and give it one of the dataset's classes (previewed "
                                                "first; Undo fix puts it back)"))
        self.reassign_menu = QMenu(self.reassign_button)
        self.reassign_button.setMenu(self.reassign_menu)
        self.reassign_button.hide()
        # The chosen finding's whole message: the list's column cuts a long one ("Class id 99 but th…").
        self.message_label = QLabel(self, wordWrap=True)
        self.message_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message_label.setTextFormat(Qt.TextFormat.PlainText)
        self.current: Finding | None = None
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.level_filter)
        side = QWidget(self)
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        title_row = QHBoxLayout()
        title_row.addWidget(self.preview_title, 1)
        title_row.addWidget(self.undo_fix_button)
        title_row.addWidget(self.reassign_button)
        title_row.addWidget(self.fix_button)
        side_layout.addLayout(title_row)
        side_layout.addWidget(self.message_label)
        side_layout.addWidget(self.preview, 1)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.tree)
        split.addWidget(side)
        split.setSizes([300, 160])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(split, 1)

    def set_findings(self, findings: list[Finding], yaml_file: str, summary: str) -> None:
        """Show a new check's findings; the preview is read again (it never shows a line no longer in the file)."""
        self.findings, self.yaml_file = findings, yaml_file
        self.summary.setText(summary)
        previous = self.current
        self.current = None
        self.fix_button.setEnabled(False)
        self.reassign_button.hide()
        self.message_label.clear()
        self.preview_title.clear()
        self.preview.clear()
        self._refill()
        if previous is not None and previous in findings:
            self.open_finding(previous, show_in_yaml=False)  # a re-check never switches the left pane

    def _refill(self) -> None:
        wanted = {1: "error", 2: "warning", 3: "info"}.get(self.level_filter.currentIndex())
        self.tree.blockSignals(True)  # filling the list is no choice of the user's: nothing opens or switches
        self.tree.clear()
        items = []
        for f in self.findings:
            if wanted and f.severity != wanted:
                continue
            where = escape_controls(Path(f.file).name + (f":{f.line}" if f.line else ""))
            item = QTreeWidgetItem([level_word(f.severity), f.code, where, escape_controls(f.message)])
            item.setIcon(0, level_icon(f.severity))
            item.setToolTip(2, escape_controls(f.file))
            item.setToolTip(3, escape_controls(f.message))
            item.setData(0, Qt.ItemDataRole.UserRole, f)
            items.append(item)
            if len(items) >= MAX_ROWS:
                break
        self.tree.addTopLevelItems(items)
        self.tree.setCurrentItem(None)
        self.tree.blockSignals(False)

    def _selected(self, item: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None = None) -> None:
        if item is None:
            return
        f: Finding = item.data(0, Qt.ItemDataRole.UserRole)
        self.open_finding(f)

    def set_fix(self, f: Finding, what: str) -> None:
        """The page's answer for ``f``: what Fix… would do ("" — there is no automatic fix for it now)."""
        if f is not self.current:
            return
        self.fix_button.setEnabled(bool(what))
        self.fix_button.setToolTip(self.tr("Fix: {what} — previewed first, and Undo fix puts it back.").format(
            what=what) if what else self.tr("No automatic fix for this finding: its message says what to do."))

    def offer_classes(self, f: Finding, names: list[str]) -> None:
        """For a row whose class id cannot be a class: "Change its class" offers every class of the dataset."""
        if f is not self.current:
            return
        self.reassign_menu.clear()
        for cls, name in enumerate(names):
            self.reassign_menu.addAction(self.tr("{id}: {name}").format(id=cls, name=escape_controls(name)),
                                         lambda f=f, cls=cls: self.reassign_requested.emit(f, cls))
        self.reassign_button.setVisible(bool(names))

    def offer_undo(self, summary: str) -> None:
        """Show "Undo fix" for the fix just applied (``summary`` says what it did); "" hides it."""
        self.undo_fix_button.setVisible(bool(summary))
        self.undo_fix_button.setToolTip(self.tr("Undo: {what}").format(what=summary) if summary else "")

    def _fix_clicked(self) -> None:
        if self.current is not None:
            self.fix_requested.emit(self.current)

    def open_finding(self, f: Finding, *, show_in_yaml: bool = True) -> None:
        self.current = f
        self.message_label.setText(escape_controls(f.message))
        self.reassign_button.hide()  # offered again by the page for a class id beyond the names
        self.fix_button.setEnabled(False)
        self.fix_button.setToolTip(self.tr("Looking for a fix…") if fix_description(f.code) else self.tr(
            "No automatic fix for this finding: its message says what to do."))
        if show_in_yaml and Path(f.file) == Path(self.yaml_file):
            self.yaml_location.emit(max(1, f.line), f.column)
        self.preview_title.setText(escape_controls(f.file + (f":{f.line}" if f.line else "")))
        self.preview.setPlainText(escape_controls(f.message))  # until its file is read (``show_preview``)
        self.preview.setExtraSelections([])
        self.finding_opened.emit(f)

    def show_preview(self, f: Finding, text: str) -> None:
        """The finding's file (read off the GUI thread by the page), its line marked; "" keeps the message."""
        if f is not self.current or not text:
            return
        self.preview.setPlainText(text)
        if f.line:
            block = self.preview.document().findBlockByNumber(f.line - 1)
            selection = QTextEdit.ExtraSelection()
            colour = level_colour(f.severity)
            selection.format.setBackground(QColor(colour.red(), colour.green(), colour.blue(), 60))
            selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            selection.cursor = QTextCursor(block)
            self.preview.setExtraSelections([selection])
            self.preview.setTextCursor(QTextCursor(block))
            self.preview.centerCursor()
