"""Live training plots: losses per batch and per epoch, validation metrics and learning rate per epoch.

Events only append to numpy buffers (growing by doubling); a timer pushes the buffers to pyqtgraph
at ~5 Hz when something changed — never a redraw per event — one plot per tick (``StaggeredRedraw``),
so a repaint never covers every plot at once and the event loop never stalls for all of them.
Downsampling ('peak') and clip-to-view
keep a long run's plots fast. OpenGL stays off (set once in ``gui.app``).
"""

from __future__ import annotations

from html import escape
from typing import Any, Callable

import numpy as np
from gui.plotting import pg
from gui.widgets.plot_wheel import unzoom, wheel_scrolls_page
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

REFRESH_MS = 200
#: 1 px pens everywhere: with antialiasing, wider strokes cost ~10x more to paint in Qt's raster engine
#: (measured: 2 px, 4 curves of 20 points: 2.3 ms a frame vs 0.25 ms; a peak-downsampled batch curve: 64 vs
#: 2.7 ms), and eight plots repainting at 5 Hz would stall the event loop. Symbols mark the epoch points.
PEN_WIDTH = 1
LOSS_COLOURS = {"box": "#1f77b4", "obj": "#ff7f0e", "cls": "#2ca02c"}
METRIC_KEYS = {  # series name -> yolov5 metric key
    "precision": "metrics/precision",
    "recall": "metrics/recall",
    "map50": "metrics/mAP_0.5",
    "map50_95": "metrics/mAP_0.5:0.95",
}
METRIC_COLOURS = {"precision": "#9467bd", "recall": "#8c564b", "map50": "#d62728", "map50_95": "#17becf"}
LR_KEYS = {"lr0": "x/lr0", "lr1": "x/lr1", "lr2": "x/lr2"}  # yolov5's three parameter groups
LR_COLOURS = {"lr0": "#e377c2", "lr1": "#7f7f7f", "lr2": "#bcbd22"}


class Series:
    """x/y float buffers that double when full: appends are O(1) amortised, views are free."""

    def __init__(self, capacity: int = 256) -> None:
        self._x = np.empty(capacity)
        self._y = np.empty(capacity)
        self.size = 0

    def append(self, x: float, y: float) -> None:
        if self.size == len(self._x):
            self._x = np.concatenate([self._x, np.empty(len(self._x))])
            self._y = np.concatenate([self._y, np.empty(len(self._y))])
        self._x[self.size], self._y[self.size] = x, y
        self.size += 1

    def put(self, x: float, y: float) -> None:
        """Append, first dropping every point at or after ``x``: a resumed run redoes the interrupted epoch
        from its first batch, and the redone curve replaces the old one instead of drawing over it."""
        if self.size and x <= self._x[self.size - 1]:
            self.size = int(np.searchsorted(self._x[: self.size], x, side="left"))
        self.append(x, y)

    def view(self) -> tuple[np.ndarray, np.ndarray]:
        return self._x[: self.size], self._y[: self.size]

    def clear(self) -> None:
        self.size = 0

    def last(self) -> float | None:
        """The newest y value (for a heading that shows the current reading), None when empty."""
        return float(self._y[self.size - 1]) if self.size else None

    @property
    def nbytes(self) -> int:
        return self._x.nbytes + self._y.nbytes


