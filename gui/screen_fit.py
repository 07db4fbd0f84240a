"""Windows sized to the screen they open on (issue 32): a wish like 1360×860 is clamped to the screen's
available geometry (taskbar and panels left out), so Stop, Resume and a dialog's buttons stay on screen on a
1280×720 laptop. Restored geometry is clamped the same way: a size saved on a larger monitor never opens
off screen."""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget


def available(widget: QWidget) -> QRect:
    """The screen area ``widget`` may use: its own screen's, else the primary's."""
    screen = widget.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry()


def fit_to_screen(widget: QWidget, width: int, height: int) -> None:
    """Resize ``widget`` to ``width``×``height`` or the available screen, whichever is smaller, and move it
    inside the screen. The frame (title bar) is allowed for when the window system reports it."""
    area = available(widget)
    frame_w = max(0, widget.frameGeometry().width() - widget.width())
    frame_h = max(0, widget.frameGeometry().height() - widget.height())
    w = max(1, min(width, area.width() - frame_w))
    h = max(1, min(height, area.height() - frame_h))
    widget.resize(w, h)
    clamp_to_screen(widget)


def clamp_to_screen(widget: QWidget) -> None:
    """Shrink and move ``widget`` so the whole of it lies inside the available screen area."""
    area = available(widget)
    w, h = min(widget.width(), area.width()), min(widget.height(), area.height())
    if (w, h) != (widget.width(), widget.height()):
        widget.resize(w, h)
    if widget.isWindow():
        x = min(max(widget.x(), area.left()), area.right() + 1 - w)
        y = min(max(widget.y(), area.top()), area.bottom() + 1 - h)
        if (x, y) != (widget.x(), widget.y()):
            widget.move(x, y)
