"""The Predict page's picture: the latest frame the worker sent, with the boxes the sliders keep drawn over it.

The frame arrives scaled down (``core/worker/predict_preview.py``) while its boxes are in the original's pixels,
so boxes are placed by the original size (``source_size``), not the picture's. Drawn with QPainter: the GUI
never loads a runtime or OpenCV.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from gui.export.export_try import PALETTE


class LiveView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.image: QImage | None = None
        self.source_size = QSize()
        self.boxes: list[list[float]] = []
        self.names: dict[int, str] = {}
        self.placeholder = ""
        self.setMinimumSize(320, 200)

    def set_frame(self, image: QImage | None, width: int, height: int) -> None:
        self.image, self.source_size = image, QSize(width, height)
        self.update()

    def set_boxes(self, boxes: list[list[float]], names: dict[int, str]) -> None:
        self.boxes, self.names = boxes, names
        self.update()

    def set_placeholder(self, text: str) -> None:
        self.placeholder = text
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), self.palette().base())
        if self.image is None or self.image.isNull() or self.source_size.isEmpty():
            painter.drawText(self.rect().adjusted(12, 12, -12, -12),
                             Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.placeholder)
            painter.end()
            return
        scale = min(self.width() / self.source_size.width(), self.height() / self.source_size.height())
        w, h = self.source_size.width() * scale, self.source_size.height() * scale
        x0, y0 = (self.width() - w) / 2, (self.height() - h) / 2
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.drawImage(QRectF(x0, y0, w, h), self.image)
        font = QFont(painter.font())
        font.setPointSizeF(max(7.0, font.pointSizeF() * 0.85))
        painter.setFont(font)
        metrics = painter.fontMetrics()
        for x1, y1, x2, y2, conf, cls in self.boxes:
            colour = QColor(PALETTE[int(cls) % len(PALETTE)])
            painter.setPen(QPen(colour, 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            rect = QRectF(x0 + x1 * scale, y0 + y1 * scale, (x2 - x1) * scale, (y2 - y1) * scale)
            painter.drawRect(rect)
            label = f"{self.names.get(int(cls), str(int(cls)))} {conf:.2f}"
            tag = QRectF(rect.left(), rect.top() - metrics.height(), metrics.horizontalAdvance(label) + 6,
                         metrics.height())
            if tag.top() < y0:
                tag.moveTop(rect.top())
            painter.fillRect(tag, colour)
            painter.setPen(QColor("white"))
            painter.drawText(tag.adjusted(3, 0, 0, 0), Qt.AlignmentFlag.AlignVCenter, label)
        painter.end()
