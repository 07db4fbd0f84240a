"""The interface language of the GUI process: Qt translators, ``core.i18n`` and the CJK font, chosen once.

``install_language`` runs before any widget exists (a widget translates its texts when it is built): it
picks the language (the setting, else the system locale), installs Qt's own catalogue (standard buttons,
file dialogs) and the app's (``resources/i18n/yolostudio_<lang>.qm``), points ``core.i18n`` at the same
language — and exports it in ``YOLOSTUDIO_LANG``, so the worker processes speak it too. See
docs/architecture.md, "Translation", for the catalogue and its one update command.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator
from PySide6.QtWidgets import QApplication

from core import i18n
from gui.fonts import register_cjk_font

_installed: list[QTranslator] = []  # kept alive: Qt holds only a pointer


def system_language() -> str:
    """The OS's language, through Qt (Windows has no LANG): "zh_CN" for any Chinese locale, else "en"."""
    env = i18n.language_from_environment()
    if env != "en":
        return env
    return i18n.supported(QLocale.system().name())


def install_language(app: QApplication, setting: str) -> str:
    """Translate the app into ``setting`` ("system", "en" or "zh_CN"); the language chosen."""
    language = system_language() if setting == "system" else i18n.supported(setting)
    os.environ[i18n.LANGUAGE_ENV] = language
    i18n.set_language(language)
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    if language == "en":
        return language
    qt_catalogues = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    for name, folder in ((f"qtbase_{language}", qt_catalogues), (f"yolostudio_{language}", str(i18n.CATALOGUE_DIR))):
        translator = QTranslator(app)
        if translator.load(name, folder):
            app.installTranslator(translator)
            _installed.append(translator)
    register_cjk_font(app)
    return language
