"""A chart of fitness by trial: each trial's best fitness so far (yolov5's own per-epoch fitness), in start order.

pyqtgraph (``gui.plotting``), imported when the chart is built, never at start-up. Trials that ended
``completed`` are filled, the others hollow, so the ones ASHA stopped early stand out.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QVBoxLayout, QWidget


#: The least height of the fitness axis: trials that all score about the same still get a readable scale.
MIN_SPAN = 0.02


def fitness_range(fitness: list[float]) -> tuple[float, float]:
    """The fitness axis for these values: around the data with a margin, never more than a sliver below 0
    (yolov5's fitness is a weighted sum of mAPs, 0..1) — pyqtgraph's own auto-range put a lone 0.0 in the middle
    of -0.4..0.4."""
    if not fitness:
        return 0.0, 1.0
    low, high = min(fitness), max(fitness)
    margin = max((high - low) * 0.1, MIN_SPAN / 2)
    top = high + margin
    return max(low - margin, -0.05 * top), top  # below 0 only a sliver: points on 0 are drawn whole


class FitnessChart(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from gui.plotting import WholeNumberAxis, pg

        self.plot = pg.PlotWidget(self, axisItems={"bottom": WholeNumberAxis("bottom")})  # trials: whole numbers
        self.plot.setLabel("bottom", self.tr("Trial"))
        self.plot.setLabel("left", self.tr("Fitness"))
        self.plot.showGrid(x=True, y=True, alpha=0.3)
        self.plot.getAxis("left").enableAutoSIPrefix(False)  # fitness is 0..1: "(x0.001)" would hide that
        self.points = pg.ScatterPlotItem(size=10)
        self.plot.addItem(self.points)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot)
        self.values: list[tuple[int, float, bool]] = []  # trial number (1-based), fitness, completed

    def show_trials(self, trials: list[dict[str, Any]]) -> None:
        """Draw each trial that has a fitness; ``trials`` in start order (the table's rows)."""
        from gui.plotting import pg

        self.values = [(number, float(t["fitness"]), t.get("state") == "completed")
                       for number, t in enumerate(trials, start=1) if t.get("fitness") is not None]
        spots = [{"pos": (n, f), "brush": pg.mkBrush(60, 130, 220) if done else pg.mkBrush(None),
                  "pen": pg.mkPen(60, 130, 220, width=2)} for n, f, done in self.values]
        self.points.setData(spots)
        if self.values:
            self.plot.setYRange(*fitness_range([f for _n, f, _d in self.values]), padding=0)
            self.plot.setXRange(0.5, max(n for n, _f, _d in self.values) + 0.5, padding=0)
