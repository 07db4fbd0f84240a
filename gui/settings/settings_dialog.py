"""The Settings dialog: workspace, language, theme, default device, and what closing does with a run.

Everything here is ``core.settings.Settings`` (one versioned file the CLI reads too); the dialog edits a
copy and writes it only on OK, both through ``gui.settings.operations`` (off the GUI thread). The theme
shows at once; the language and the workspace apply after a restart (pages built with the old ones would
otherwise mix both): the dialog says so while they differ, and on OK offers to restart now. Under the
workspace field it names the workspace this window runs with and where that came from (``--workspace``,
``YOLOSTUDIO_WORKSPACE``, this setting, or the default) — the field is the setting, which a window started
with ``--workspace`` does not use.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QHBoxLayout, QLabel,
                               QLineEdit, QPushButton, QVBoxLayout, QWidget)

from core.settings import Settings
from core.workspace import COMMAND_LINE, DEFAULT, ENVIRONMENT, SETTING
from gui.app_restart import restart_app
from gui.dialogs import ask_yes
from gui.operations import describe_failure
from gui.settings.operations import load_settings_op, save_settings_op


def restart_words(language: bool, workspace: bool) -> str:
    """What applies at the next start, naming only what changed (issue 32: "language and workspace" after only
    the language changed)."""
    if language and workspace:
        return QCoreApplication.translate("SettingsDialog", "The new language and workspace apply when YOLO "
                                                            "Studio starts again.")
    if workspace:
        return QCoreApplication.translate("SettingsDialog", "The new workspace applies when YOLO Studio starts "
                                                            "again.")
    return QCoreApplication.translate("SettingsDialog", "The new language applies when YOLO Studio starts again.")


def ask_restart_now(parent: QWidget, words: str = "") -> bool:
    """Module attribute so tests answer it instead of a modal dialog. ``words``: ``restart_words``."""
    return ask_yes(parent, QCoreApplication.translate("SettingsDialog", "Restart YOLO Studio?"),
                   QCoreApplication.translate(
                       "SettingsDialog", "{what} Restart now? (A run that is training is asked about first, as on "
                                         "any close.)").format(what=words or restart_words(True, True)),
                   cancel=False)


class SettingsDialog(QDialog):
    theme_changed = Signal(str)  # the window applies it at once

    def __init__(self, parent: QWidget | None = None, settings: Settings | None = None, *,
                 workspace: Path | None = None) -> None:
        """``settings``: shown at once (tests), else read in the background; ``workspace``: the one this
        window runs with, named with its origin under the field."""
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self.original = settings if settings is not None else Settings()
        self.running = Path(workspace) if workspace is not None else None
        self.origin = ""  # where ``running`` came from (core.workspace's words), once read
        self.workspace_edit = QLineEdit(self.original.workspace, self)
        self.workspace_edit.setPlaceholderText(self.tr("The app's data folder (default)"))
        self.in_use = QLabel(self, wordWrap=True, visible=False)
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
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                        self)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.in_use)
        layout.addWidget(self.note)
        layout.addWidget(self.buttons)
        self._update_note()
        self.resize(620, self.sizeHint().height())
        if settings is None or workspace is not None:
            self._ok_button().setEnabled(settings is not None)  # OK waits for what is saved now
            load_settings_op(self, self.running).success(lambda loaded: self._loaded(*loaded, keep=settings)).run()

    def _ok_button(self) -> QPushButton:
        return self.buttons.button(QDialogButtonBox.StandardButton.Ok)

    def _loaded(self, settings: Settings, origin: str, default: Path, *, keep: Settings | None = None) -> None:
        """The saved settings fill the fields (unless given), the running workspace is named with its origin."""
        if keep is None:
            self.original = settings
            self.workspace_edit.setText(settings.workspace)
            for combo, value in ((self.language, settings.language), (self.theme, settings.theme),
                                 (self.close_with_run, settings.close_with_run)):
                combo.setCurrentIndex(max(combo.findData(value), 0))
            index = self.device.findData(settings.default_device)
            if index >= 0:
                self.device.setCurrentIndex(index)
            else:
                self.device.setEditText(settings.default_device)
        self.workspace_edit.setToolTip(self.tr("Empty: the app's data folder, {path}").format(path=default))
        if self.running is not None and origin:
            self.origin = origin
            words = {COMMAND_LINE: self.tr("from the command line (--workspace); this field is used when the "
                                           "app starts without it"),
                     ENVIRONMENT: self.tr("from YOLOSTUDIO_WORKSPACE; this field is used when it is not set"),
                     SETTING: self.tr("this setting"), DEFAULT: self.tr("the default")}
            self.in_use.setText(self.tr("Workspace in use now: {path} — {origin}.").format(path=self.running,
                                                                                  origin=words.get(origin, origin)))
            self.in_use.setVisible(True)
        self._ok_button().setEnabled(True)
        self._update_note()
        self.layout().activate()
        self.resize(self.width(), max(self.height(), self.heightForWidth(self.width()), self.sizeHint().height()))

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
        if self.needs_restart():
            notes.append(self.tr("{what} OK offers to restart now.").format(what=restart_words(*self._changed())))
        if os.environ.get("YOLOSTUDIO_WORKSPACE") and self.origin != ENVIRONMENT:
            notes.append(self.tr("YOLOSTUDIO_WORKSPACE is set, so it decides the workspace, not this setting."))
        self.note.setText(" ".join(notes))
        self.note.setVisible(bool(notes))

    def _device_value(self) -> str:
        index = self.device.currentIndex()
        if index >= 0 and self.device.currentText() == self.device.itemText(index):
            return str(self.device.itemData(index))
        return self.device.currentText().strip()

    def _changed(self) -> tuple[bool, bool]:
        """(the language changed, the workspace changed) against what is saved."""
        return (self.language.currentData() != self.original.language,
                self.workspace_edit.text().strip() != self.original.workspace)

    def needs_restart(self) -> bool:
        """The language or the workspace differs from what is saved: it applies at the next start."""
        return any(self._changed())

    def chosen(self) -> Settings:
        """The settings as the dialog shows them (written by ``accept``); fields it does not show are kept."""
        return replace(self.original, workspace=self.workspace_edit.text().strip(),
                       language=self.language.currentData(), theme=self.theme.currentData(),
                       default_device=self._device_value(), close_with_run=self.close_with_run.currentData())

    def accept(self) -> None:
        """Save in the background; close once saved, offering a restart when the language or workspace changed."""
        restart = restart_words(*self._changed()) if self.needs_restart() else ""
        self._ok_button().setEnabled(False)
        save_settings_op(self, self.chosen()).success(lambda saved: self._saved(restart)).failure(self._not_saved).run()

    def _saved(self, restart: str) -> None:
        super().accept()
        if restart and ask_restart_now(self.parentWidget() or self, restart):
            restart_app()

    def _not_saved(self, exc: BaseException) -> None:
        self._ok_button().setEnabled(True)
        self.note.setText(self.tr("Could not save the settings: {reason}").format(reason=describe_failure(exc)))
        self.note.setEnabled(True)
        self.note.show()

    def reject(self) -> None:
        self.theme_changed.emit(self.original.theme)  # the preview goes back
        super().reject()
