"""The system strip: what the machine did while the run trained, so a waiting GPU is visible, not guessed.

Five small plots over the run's time (minutes since its first event): GPU utilisation and memory per
GPU, CPU (the whole machine and the training process tree) and RAM, disk reads, the share of each
step window the GPU waited for data, and images/s. Every figure comes from protocol events (``system``
and ``batch``), so a live run, a re-attached run and a replayed one look the same. Same discipline as
``training_plots``: events append to doubling numpy buffers (``Series``), a timer pushes them to
pyqtgraph at ~5 Hz, one changed plot per tick (``StaggeredRedraw``), with peak downsampling and
clip-to-view.
"""

from __future__ import annotations

from html import escape
from typing import Any

from gui.plotting import pg
from gui.widgets.plot_wheel import unzoom, wheel_scrolls_page
from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from gui.widgets.training_plots import PEN_WIDTH, Series, StaggeredRedraw, _number, apply_palette

REFRESH_MS = 200
GPU_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf")
CPU_COLOURS = {"cpu": "#1f77b4", "proc": "#ff7f0e", "ram": "#2ca02c"}
WAIT_COLOUR, IPS_COLOUR, DISK_COLOUR = "#d62728", "#9467bd", "#8c564b"
PLOTS = ("gpu", "cpu", "disk", "wait", "ips")
#: The narrowest a panel gets before the strip wraps into another row: its readings stay whole on their lines (at
#: 1280x720 with the guide open the strip is ~630 px wide: three panels a row, 210 px each, instead of five of 120).
PANEL_MIN_W = 190
#: The time axis (minutes) a run starts with, before its first sample.
FIRST_AXIS_MIN = 1.0
ZERO_BASED = ("disk", "ips")  # rates: the axis starts at 0 (autorange put a flat 13 images/s between -50 and 75)


class SparseAxis(pg.AxisItem):
    """A bottom axis that labels every k-th tick when the labels would touch: pyqtgraph always labels at least
    its top tick level, which in a strip plot ~100 px wide read "0.20.40.6" at the default window size."""

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:  # noqa: N802
        strings = super().tickStrings(values, scale, spacing)
        if not strings:
            return strings
        char = self.fontMetrics().horizontalAdvance("0") if hasattr(self, "fontMetrics") else 7
        needed = sum(len(text) + 2 for text in strings) * char
        room = max(1.0, self.geometry().width())
        step = 1
        while needed / step > room and step < len(strings):
            step += 1
        return [text if index % step == 0 else "" for index, text in enumerate(strings)]


