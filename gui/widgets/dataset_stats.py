"""Dataset statistics: objects per class and split (bar chart), and the figures behind them in words.

Computed by the validator (``Report.stats`` and its image records); this widget only draws them.
"""

from __future__ import annotations

from html import escape
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

SPLIT_COLOURS = {"train": "#2f7fd1", "val": "#d98c00", "test": "#2e9d57"}


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
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.plot)
        split.addWidget(self.text)
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
        shown = names if len(names) <= 40 else names[:: max(1, len(names) // 40)]
        step = 1 if len(names) <= 40 else max(1, len(names) // 40)
        self.plot.getAxis("bottom").setTicks([[(i * step, name) for i, name in enumerate(shown)]])
        self.text.setText(self._summary(stats))

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
