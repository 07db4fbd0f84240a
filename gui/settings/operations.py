"""The Settings dialog's calls into core, one ``CoreOp`` each (``gui.operations``): off the GUI thread.

Reading the settings file (and where the running workspace came from: ``core.workspace.workspace_origin``
reads it too) and writing it on OK both touch the disk; the dialog only shows and starts these.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject

from core.settings import Settings, load_settings, save_settings
from core.workspace import default_workspace, workspace_origin
from gui.operations import CoreOp


def _tr(text: str) -> str:
    return QCoreApplication.translate("SettingsOperations", text)


def load_settings_op(parent: QObject, running: Path | None) -> CoreOp[tuple[Settings, str, Path]]:
    """(the saved settings, where ``running`` came from — "" without one —, the default workspace)."""
    return CoreOp(parent, lambda: (load_settings(), workspace_origin(running) if running is not None else "",
                                   default_workspace()), what=_tr("Reading the settings"))


def save_settings_op(parent: QObject, settings: Settings) -> CoreOp[Settings]:
    """Write the settings file atomically (``core.settings.save_settings``); the saved settings come back."""

    def write() -> Settings:
        save_settings(settings)
        return settings

    return CoreOp(parent, write, what=_tr("Saving the settings"))
