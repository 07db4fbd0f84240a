"""Render resources/icons/yolo-studio.svg into the .ico that Windows shortcuts need (run after changing the SVG).

    QT_QPA_PLATFORM=offscreen .venv/bin/python installer/windows/make_icon.py

Windows shell links can't show an SVG; the .ico holds the standard sizes, rendered by Qt and packed by Pillow.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

SIZES = (16, 24, 32, 48, 64, 128, 256)
ICONS = Path(__file__).resolve().parents[2] / "resources" / "icons"


def render(size: int, renderer: QSvgRenderer) -> Image.Image:
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return Image.open(io.BytesIO(bytes(data))).convert("RGBA")


def main() -> None:
    _app = QGuiApplication([])
    renderer = QSvgRenderer(str(ICONS / "yolo-studio.svg"))
    largest = render(max(SIZES), renderer)
    largest.save(ICONS / "yolo-studio.ico", sizes=[(s, s) for s in SIZES])


if __name__ == "__main__":
    main()