class StaggeredRedraw(QObject):
    """Redraws the plots whose data changed, one per tick, each at most every ``period_ms``.

    Qt paints every dirty widget of a window in one go; eight plots pushed in the same tick make one long
    stall. Spread over ticks, each frame repaints one plot (a few ms) and each plot still updates at 5 Hz.
    """

    def __init__(self, parent: QObject, period_ms: int, plots: list[str], push: Callable[[str], None]) -> None:
        super().__init__(parent)
        self.plots, self.push = plots, push
        self.dirty: set[str] = set()
        self._next = 0
        self._timer = QTimer(self, interval=max(10, period_ms // max(1, len(plots))), timeout=self._tick)
        self._timer.start()

    def mark(self, *plots: str) -> None:
        self.dirty.update(plots)

    def _tick(self) -> None:
        for _ in range(len(self.plots)):
            key = self.plots[self._next]
            self._next = (self._next + 1) % len(self.plots)
            if key in self.dirty:
                self.dirty.discard(key)
                self.push(key)
                return

    def flush(self) -> None:
        """Redraw everything that changed now (a run ended, the page was cleared)."""
        for key in self.plots:
            if key in self.dirty:
                self.dirty.discard(key)
                self.push(key)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _unbroken(words: str) -> str:
    """``words`` escaped for rich text, never broken across lines (a space is a non-breaking one)."""
    return escape("\u2060".join(words.replace(" ", "\u00a0")))


class TrainingPlots(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.series: dict[str, Series] = {name: Series() for name in (
            *(f"train/{k}" for k in LOSS_COLOURS), *(f"val/{k}" for k in LOSS_COLOURS), *METRIC_KEYS, *LR_KEYS)}
        self._curves: dict[str, pg.PlotDataItem] = {}
        solid, dashed = "━━", "╍●╍"
        loss_legend: list[tuple[str, str, str]] = []  # (glyph, colour, words)
        self.loss_plot = self._make_plot(self.tr("Loss (yolov5 units)"))
        for key, colour in LOSS_COLOURS.items():
            self._curves[f"train/{key}"] = self.loss_plot.plot(pen=pg.mkPen(colour, width=PEN_WIDTH))
            loss_legend.append((solid, colour, self.tr("train {loss}").format(loss=key)))
        for key, colour in LOSS_COLOURS.items():
            self._curves[f"val/{key}"] = self.loss_plot.plot(
                pen=pg.mkPen(colour, width=PEN_WIDTH, style=Qt.PenStyle.DashLine), symbol="o", symbolSize=6,
                symbolBrush=colour, symbolPen=None)
            loss_legend.append((dashed, colour, self.tr("val {loss}").format(loss=key)))
        names = {"precision": self.tr("precision"), "recall": self.tr("recall"), "map50": self.tr("mAP@0.5"),
                 "map50_95": self.tr("mAP@0.5:0.95")}
        self.metric_plot = self._make_plot(self.tr("Score (0–1)"))
        for key, colour in METRIC_COLOURS.items():
            self._curves[key] = self.metric_plot.plot(pen=pg.mkPen(colour, width=PEN_WIDTH), symbol="o", symbolSize=6,
                                                      symbolBrush=colour, symbolPen=None)
        metric_legend = [("━●", colour, names[key]) for key, colour in METRIC_COLOURS.items()]
        self.lr_plot = self._make_plot(self.tr("Learning rate"))
        for key, colour in LR_COLOURS.items():
            self._curves[key] = self.lr_plot.plot(pen=pg.mkPen(colour, width=PEN_WIDTH), symbol="o", symbolSize=5,
                                                  symbolBrush=colour, symbolPen=None)
        groups = {"lr0": self.tr("lr0 (biases)"), "lr1": self.tr("lr1 (weights)"), "lr2": self.tr("lr2 (BN)")}
        lr_legend = [("━●", colour, groups[key]) for key, colour in LR_COLOURS.items()]
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._panel(self.tr("Losses per batch (train) and per epoch (val)"), loss_legend,
                                     self.loss_plot), 2)
        layout.addWidget(self._panel(self.tr("Validation metrics per epoch"), metric_legend, self.metric_plot), 1)
        layout.addWidget(self._panel(self.tr("Learning rate per epoch"), lr_legend, self.lr_plot), 1)
        self._apply_palette()
        self._plot_of = {name: "loss" if name.startswith(("train/", "val/")) else "lr" if name in LR_KEYS else "metric"
                         for name in self._curves}
        self._redraw = StaggeredRedraw(self, REFRESH_MS, ["loss", "metric", "lr"], self._push)

    def _make_plot(self, y_label: str) -> pg.PlotWidget:
        plot = pg.PlotWidget(self)
        plot.setLabel("bottom", self.tr("Epoch"))
        plot.setLabel("left", y_label)
        for axis in ("left", "bottom"):
            plot.getAxis(axis).enableAutoSIPrefix(False)  # no "(x0.001)" on a 0–1 score
        plot.showGrid(x=False, y=True, alpha=0.2)  # grid lines are most of a repaint (the axis draws them)
        plot.setDownsampling(auto=True, mode="peak")  # auto: without it pyqtgraph draws every point
        plot.setClipToView(True)
        plot.setMinimumHeight(180)
        wheel_scrolls_page(plot)
        return plot

    def _panel(self, title: str, legend: list[tuple[str, str, str]], plot: pg.PlotWidget) -> QWidget:
        """Title and legend above the plot, never over the curves."""
        panel = QWidget(self)
        heading = QLabel(title, panel, wordWrap=True)  # a narrow pane wraps it instead of overflowing
        font = heading.font()
        font.setBold(True)
        heading.setFont(font)
        heading.setWordWrap(True)  # a long title wraps: it must not widen the pane past a 1280-px window
        # one entry never breaks inside: Chinese breaks between any two characters ("lr1（权 / 重）"), so the
        # entry's characters are glued with WORD JOINER (U+2060, "no break here" in Unicode's line-breaking rules)
        key = QLabel("&nbsp;&nbsp; ".join(f"<span style='color:{colour}'>{glyph}</span>&nbsp;{_unbroken(words)}"
                                          for glyph, colour, words in legend), panel)
        key.setTextFormat(Qt.TextFormat.RichText)
        key.setWordWrap(True)
        layout = QVBoxLayout(panel)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(heading)
        layout.addWidget(key)
        layout.addWidget(plot, 1)
        return panel

    # -- data ---------------------------------------------------------------------------------------
    def add_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "batch":
            count = int(event.get("count") or 0)
            if count <= 0:
                return
            x = int(event.get("epoch", 0)) + (int(event.get("index", 0)) + 1) / count
            for key, value in (event.get("losses") or {}).items():
                y = _number(value)
                if y is not None and f"train/{key}" in self.series:
                    self.series[f"train/{key}"].put(x, y)
                    self._redraw.mark("loss")
        elif kind == "epoch_end":
            metrics = event.get("metrics") or {}
            x = int(event.get("epoch", 0)) + 1.0
            targets = {f"val/{k}": f"val/{k}_loss" for k in LOSS_COLOURS} | METRIC_KEYS | LR_KEYS
            for name, key in targets.items():
                y = _number(metrics.get(key))
                if y is not None:
                    self.series[name].put(x, y)
                    self._redraw.mark(self._plot_of[name])

    def clear(self) -> None:
        for series in self.series.values():
            series.clear()
        for plot in (self.loss_plot, self.metric_plot, self.lr_plot):
            unzoom(plot)  # every run starts unzoomed
        self._redraw.mark(*self._redraw.plots)
        self.refresh()

    def refresh(self) -> None:
        """Draw every change now (the timer otherwise draws one plot per tick)."""
        self._redraw.flush()

    def _push(self, plot: str) -> None:
        for name, curve in self._curves.items():
            if self._plot_of[name] == plot:
                curve.setData(*self.series[name].view())

    # -- theme --------------------------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_palette()
        super().changeEvent(event)

    def _apply_palette(self) -> None:
        apply_palette(self.palette(), (self.loss_plot, self.metric_plot, self.lr_plot))


def apply_palette(palette: QPalette, plots: Any) -> None:
    """Plots follow the window's light/dark palette (pyqtgraph's own defaults are fixed colours)."""
    background = palette.color(QPalette.ColorRole.Base)
    foreground = palette.color(QPalette.ColorRole.Text)
    for plot in plots:
        plot.setBackground(background)
        item = plot.getPlotItem()
        for axis in ("left", "bottom"):
            item.getAxis(axis).setPen(foreground)
            item.getAxis(axis).setTextPen(foreground)