class SystemPlots(QWidget):
    """Fed every protocol event by the Train page (``add_event``); draws itself on a timer."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.series: dict[str, Series] = {name: Series() for name in (
            "cpu", "proc", "ram", "disk", "wait", "ips")}  # per-GPU series are added as GPUs appear
        self.gpu_indices: list[int] = []
        self._t0: float | None = None
        self._latest: dict[str, Any] = {}  # the newest readings, for the headings
        self._curves: dict[str, pg.PlotDataItem] = {}
        self.plots: dict[str, pg.PlotWidget] = {}
        self.headings: dict[str, QLabel] = {}
        units = {"gpu": self.tr("%"), "cpu": self.tr("%"), "disk": self.tr("MB/s"), "wait": self.tr("%"),
                 "ips": self.tr("images/s")}
        self._grid = grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(8)
        self._panels = [self._panel(name, units[name]) for name in PLOTS]
        self._columns = 0
        self._reflow(len(PLOTS))
        pen = pg.mkPen
        self._curves["cpu"] = self.plots["cpu"].plot(pen=pen(CPU_COLOURS["cpu"], width=PEN_WIDTH))
        self._curves["proc"] = self.plots["cpu"].plot(pen=pen(CPU_COLOURS["proc"], width=PEN_WIDTH))
        self._curves["ram"] = self.plots["cpu"].plot(
            pen=pen(CPU_COLOURS["ram"], width=PEN_WIDTH, style=Qt.PenStyle.DashLine))
        self._curves["disk"] = self.plots["disk"].plot(pen=pen(DISK_COLOUR, width=PEN_WIDTH))
        self._curves["wait"] = self.plots["wait"].plot(pen=pen(WAIT_COLOUR, width=PEN_WIDTH))
        self._curves["ips"] = self.plots["ips"].plot(pen=pen(IPS_COLOUR, width=PEN_WIDTH))
        for name in ("gpu", "cpu", "wait"):
            self.plots[name].setYRange(0, 100, padding=0.02)
            self.plots[name].getPlotItem().getViewBox().setLimits(yMin=0, yMax=105)
        for name in ZERO_BASED:
            self.plots[name].setYRange(0, 1, padding=0)
            self.plots[name].getPlotItem().getViewBox().setLimits(yMin=0)
        self._apply_palette()
        for key, text in self._heading_texts().items():
            self.headings[key].setText(text)
        self._redraw = StaggeredRedraw(self, REFRESH_MS, list(PLOTS), self._push)

    def _panel(self, name: str, unit: str) -> QWidget:
        """A heading that is also the legend (each reading's words beside its curve's glyph), over the plot."""
        panel = QWidget(self)
        heading = QLabel(panel, wordWrap=True)
        heading.setTextFormat(Qt.TextFormat.RichText)
        # Fixed size: changing readings must not re-layout the strip (that repaints every plot); the height
        # changes only when the number of lines does (``_fit_headings``), one reading a line.
        heading.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        heading.setFixedHeight(2 * heading.fontMetrics().lineSpacing() + 2)
        heading.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        plot = pg.PlotWidget(panel, axisItems={"bottom": SparseAxis(orientation="bottom")})
        plot.setLabel("left", unit)
        plot.setLabel("bottom", self.tr("minutes"))
        for axis in ("left", "bottom"):
            plot.getAxis(axis).enableAutoSIPrefix(False)
            plot.getAxis(axis).setTickDensity(0.6)  # small plots: fewer, readable tick labels
        plot.getAxis("bottom").setStyle(maxTickLevel=0)  # major ticks only: "0.20.40.6" ran together
        # No grid: in a strip of small plots, grid lines are most of each repaint (measured ~5 ms a plot).
        plot.setDownsampling(auto=True, mode="peak")  # auto: without it pyqtgraph draws every point
        plot.setClipToView(True)
        plot.setMinimumHeight(90)
        plot.setMouseEnabled(x=True, y=False)
        wheel_scrolls_page(plot)
        layout = QVBoxLayout(panel)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(1)
        layout.addWidget(heading)
        layout.addWidget(plot, 1)
        self.plots[name], self.headings[name] = plot, heading
        return panel

    @staticmethod
    def _item(colour: str, glyph: str, text: str) -> str:
        """One legend entry: the curve's glyph in its colour, then the words (never colour alone)."""
        return f"<span style='color:{colour}'>{glyph}</span>&nbsp;{escape(text)}"

    # -- layout: whole readings at any width ------------------------------------------------------------
    def _reflow(self, columns: int) -> None:
        """Lay the panels out ``columns`` a row (five at full width; fewer rows of wider panels when narrow)."""
        if columns == self._columns:
            return
        self._columns = columns
        for panel in self._panels:
            self._grid.removeWidget(panel)
        for column in range(len(PLOTS)):
            self._grid.setColumnStretch(column, 1 if column < columns else 0)
        for index, panel in enumerate(self._panels):
            self._grid.addWidget(panel, index // columns, index % columns)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._reflow(max(1, min(len(PLOTS), event.size().width() // PANEL_MIN_W)))
        QTimer.singleShot(0, self, self._fit_headings)  # once the panels have their new widths

    def _fit_headings(self) -> None:
        """Every heading as tall as the tallest needs at its width: no reading cut (one height keeps the plots
        of a row aligned). Unchanged while the line counts are, so new readings never re-layout the strip."""
        columns, spacing = max(1, self._columns), self._grid.horizontalSpacing()
        width = max(1, (self.width() - (columns - 1) * spacing) // columns)  # each panel's (the grid's share)
        needed = max(self._text_height(heading, width) for heading in self.headings.values()) + 2
        for heading in self.headings.values():
            if heading.height() != needed:
                heading.setFixedHeight(needed)

    @staticmethod
    def _text_height(heading: QLabel, width: int) -> int:
        """The height ``heading``'s text needs at ``width`` (QLabel's own answer never goes below its fixed
        height, so it is asked with that lifted)."""
        fixed = heading.minimumHeight(), heading.maximumHeight()
        heading.setMinimumHeight(0)
        try:
            return heading.heightForWidth(width)
        finally:
            heading.setMinimumHeight(fixed[0])
            heading.setMaximumHeight(fixed[1])

    # -- data ---------------------------------------------------------------------------------------
    def _minutes(self, event: dict[str, Any]) -> float | None:
        t = _number(event.get("t"))
        if t is None:
            return None
        if self._t0 is None:
            self._t0 = t
        return (t - self._t0) / 60.0

    def add_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "system":
            self._add_system(event)
        elif kind == "batch" and not event.get("warmup"):
            self._add_batch(event)
        elif kind == "stage" and event.get("stage") == "starting" and self._t0 is None:
            self._minutes(event)  # time zero is the worker's start
        elif kind == "hello" and event.get("device_type"):
            self._latest["device_type"] = event.get("device_type")  # who waits for data: the GPU, or the CPU

    def _add_system(self, event: dict[str, Any]) -> None:
        x = self._minutes(event)
        if x is None:
            return
        cpu, count = _number(event.get("cpu_percent")), _number(event.get("cpu_count"))
        proc = _number(event.get("proc_cpu_percent"))
        used, total = _number(event.get("ram_used_gb")), _number(event.get("ram_total_gb"))
        disk = _number(event.get("disk_read_mb_s"))
        if cpu is not None:
            self.series["cpu"].append(x, cpu)
        if proc is not None and count:
            self.series["proc"].append(x, proc / count)  # 100 = every core busy, like the total
        if used is not None and total:
            self.series["ram"].append(x, 100.0 * used / total)
        if disk is not None:
            self.series["disk"].append(x, disk)
        for gpu in event.get("gpus") or []:
            self._add_gpu(x, gpu)
        self._latest["system"] = event
        self._redraw.mark("gpu", "cpu", "disk")

    def _add_gpu(self, x: float, gpu: dict[str, Any]) -> None:
        index = gpu.get("index")
        if not isinstance(index, int):
            return
        if index not in self.gpu_indices:
            self._new_gpu(index)
        util = _number(gpu.get("util_percent"))
        used, total = _number(gpu.get("mem_used_gb")), _number(gpu.get("mem_total_gb"))
        if util is not None:
            self.series[f"gpu{index}/util"].append(x, util)
        if used is not None and total:
            self.series[f"gpu{index}/mem"].append(x, 100.0 * used / total)

    def _new_gpu(self, index: int) -> None:
        self.gpu_indices.append(index)
        self.gpu_indices.sort()
        colour = GPU_COLOURS[index % len(GPU_COLOURS)]
        for part, style in (("util", Qt.PenStyle.SolidLine), ("mem", Qt.PenStyle.DashLine)):
            self.series[f"gpu{index}/{part}"] = Series()
            pen = pg.mkPen(colour, width=PEN_WIDTH, style=style)
            self._curves[f"gpu{index}/{part}"] = self.plots["gpu"].plot(pen=pen)

    def _add_batch(self, event: dict[str, Any]) -> None:
        x = self._minutes(event)
        window = event.get("window") or {}
        share, ips = _number(window.get("data_wait_share")), _number(window.get("images_per_s"))
        if x is None:
            return
        if share is not None:
            self.series["wait"].append(x, 100.0 * share)
        if ips is not None:
            self.series["ips"].append(x, ips)
        self._redraw.mark("wait", "ips")

    def clear(self) -> None:
        for series in self.series.values():
            series.clear()
        for plot in self.plots.values():
            # A new run's time axis starts at 0: with no data pyqtgraph's auto-range keeps the last run's minutes
            # (issue 32) until the first sample, so the axis is set first and auto-range resumes from there.
            plot.setXRange(0.0, FIRST_AXIS_MIN, padding=0)
            unzoom(plot)  # every run starts unzoomed
        self._t0 = None
        self._latest.clear()
        self._redraw.mark(*PLOTS)
        self.refresh()

    def refresh(self) -> None:
        """Draw every change now (the timer otherwise draws one plot per tick)."""
        self._redraw.flush()

    def _push(self, plot: str) -> None:
        for name, curve in self._curves.items():
            if self._plot_of(name) == plot:
                curve.setData(*self.series[name].view())
        if plot in ZERO_BASED:  # from 0 to a little above the highest reading
            top = max((float(y.max()) for name in self._curves if self._plot_of(name) == plot
                       for _x, y in [self.series[name].view()] if y.size), default=0.0)
            self.plots[plot].setYRange(0, top * 1.1 if top > 0 else 1.0, padding=0)
        heading = self.headings[plot]
        lines = heading.text().count("<br>")
        heading.setText(self._heading_texts()[plot])
        if heading.text().count("<br>") != lines:
            self._fit_headings()  # a GPU appeared: one more line

    @staticmethod
    def _plot_of(curve: str) -> str:
        if curve.startswith("gpu"):
            return "gpu"
        return "cpu" if curve in ("cpu", "proc", "ram") else curve

    @property
    def nbytes(self) -> int:
        """Memory held by the plot buffers (for the live-view benchmark)."""
        return sum(series.nbytes for series in self.series.values())

    # -- headings: the newest reading, in words and units -------------------------------------------
    def _heading_texts(self) -> dict[str, str]:
        """The newest readings, in words and units; each entry doubles as its curve's legend."""
        system = self._latest.get("system") or {}
        gpus = {g.get("index"): g for g in system.get("gpus") or [] if isinstance(g, dict)}
        item = self._item
        if self.gpu_indices:
            parts = [item(GPU_COLOURS[i % len(GPU_COLOURS)], "━", self.tr("GPU {index} {util}").format(
                index=i, util=self._pct(_number((gpus.get(i) or {}).get("util_percent"))))) for i in self.gpu_indices]
            used = sum(_number(g.get("mem_used_gb")) or 0.0 for g in gpus.values())
            total = sum(_number(g.get("mem_total_gb")) or 0.0 for g in gpus.values())
            parts.append(item("gray", "╍", self.tr("memory {used}/{total} GB").format(
                used=self._num(used, 1), total=self._num(total, 0))))
            gpu_text = "<br>".join(parts)  # one reading a line: never broken in the middle
        elif self._latest.get("device_type") == "cpu":
            gpu_text = "<br>".join((escape(self.tr("GPU: none used")), escape(self.tr("(training runs on the CPU)"))))
        else:
            gpu_text = "<br>".join((escape(self.tr("GPU: no readings")), escape(self.tr("(NVML unavailable)"))))
        count = _number(system.get("cpu_count"))
        proc = _number(system.get("proc_cpu_percent"))
        used, total = _number(system.get("ram_used_gb")), _number(system.get("ram_total_gb"))
        cpu = _number(system.get("cpu_percent"))
        return {
            "gpu": gpu_text,
            "cpu": "<br>".join((
                item(CPU_COLOURS["cpu"], "━", self.tr("CPU {cpu}").format(cpu=self._pct(cpu))),
                item(CPU_COLOURS["proc"], "━", self.tr("training {proc}").format(
                    proc=self._pct(proc / count if proc is not None and count else None))),
                item(CPU_COLOURS["ram"], "╍", self.tr("RAM {used}/{total} GB").format(
                    used=self._num(used, 1), total=self._num(total, 0))))),
            "disk": item(DISK_COLOUR, "━", self.tr("Disk read {rate} MB/s").format(
                rate=self._num(_number(system.get("disk_read_mb_s")), 1))),
            "wait": item(WAIT_COLOUR, "━", self._wait_words(self.series["wait"].last())),
            "ips": item(IPS_COLOUR, "━", self.tr("Throughput {rate} images/s").format(
                rate=self._num(self.series["ips"].last(), 1))),
        }

    def _wait_words(self, share: float | None) -> str:
        """The data-wait reading as a sentence; before the first reading, a sentence that says so (not a dash
        where the figure goes)."""
        if share is None:
            return self.tr("Waiting for data: not measured yet")
        device = self._latest.get("device_type")
        if device == "cpu":
            words = self.tr("The model (on the CPU) waited for data {share} of the time")
        elif device == "cuda":
            words = self.tr("GPU waited for data {share} of the time")
        else:
            words = self.tr("Training waited for data {share} of the time")
        return words.format(share=self._pct(share))

    @staticmethod
    def _pct(value: float | None) -> str:
        return "—" if value is None else f"{value:.0f} %"

    @staticmethod
    def _num(value: float | None, digits: int) -> str:
        return "—" if value is None else f"{value:.{digits}f}"

    # -- theme --------------------------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_palette()
        super().changeEvent(event)

    def _apply_palette(self) -> None:
        apply_palette(self.palette(), self.plots.values())
