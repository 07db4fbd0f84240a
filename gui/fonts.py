"""Fonts the app brings with it: a CJK face, so Chinese renders on machines without one.

The subset of Noto Sans CJK SC (``resources/fonts``, SIL OFL 1.1, built by ``tools/cjk_font.py``) is
registered when the interface is Chinese, and put after the platform's own family in the application
font's fallback list: Latin text keeps the desktop's look, a Chinese glyph the system lacks comes from
the bundled face, and one the system has keeps the system's (its hinting suits its screen).
"""

from __future__ import annotations

import logging

from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QApplication

from core import RESOURCES_DIR

CJK_FONT = RESOURCES_DIR / "fonts" / "NotoSansCJKsc-subset.otf"
CJK_FONT_LICENSE = RESOURCES_DIR / "fonts" / "LICENSE_NOTO_CJK"

_log = logging.getLogger("yolostudio.gui.fonts")
_family: str | None = None  # registered once per process


def register_cjk_font(app: QApplication) -> str | None:
    """Register the bundled CJK face and add it to the app font's fallbacks; its family, or None."""
    global _family
    if _family is None:
        font_id = QFontDatabase.addApplicationFont(str(CJK_FONT))
        families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
        if not families:
            _log.warning("the bundled CJK font %s could not be loaded: Chinese may show as boxes", CJK_FONT)
            return None
        _family = families[0]
    font = QFont(app.font())
    if _family not in font.families():
        font.setFamilies([*font.families(), _family])
        app.setFont(font)
    return _family
