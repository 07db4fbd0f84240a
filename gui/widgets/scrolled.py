"""A form that scrolls at a small height instead of making its page taller than the window (issue 32).

A page's least height is the sum of its parts' least heights; a form of many rows made the Dataset, Tune
and Machines pages taller than what a 1280×720 screen leaves beside the first-run guide, and the window then
cut off the bottom of the page (its buttons too). Inside a frameless scroll area the form asks for its full
height when there is room and scrolls when there is not.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QScrollArea, QWidget


#: The least height a scrolled form keeps: about six rows of fields (the Train form showed four: issue 32).
FORM_HEIGHT = 180


def scrolled(widget: QWidget, parent: QWidget | None = None, *, least: int = 0) -> QScrollArea:
    """``widget`` in a frameless, width-following scroll area (its vertical bar shows only when needed), kept at
    least ``least`` px tall (or the widget's own height, if less) when its page shares the height with others."""
    area = QScrollArea(parent, widgetResizable=True, frameShape=QScrollArea.Shape.NoFrame)
    area.setWidget(widget)
    # Up and down only: as wide as the form needs beside the vertical bar, never cut at its right edge.
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setMinimumWidth(widget.minimumSizeHint().width() + area.verticalScrollBar().sizeHint().width())
    if least:
        area.setMinimumHeight(min(least, widget.sizeHint().height()))
    return area
