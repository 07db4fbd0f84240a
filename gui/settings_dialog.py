"""The Settings dialog: workspace, language, theme, default device, and what closing does with a run.

Everything here is ``core.settings.Settings`` (one versioned file the CLI reads too); the dialog edits a
copy and writes it only on OK. The theme shows at once; the language and the workspace apply after a
restart (pages built with the old ones would otherwise mix both), and the dialog says so.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QHBoxLayout, QLabel,
                               QLineEdit, QPushButton, QVBoxLayout, QWidget)

from core.settings import Settings, load_settings, save_settings


class SettingsDialog(QDialog):
    theme_changed = Signal(str)  # the window applies it at once

    def __init__(self, parent: QWidget | None = None, settings: Settings | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self.original = settings if settings is not None else load_settings()
        self.workspace_edit = QLineEdit(self.original.workspace, self)
        self.workspace_edit.setPlaceholderText(self.tr("The app's data folder (default)"))
        browse = QPushButton(self.tr("Browse…"), self)
        browse.clicked.connect(self._browse_workspace)
        workspace_row = QHBoxLayout()
        workspace_row.addWidget(self.workspace_edit, 1)
        workspace_row.addWidget(browse)
        self.language = self._combo([("system", self.tr("System language")), ("en", "English"),
                                     ("zh_CN", "简体中文")], self.original.language)
        self.theme = self._combo([("system", self.tr("Follow the system")), ("light", self.tr("Light")),
                                  ("dark", self.tr("Dark"))], self.original.theme)
        self.theme.currentIndexChanged.connect(lambda: self.theme_changed.emit(self.theme.currentData()))
        self.device = self._combo([("", self.tr("Automatic: the first GPU, else the CPU")), ("cpu", self.tr("CPU")),
                                   ("0", self.tr("GPU 0")), ("0,1", self.tr("GPUs 0 and 1"))],
                                  self.original.default_device, editable=True)
        self.device.setToolTip(self.tr("The device a new run starts with on the Train form: empty for automatic, "
                                       "'cpu', a GPU index such as '0', or several such as '0,1'."))
        self.close_with_run = self._combo([("ask", self.tr("Ask every time")),
                                           ("stop", self.tr("Stop the run (a checkpoint is saved)")),
                                           ("keep", self.tr("Keep it training in the background"))],
                                          self.original.close_with_run)
        form = QFormLayout()
        form.addRow(self.tr("&Workspace folder:"), workspace_row)
        form.labelForField(workspace_row).setBuddy(self.workspace_edit)  # Alt+W reaches the field
        form.addRow(self.tr("&Language:"), self.language)
        form.addRow(self.tr("&Theme:"), self.theme)
        form.addRow(self.tr("Default &device:"), self.device)
        form.addRow(self.tr("&Closing while a run trains:"), self.close_with_run)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self.note.setEnabled(False)
        for combo in (self.language,):
            combo.currentIndexChanged.connect(self._update_note)
        self.workspace_edit.textChanged.connect(self._update_note)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addWidget(buttons)
        self._update_note()
        self.resize(620, self.sizeHint().height())

    def _combo(self, items: list[tuple[str, str]], current: str, *, editable: bool = False) -> QComboBox:
        combo = QComboBox(self, editable=editable)
        for value, text in items:
            combo.addItem(text, value)
        index = combo.findData(current)
        if index >= 0:
            combo.setCurrentIndex(index)
        elif editable:
            combo.setEditText(current)
        return combo

    def _browse_workspace(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Choose the workspace folder"),
                                                  self.workspace_edit.text() or str(Path.home()))
        if folder:
            self.workspace_edit.setText(folder)

    def _update_note(self) -> None:
        notes = []
        if self.language.currentData() != self.original.language or \
                self.workspace_edit.text().strip() != self.original.workspace:
            notes.append(self.tr("The language and the workspace change the next time YOLO Studio starts."))
        if os.environ.get("YOLOSTUDIO_WORKSPACE"):
            notes.append(self.tr("YOLOSTUDIO_WORKSPACE is set, so it decides the workspace, not this setting."))
        self.note.setText(" ".join(notes))
        self.note.setVisible(bool(notes))

    def _device_value(self) -> str:
        index = self.device.currentIndex()
        if index >= 0 and self.device.currentText() == self.device.itemText(index):
            return str(self.device.itemData(index))
        return self.device.currentText().strip()

    def chosen(self) -> Settings:
        """The settings as the dialog shows them (written by ``accept``)."""
        return replace(load_settings(), workspace=self.workspace_edit.text().strip(),
                       language=self.language.currentData(), theme=self.theme.currentData(),
                       default_device=self._device_value(), close_with_run=self.close_with_run.currentData())

    def accept(self) -> None:
        try:
            save_settings(self.chosen())
        except OSError as exc:
            self.note.setText(self.tr("Could not save the settings: {reason}").format(reason=exc))
            self.note.setEnabled(True)
            self.note.show()
            return
        super().accept()

    def reject(self) -> None:
        self.theme_changed.emit(self.original.theme)  # the preview goes back
        super().reject()
