"""The app's language for a test, and English (with the app's own font) back afterwards, whatever the test did."""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator

from PySide6.QtWidgets import QApplication

from core import i18n
from gui.i18n import install_language


@contextmanager
def app_in_language(language: str) -> Iterator[QApplication]:
    """Install ``language`` (its catalogues and, for Chinese, the bundled CJK font) for the block; then English,
    the font the app had, and ``YOLOSTUDIO_LANG=en`` for the workers the next test starts."""
    app = QApplication.instance()
    font = app.font()
    install_language(app, language)
    try:
        yield app
    finally:
        install_language(app, "en")
        app.setFont(font)
        os.environ[i18n.LANGUAGE_ENV] = "en"
