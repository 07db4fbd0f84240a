"""The form view of a data.yaml: root and split paths (with pickers and resolved-path preview) and the
class table (add, rename, delete, reorder).

It holds no state of its own: ``show_spec`` fills it from the parsed document (signals blocked, so
showing never counts as editing), ``show_paths`` adds where each path resolves once the page has looked,
and every user edit leaves as a signal the page turns into a text edit of the YAML. Splits written as lists
are shown read-only here; the YAML view edits them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (QAbstractItemView, QFileDialog, QFormLayout, QGroupBox, QHBoxLayout, QHeaderView,
                               QLabel, QLineEdit, QPushButton, QTableWidget, QTableWidgetItem, QToolButton,
                               QVBoxLayout, QWidget)

from core.dataset.spec import DatasetSpec

FIELDS = ("path", "train", "val", "test")
TYPING_PAUSE_MS = 400  # a typed path is applied (and judged) after this pause


class DatasetForm(QWidget):
    field_edited = Signal(str, str)  # key, new value
    #: new names, and a description of the id change ("" for a rename/add, which keeps every id)
    names_edited = Signal(list, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edits: dict[str, QLineEdit] = {}
        self.previews: dict[str, QLabel] = {}
        self._values: dict[str, str] = {}
        self._typed_key = ""  # the field being typed in: applied after a pause, not only when focus leaves
        self._typing_timer = QTimer(self, singleShot=True, interval=TYPING_PAUSE_MS,
                                    timeout=lambda: self._field_done(self._typed_key, typing=True))
        self._names: list[str] = []
        paths = QGroupBox(self.tr("Folders and lists"), self)
        grid = QFormLayout(paths)
        labels = {"path": self.tr("Root (path):"), "train": self.tr("Train:"), "val": self.tr("Val:"),
                  "test": self.tr("Test (optional):")}
        for key in FIELDS:
            edit = QLineEdit(self)
            edit.setAccessibleName(labels[key])
            edit.setPlaceholderText(self.tr("the folder of this data.yaml") if key == "path"
                                    else self.tr("a folder of images or a .txt list, relative to the root"))
            edit.editingFinished.connect(lambda key=key: self._field_done(key))
            edit.textEdited.connect(lambda _text, key=key: self._typing(key))
            browse = QToolButton(self, text="…")
            browse.setToolTip(self.tr("Choose a folder"))
            browse.setAccessibleName(self.tr("Choose a folder for {field}").format(field=key))
            browse.clicked.connect(lambda _=False, key=key: self._browse(key))
            preview = QLabel(self)
            preview.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            font = preview.font()
            font.setPointSizeF(font.pointSizeF() * 0.9)
            preview.setFont(font)
            row = QHBoxLayout()
            row.addWidget(edit, 1)
            row.addWidget(browse)
            box = QVBoxLayout()
            box.setSpacing(1)
            box.addLayout(row)
            box.addWidget(preview)
            grid.addRow(labels[key], box)
            self.edits[key], self.previews[key] = edit, preview
        classes = QGroupBox(self.tr("Classes"), self)
        self.table = QTableWidget(0, 2, self)
        self.table.setHorizontalHeaderLabels([self.tr("Id"), self.tr("Name")])
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.itemChanged.connect(self._renamed)
        self.add_button = QPushButton(self.tr("Add"), self, clicked=self.add_class)
        self.delete_button = QPushButton(self.tr("Delete"), self, clicked=self.delete_class)
        self.up_button = QPushButton(self.tr("Move up"), self, clicked=lambda: self.move_class(-1))
        self.down_button = QPushButton(self.tr("Move down"), self, clicked=lambda: self.move_class(1))
        self.classes_note = QLabel(self)
        self.classes_note.setWordWrap(True)
        buttons = QHBoxLayout()
        for button in (self.add_button, self.delete_button, self.up_button, self.down_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        class_layout = QVBoxLayout(classes)
        class_layout.addWidget(self.table, 1)
        class_layout.addLayout(buttons)
        class_layout.addWidget(self.classes_note)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(paths)
        layout.addWidget(classes, 1)

    # -- showing ------------------------------------------------------------------------------------
    def show_spec(self, data: Any, names: list[str], editable: bool) -> None:
        """The fields and classes as the text says them (the paths' previews follow with ``show_paths``)."""
        data = data if isinstance(data, dict) else {}
        for key in FIELDS:
            value = data.get(key)
            edit = self.edits[key]
            edit.blockSignals(True)
            if isinstance(value, list):
                edit.setText(", ".join(map(str, value)))
                edit.setReadOnly(True)
                edit.setToolTip(self.tr("A list of {n} entries: edit it in the YAML view.").format(n=len(value)))
            else:
                text = "" if value is None else str(value)
                if edit.text() != text:  # the same text: leave the cursor where the user is typing
                    edit.setText(text)
                edit.setReadOnly(not editable)
                edit.setToolTip("")
            edit.blockSignals(False)
            self._values[key] = edit.text()
        self._names = list(names)
        self.table.blockSignals(True)
        self.table.setRowCount(len(self._names))
        for row, name in enumerate(self._names):
            id_item = QTableWidgetItem(str(row))
            id_item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            self.table.setItem(row, 0, id_item)
            name_item = QTableWidgetItem(name)
            if not editable:
                name_item.setFlags(name_item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.table.setItem(row, 1, name_item)
        self.table.blockSignals(False)
        for button in (self.add_button, self.delete_button, self.up_button, self.down_button):
            button.setEnabled(editable)
        self.classes_note.setText(self.tr("{n} classes. Ids are the row numbers; label files store these ids.")
                                  .format(n=len(self._names)) if editable else
                                  self.tr("Fix the YAML errors (see the YAML view) to edit here."))

    def show_paths(self, spec: DatasetSpec | None, states: dict[str, str]) -> None:
        """Where each path resolves and what is there (``states``: path → folder, list or missing)."""
        for key in FIELDS:
            self.previews[key].setText(self._preview(key, spec, states))

    def _preview(self, key: str, spec: DatasetSpec | None, states: dict[str, str]) -> str:
        if spec is None:
            return ""
        if key == "path":
            return self.tr("→ {path}").format(path=spec.root)
        split = spec.splits.get(key)
        if split is None:
            return self.tr("(not set)") if key == "test" else ""
        words = {"folder": self.tr("folder"), "list": self.tr("list file"), "missing": self.tr("missing")}
        return "\n".join(self.tr("→ {path} ({state})").format(path=path, state=words[states.get(str(path), "missing")])
                         for path in split.paths)

    # -- editing ------------------------------------------------------------------------------------
    def _typing(self, key: str) -> None:
        if self._typed_key and self._typed_key != key:
            self._field_done(self._typed_key)
        self._typed_key = key
        self._typing_timer.start()

    def _field_done(self, key: str, *, typing: bool = False) -> None:
        """Apply a field's text: after a pause in typing (Save enables, the hints follow) or when it is left.
        Clearing an optional key only counts when the field is left: an empty field mid-typing is no request."""
        if not key:
            return
        if not typing:
            self._typing_timer.stop()
        edit = self.edits[key]
        if edit.isReadOnly() or edit.text() == self._values.get(key, ""):
            return
        if typing and not edit.text().strip():
            return
        self._values[key] = edit.text()
        self.field_edited.emit(key, edit.text().strip())

    def _browse(self, key: str) -> None:
        start = self.edits["path"].text() or str(Path.home())
        folder = QFileDialog.getExistingDirectory(self, self.tr("Choose a folder"), start)
        if folder:
            self.edits[key].setText(folder)
            self._field_done(key)

    def _renamed(self, item: QTableWidgetItem) -> None:
        if item.column() != 1:
            return
        names = list(self._names)
        new = item.text().strip()
        if not new or names[item.row()] == new:
            self.table.blockSignals(True)
            item.setText(names[item.row()])
            self.table.blockSignals(False)
            return
        names[item.row()] = new
        self.names_edited.emit(names, "")

    def current_row(self) -> int:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].row() if rows else -1

    def add_class(self) -> None:
        self.names_edited.emit(self._names + [self.tr("class{n}").format(n=len(self._names))], "")

    def delete_class(self) -> None:
        row = self.current_row()
        if row < 0:
            return
        names = self._names[:row] + self._names[row + 1:]
        what = self.tr("Delete class {id} '{name}'? Every class after it moves down one id.").format(
            id=row, name=self._names[row]) if row < len(self._names) - 1 else ""
        self.names_edited.emit(names, what or self.tr("Delete class {id} '{name}'?").format(
            id=row, name=self._names[row]))

    def move_class(self, step: int) -> None:
        row = self.current_row()
        other = row + step
        if row < 0 or not 0 <= other < len(self._names):
            return
        names = list(self._names)
        names[row], names[other] = names[other], names[row]
        self.names_edited.emit(names, self.tr("Swap classes {a} '{x}' and {b} '{y}'?").format(
            a=row, x=self._names[row], b=other, y=self._names[other]))
        self.table.selectRow(other)

    def select_class(self, row: int) -> None:
        self.table.selectRow(row)
