"""Dataset statistics: objects per class and split (bar chart), box area, box aspect and image size
histograms, and the figures behind them in words.

Computed by the validator (``Report.stats``, histograms included, in ``core.dataset.stats``); this widget
only draws them, so showing a report never does work proportional to the dataset on the GUI thread.
"""

from __future__ import annotations

from html import escape
from typing import Any

import numpy as np
from gui.plotting import pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSplitter, QVBoxLayout, QWidget

SPLIT_COLOURS = {"train": "#2f7fd1", "val": "#d98c00", "test": "#2e9d57"}
HISTOGRAM_COLOUR = "#6f6fbf"
SIDE_TICKS = {0, 64, 256, 640, 1280, 4096}  # of the image-side bins' edges, the ones labelled


def _power_ticks(edges: list[float], base: float, fmt: str) -> list[tuple[float, str]]:
    """Ticks at whole powers on a log-scale x axis, labelled with the real values."""
    return [(e, fmt.format(base ** e)) for e in edges if float(e).is_integer()]


class Histogram(pg.PlotWidget):
    """One fixed-bin histogram from ``{"edges", "counts"}``; bars are drawn by bin index when the bins are
    uneven (image sides), else at their edges."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setBackground(None)
        self.setTitle(title, size="9pt")
        self.setMouseEnabled(x=False, y=False)
        self.hideButtons()
        self.getAxis("left").setWidth(36)
        self.setMinimumHeight(120)

    def show_histogram(self, data: dict[str, Any], ticks: list[tuple[float, str]] | None = None,
                       by_index: bool = False) -> None:
        self.clear()
        edges, counts = data.get("edges", []), data.get("counts", [])
        if len(edges) != len(counts) + 1 or not counts:
            return
        x0 = np.arange(len(counts), dtype=float) if by_index else np.array(edges[:-1], dtype=float)
        x1 = x0 + 1 if by_index else np.array(edges[1:], dtype=float)
        self.addItem(pg.BarGraphItem(x0=x0, x1=x1, height=np.array(counts, dtype=float), brush=HISTOGRAM_COLOUR,
                                     pen=None))
        if ticks is not None:
            self.getAxis("bottom").setTicks([ticks])


class DatasetStats(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = pg.PlotWidget(self)
        self.plot.setBackground(None)
        self.plot.setLabel("left", self.tr("objects"))
        self.plot.showGrid(y=True, alpha=0.3)
        self.plot.addLegend(offset=(-10, 10))
        self.plot.setMouseEnabled(x=True, y=False)
        self.text = QLabel(self.tr("Statistics appear after a check."), self)
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.box_area = Histogram(self.tr("Box area (fraction of the image)"), self)
        self.box_aspect = Histogram(self.tr("Box aspect (width / height)"), self)
        self.image_side = Histogram(self.tr("Image size (longer side, px)"), self)
        histograms = QWidget(self)
        row = QHBoxLayout(histograms)
        row.setContentsMargins(0, 0, 0, 0)
        for plot in (self.box_area, self.box_aspect, self.image_side):
            row.addWidget(plot)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.plot)
        split.addWidget(histograms)
        split.addWidget(self.text)
        for index, stretch in enumerate((3, 2, 1)):
            split.setStretchFactor(index, stretch)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)

    def show_stats(self, stats: dict[str, Any]) -> None:
        self.plot.clear()
        names: list[str] = stats.get("classes", [])
        splits: dict[str, Any] = stats.get("splits", {})
        n = max(1, len(splits))
        width = 0.8 / n
        x = np.arange(len(names), dtype=float)
        for index, (split, info) in enumerate(splits.items()):
            counts = np.array(info.get("per_class", []), dtype=float)
            if len(counts) != len(names):
                continue
            bars = pg.BarGraphItem(x=x - 0.4 + width * (index + 0.5), height=counts, width=width,
                                   brush=SPLIT_COLOURS.get(split, "#888888"), name=split)
            self.plot.addItem(bars)
        self._names = names
        self._label_classes()
        self._show_histograms(stats.get("histograms") or {})
        self.text.setText(self._summary(stats))

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._label_classes()

    def _label_classes(self) -> None:
        """Every k-th class name under the bars, k chosen so that the names never run together at this width."""
        names = getattr(self, "_names", [])
        if not names:
            return
        metrics = self.plot.fontMetrics()
        per_label = max(metrics.horizontalAdvance(name) for name in names) + 10
        room = max(self.plot.width() - 60, per_label)  # minus the left axis
        step = max(1, -(-len(names) * per_label // room))
        self.class_step = step
        self.plot.getAxis("bottom").setTicks([[(i, names[i]) for i in range(0, len(names), step)]])

    def _show_histograms(self, histograms: dict[str, Any]) -> None:
        area = histograms.get("box_area_log10", {})
        self.box_area.show_histogram(area, _power_ticks(area.get("edges", []), 10, "{:g}"))
        aspect = histograms.get("box_aspect_log2", {})
        self.box_aspect.show_histogram(aspect, _power_ticks(aspect.get("edges", []), 2, "{:.3g}"))
        side = histograms.get("image_side_px", {})
        edges = side.get("edges", [])
        ticks = [(i, f"{e / 1024:g}k" if e >= 1024 else f"{int(e)}") for i, e in enumerate(edges[:-1])
                 if e in SIDE_TICKS]  # at the left edge of a bar
        self.image_side.show_histogram(side, ticks, by_index=True)

    def _summary(self, stats: dict[str, Any]) -> str:
        names = stats.get("classes", [])
        rows = []
        for split, info in stats.get("splits", {}).items():
            rows.append(self.tr("<b>{split}</b>: {images} images, {objects} objects, {bg} without objects").format(
                split=escape(split), images=info["images"], objects=info["instances"], bg=info["backgrounds"]))
        train = stats.get("splits", {}).get("train")
        if train:
            empty = [escape(n) for n, c in zip(names, train.get("per_class", [])) if c == 0]
            rows.append(self.tr("Classes with no objects in train: {names}").format(
                names=", ".join(empty) if empty else self.tr("none")))
        area = stats.get("box_area") or {}
        if area:
            rows.append(self.tr("Box area (fraction of the image): median {median:.3g}, 10–90 % {p10:.3g}–{p90:.3g}")
                        .format(**area))
        aspect = stats.get("box_aspect") or {}
        if aspect:
            rows.append(self.tr("Box aspect (width / height): median {median:.3g}, 10–90 % {p10:.3g}–{p90:.3g}")
                        .format(**aspect))
        sizes = stats.get("image_sizes") or {}
        if sizes:
            rows.append(self.tr("Image sizes (px): {sizes}").format(
                sizes=", ".join(f"{escape(k)} × {v}" for k, v in list(sizes.items())[:6])))
        return "<br>".join(rows)
