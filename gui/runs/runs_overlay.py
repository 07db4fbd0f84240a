"""Compare runs: a table of what differs and their figures (``gui/runs/runs_compare_table.py``, rows from
``core.run_compare``, read in a background job), and their mAP@0.5 and box loss per epoch, overlaid, one
colour per run.

The curves are read from each run's ``events.jsonl`` (``epoch_end`` metrics) by an operation
(``gui/runs/operations.py``) — a long run's file can be megabytes. A resumed run that redid an epoch keeps
that epoch's last value.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from gui.plotting import WholeNumberAxis, pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from core.runs.store import RunInfo
from gui.runs.operations import Curves, compare_runs, read_all_curves
from gui.runs.runs_compare_table import CompareTable
from gui.widgets.training_plots import PEN_WIDTH
from gui.screen_fit import fit_to_screen

COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22")


class RunsOverlayDialog(QDialog):
    def __init__(self, run_dirs: list[Path], parent: QWidget | None = None, *,
                 runs: list[RunInfo] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Compare runs"))
        fit_to_screen(self, 1100, 760 if runs else 480)
        self.curves: dict[str, Curves] | None = None
        self.run_names = [Path(d).name for d in run_dirs]
        self.status_label = QLabel(self.tr("Reading the runs' events…"), self)
        self.key_label = QLabel(self, wordWrap=True)
        self.key_label.setTextFormat(Qt.TextFormat.RichText)
        self.map_plot = self._plot(self.tr("mAP@0.5 (0–1)"))
        self.loss_plot = self._plot(self.tr("Box loss (yolov5 units)"))
        plots = QHBoxLayout()
        plots.addWidget(self._panel(self.tr("mAP@0.5 per epoch"), self.map_plot))
        plots.addWidget(self._panel(self.tr("Box loss per epoch: train ━━, val ╍╍"), self.loss_plot))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.status_label)
        layout.addWidget(self.key_label)
        self.table = CompareTable(self)
        self.table.setVisible(bool(runs))
        layout.addWidget(self.table, 1)
        layout.addLayout(plots, 1)
        layout.addWidget(buttons)
        self.compared: list[tuple[str, list[str]]] | None = None
        if runs:
            names = [run.name for run in runs]
            self._table_task = compare_runs(self, list(runs)).success(
                lambda rows: self._on_compared(names, rows)).failure(self._on_failed).run()
        self._task = read_all_curves(self, list(run_dirs)).success(self._on_loaded).failure(self._on_failed).run()

    def _plot(self, label: str) -> pg.PlotWidget:
        plot = pg.PlotWidget(self, axisItems={"bottom": WholeNumberAxis("bottom")})  # epochs: no "1.5"
        plot.setLabel("bottom", self.tr("Epoch"))
        plot.setLabel("left", label)
        for axis in ("left", "bottom"):
            plot.getAxis(axis).enableAutoSIPrefix(False)
        plot.showGrid(x=True, y=True, alpha=0.2)
        plot.setDownsampling(auto=True, mode="peak")  # auto: without it pyqtgraph draws every point
        plot.setClipToView(True)
        plot.setBackground(self.palette().color(QPalette.ColorRole.Base))
        foreground = self.palette().color(QPalette.ColorRole.Text)
        for axis in ("left", "bottom"):
            plot.getAxis(axis).setPen(foreground)
            plot.getAxis(axis).setTextPen(foreground)
        return plot

    def _panel(self, title: str, plot: pg.PlotWidget) -> QWidget:
        panel = QWidget(self)
        heading = QLabel(title, panel)
        font = heading.font()
        font.setBold(True)
        heading.setFont(font)
        layout = QVBoxLayout(panel)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(heading)
        layout.addWidget(plot, 1)
        return panel

    def done(self, result: int) -> None:  # noqa: D102 - closing cancels a read still running
        self._task.cancel()
        super().done(result)

    def _on_loaded(self, curves: dict[str, Curves]) -> None:
        self.curves = curves
        keys = []
        for i, (name, run) in enumerate(curves.items()):
            colour = COLOURS[i % len(COLOURS)]
            symbol = {"symbol": "o", "symbolSize": 5, "symbolBrush": colour, "symbolPen": None}
            self.map_plot.plot(*run["map50"], pen=pg.mkPen(colour, width=PEN_WIDTH), **symbol)
            self.loss_plot.plot(*run["train_box"], pen=pg.mkPen(colour, width=PEN_WIDTH), **symbol)
            dashed = pg.mkPen(colour, width=PEN_WIDTH, style=Qt.PenStyle.DashLine)
            self.loss_plot.plot(*run["val_box"], pen=dashed, **symbol)
            keys.append(f"<span style='color:{colour}'>━━</span>&nbsp;{escape(name)}")
        self.key_label.setText("&nbsp;&nbsp; ".join(keys))
        empty = [name for name, run in curves.items() if not run["map50"][0]]
        self.status_label.setText(
            self.tr("No finished epoch yet in: {names}").format(names=", ".join(empty)) if empty else
            self.tr("{count} runs, per epoch.").format(count=len(curves)))

    def _on_compared(self, names: list[str], rows: list[tuple[str, list[str]]]) -> None:
        self.compared = rows
        self.table.set_rows(names, rows)

    def _on_failed(self, exc: BaseException) -> None:
        self.status_label.setText(self.tr("Could not read the runs: {reason}").format(reason=exc))
