"""Where the window remembers its geometry: a QSettings INI file beside the app's settings.json.

Only window state lives in QSettings (DESIGN.md); putting the file in ``core.settings.config_dir()``
means ``YOLOSTUDIO_CONFIG_DIR`` redirects it too, so tests never touch a developer's real config.
"""

from __future__ import annotations

from PySide6.QtCore import QSettings

from core.settings import config_dir


def window_settings() -> QSettings:
    return QSettings(str(config_dir() / "window.ini"), QSettings.Format.IniFormat)
