"""The mouse wheel over a chart scrolls the page; it zooms only after a click into the chart or with Ctrl.

The live view is a scrolling page of charts: with pyqtgraph's default every wheel turn that passed over a
chart zoomed it instead of scrolling (and a zoomed chart stayed zoomed into the next run). Here a chart
takes the wheel only when the user meant it — the chart has focus (a click into it) or Ctrl is held —
and otherwise hands the turn to the scroll area it sits in. ``unzoom`` puts a chart back to following its
data, which every new run does.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QWidget


class _WheelToPage(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() != QEvent.Type.Wheel:
            return False
        plot = self.parent()
        assert isinstance(plot, QWidget)
        if plot.hasFocus() or event.modifiers() & Qt.KeyboardModifier.ControlModifier:  # type: ignore[attr-defined]
            return False  # the user means the chart: pyqtgraph zooms
        area = _scroll_area_of(plot)
        if area is not None:
            QCoreApplication.sendEvent(area.verticalScrollBar(), event)
        return True


def _scroll_area_of(widget: QWidget) -> QAbstractScrollArea | None:
    parent = widget.parentWidget()
    while parent is not None and not isinstance(parent, QAbstractScrollArea):
        parent = parent.parentWidget()
    return parent


def wheel_scrolls_page(plot: Any) -> None:
    """Install on a ``pyqtgraph.PlotWidget``: wheel zoom only after a click into it or with Ctrl."""
    plot.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
    plot.viewport().installEventFilter(_WheelToPage(plot))


def unzoom(plot: Any) -> None:
    """Follow the data again on the axes the user may zoom (x always; y when the chart lets them)."""
    view = plot.getPlotItem().getViewBox()
    x_only = not view.state["mouseEnabled"][1]
    view.enableAutoRange(axis=view.XAxis if x_only else view.XYAxes)
