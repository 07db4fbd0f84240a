"""Status levels (``core.findings.Severity``: ok / info / warning / error): the same icon, word and colour
everywhere in the app.

Colour is never the only signal: every level also has an icon and a word, so the meaning survives
colour blindness, a dark theme and a screenshot in a bug report.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QColor, QIcon
from PySide6.QtWidgets import QApplication, QStyle

from core.findings import Severity

_ICONS = {
    Severity.OK: QStyle.StandardPixmap.SP_DialogApplyButton,
    Severity.INFO: QStyle.StandardPixmap.SP_MessageBoxInformation,
    Severity.WARNING: QStyle.StandardPixmap.SP_MessageBoxWarning,
    Severity.ERROR: QStyle.StandardPixmap.SP_MessageBoxCritical,
}
_COLOURS = {Severity.OK: "#2e9d57", Severity.INFO: "#2f7fd1", Severity.WARNING: "#d98c00", Severity.ERROR: "#d64541"}


def level_icon(level: str) -> QIcon:
    """The level's icon from the application's style. Not ``widget.style()``: under a style sheet that is a
    proxy Qt makes and deletes per widget, and PySide6 once handed back, for its address, the stale wrapper of a
    deleted layout item ("'QWidgetItem' object has no attribute 'standardIcon'", twice in CI)."""
    return QApplication.style().standardIcon(_ICONS.get(level, _ICONS["info"]))


def level_colour(level: str) -> QColor:
    return QColor(_COLOURS.get(level, _COLOURS["info"]))


def level_word(level: str) -> str:
    words = {
        "ok": QCoreApplication.translate("Levels", "OK"),
        "info": QCoreApplication.translate("Levels", "Info"),
        "warning": QCoreApplication.translate("Levels", "Warning"),
        "error": QCoreApplication.translate("Levels", "Error"),
    }
    return words.get(level, words["info"])
