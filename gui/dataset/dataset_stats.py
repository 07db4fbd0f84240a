"""Dataset statistics: objects per class and split (bar chart), box area, box aspect and image size
histograms, and the figures behind them in words.

Computed by the validator (``Report.stats``, histograms included, in ``core.dataset.stats``); this widget
only draws them, so showing a report never does work proportional to the dataset on the GUI thread.

Every label stays readable at 1280×720 (issue 25): each class bar carries its name, elided to the bar's
width (ids when even "W…" does not fit, thinned only then), recomputed whenever the plot's width changes —
a tab that was hidden when the report came had the width of a hidden widget; the image-size ticks are
kept only where they do not run into their neighbour; titles are word-wrapped labels above the plots,
not pyqtgraph titles that are cut at the plot's width; the splits' legend is a line of words above the
chart, so it never covers the last bars.
"""

from __future__ import annotations

from html import escape
from typing import Any

import numpy as np
from gui.plotting import pg
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSplitter, QVBoxLayout, QWidget

SPLIT_COLOURS = {"train": "#2f7fd1", "val": "#d98c00", "test": "#2e9d57"}
HISTOGRAM_COLOUR = "#6f6fbf"
SIDE_TICKS = (0, 64, 256, 640, 1280, 4096)  # of the image-side bins' edges, the ones labelled (when they fit)
LEFT_AXIS_PX = 60  # the class chart's left axis and margins
TICK_GAP_PX = 8  # at least this between two tick labels


def _power_ticks(edges: list[float], base: float, fmt: str) -> list[tuple[float, str]]:
    """Ticks at whole powers on a log-scale x axis, labelled with the real values."""
    return [(e, fmt.format(base ** e)) for e in edges if float(e).is_integer()]


class Histogram(pg.PlotWidget):
    """One fixed-bin histogram from ``{"edges", "counts"}``; bars are drawn by bin index when the bins are
    uneven (image sides), else at their edges."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setBackground(None)
        self.title = title  # shown by a word-wrapped label above the plot (``titled``)
        self.setMouseEnabled(x=False, y=False)
        self.hideButtons()
        self.getAxis("left").setWidth(36)
        self.setMinimumHeight(100)
        self._ticks: list[tuple[float, str]] = []
        self._span = (0.0, 1.0)  # the x range the bars cover

    def titled(self, parent: QWidget) -> QWidget:
        """The plot under its title, which wraps instead of being cut at a narrow plot's width."""
        box = QWidget(parent)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        label = QLabel(self.title, box)
        label.setWordWrap(True)
        label.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(label)
        layout.addWidget(self, 1)
        return box

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._fit_ticks()

    def _fit_ticks(self) -> None:
        """Keep a tick only where its label clears the one before it at this width."""
        if not self.__dict__.get("_ticks"):  # a resize during construction comes before the ticks
            return
        metrics = self.fontMetrics()
        low, high = self._span
        per_unit = max(1.0, self.width() - 46) / max(high - low, 1e-9)  # minus the left axis
        kept: list[tuple[float, str]] = []
        right = -1e9
        for x, text in self._ticks:
            half = metrics.horizontalAdvance(text) / 2
            centre = (x - low) * per_unit
            if centre - half >= right + TICK_GAP_PX:
                kept.append((x, text))
                right = centre + half
        self.getAxis("bottom").setTicks([kept])
        self.shown_ticks = kept

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
        self._ticks = list(ticks or [])
        self._span = (0.0, float(len(counts))) if by_index else (float(edges[0]), float(edges[-1]))
        self._fit_ticks()


class DatasetStats(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = pg.PlotWidget(self)
        self.plot.setBackground(None)
        self.plot.setLabel("left", self.tr("objects"))
        self.plot.showGrid(y=True, alpha=0.3)
        self.plot.setMouseEnabled(x=True, y=False)
        self.plot.installEventFilter(self)  # the names follow the plot's own width (a splitter moves it)
        self.legend = QLabel(self)
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self._names: list[str] = []
        self.class_step = 1
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
            row.addWidget(plot.titled(histograms))
        chart = QWidget(self)
        chart_layout = QVBoxLayout(chart)
        chart_layout.setContentsMargins(0, 0, 0, 0)
        chart_layout.setSpacing(0)
        chart_layout.addWidget(self.legend, 0, Qt.AlignmentFlag.AlignRight)
        chart_layout.addWidget(self.plot, 1)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(chart)
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
        legend = []
        for index, (split, info) in enumerate(splits.items()):
            counts = np.array(info.get("per_class", []), dtype=float)
            if len(counts) != len(names):
                continue
            colour = SPLIT_COLOURS.get(split, "#888888")
            bars = pg.BarGraphItem(x=x - 0.4 + width * (index + 0.5), height=counts, width=width,
                                   brush=colour, name=split)
            self.plot.addItem(bars)
            legend.append(f'<span style="color:{colour}">■</span> {escape(split)}')
        self.legend.setText("&nbsp;&nbsp;".join(legend))
        self._names = names
        self._label_classes()
        self._show_histograms(stats.get("histograms") or {})
        self.text.setText(self._summary(stats))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.plot and event.type() in (QEvent.Type.Resize, QEvent.Type.Show):
            self._label_classes()
        return super().eventFilter(watched, event)

    def _label_classes(self) -> None:
        """A name under every bar, elided to the bar's width; ids when no name fits, every k-th only when
        even the ids would run together at this width."""
        names = self._names
        if not names:
            return
        metrics = self.plot.fontMetrics()
        per_bar = max(1.0, (self.plot.width() - LEFT_AXIS_PX) / len(names)) - TICK_GAP_PX
        if per_bar >= metrics.horizontalAdvance("W…"):
            self.class_step = 1
            labels = [metrics.elidedText(name, Qt.TextElideMode.ElideRight, int(per_bar)) for name in names]
        else:
            widest = metrics.horizontalAdvance(str(len(names) - 1)) + TICK_GAP_PX
            self.class_step = max(1, -(-widest // int(per_bar + TICK_GAP_PX)))
            labels = [str(i) for i in range(len(names))]
        self.class_labels = {i: labels[i] for i in range(0, len(names), self.class_step)}
        self.plot.getAxis("bottom").setTicks([list(self.class_labels.items())])

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
