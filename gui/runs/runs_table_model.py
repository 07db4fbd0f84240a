"""The Runs page's table model: one row per ``core.runs.store.RunInfo``, formatted with units, sortable by value.

Display text carries units ("41 %", "12.3 images/s", "4 min 05 s"); ``SORT_ROLE`` gives the raw value,
so sorting by a column sorts numbers as numbers and missing figures last. Status is icon + words.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QStyle

from core.display_text import escape_controls
from core.run.progress import format_duration
from core.run.words import status_title
from core.runs.store import RunInfo
from gui.run_text import date_time_text

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
RUN_ROLE = Qt.ItemDataRole.UserRole + 2

COLUMNS: tuple[tuple[str, str], ...] = (  # key, header (source text, translated in "RunsTableModel")
    ("name", QT_TRANSLATE_NOOP("RunsTableModel", "Name")),
    ("dataset", QT_TRANSLATE_NOOP("RunsTableModel", "Dataset")),
    ("model", QT_TRANSLATE_NOOP("RunsTableModel", "Model")),
    ("topology", QT_TRANSLATE_NOOP("RunsTableModel", "Processes")),
    ("status", QT_TRANSLATE_NOOP("RunsTableModel", "Status")),
    ("epochs", QT_TRANSLATE_NOOP("RunsTableModel", "Epochs")),
    ("map50", QT_TRANSLATE_NOOP("RunsTableModel", "Best mAP@0.5")),
    ("map50_95", QT_TRANSLATE_NOOP("RunsTableModel", "Best mAP@0.5:0.95")),
    ("ips", QT_TRANSLATE_NOOP("RunsTableModel", "Images/s")),
    ("gpu", QT_TRANSLATE_NOOP("RunsTableModel", "GPU busy")),
    ("wait", QT_TRANSLATE_NOOP("RunsTableModel", "Data wait")),
    ("duration", QT_TRANSLATE_NOOP("RunsTableModel", "Duration")),
    ("started", QT_TRANSLATE_NOOP("RunsTableModel", "Started")),
)
COLUMN = {key: i for i, (key, _) in enumerate(COLUMNS)}
HEADER_TIPS = {
    "ips": QT_TRANSLATE_NOOP("RunsTableModel", "Training throughput over the whole run (validation excluded)"),
    "topology": QT_TRANSLATE_NOOP("RunsTableModel", "Training processes per machine × machines (DDP ranks); 1 is "
                                                    "one worker process"),
    "gpu": QT_TRANSLATE_NOOP("RunsTableModel", "Mean GPU utilisation while training (NVML)"),
    "wait": QT_TRANSLATE_NOOP("RunsTableModel", "Share of step time training waited for the data loader"),
    "duration": QT_TRANSLATE_NOOP("RunsTableModel", "Wall time of every worker start, summed (h:mm:ss)"),
}
NUMERIC = {"epochs", "map50", "map50_95", "ips", "gpu", "wait", "duration"}

_STATUS_ICONS = {  # the words are core.run.words' (one vocabulary with the CLI)
    "running": QStyle.StandardPixmap.SP_MediaPlay,
    "completed": QStyle.StandardPixmap.SP_DialogApplyButton,
    "stopped": QStyle.StandardPixmap.SP_MediaPause,
    "failed": QStyle.StandardPixmap.SP_MessageBoxCritical,
    # its files could not be read (``RunInfo.error`` says which and why): listed, never resumable
    "unreadable": QStyle.StandardPixmap.SP_MessageBoxWarning,
}


def _tr(text: str) -> str:
    return QCoreApplication.translate("RunsTableModel", text)


def _short_path(text: str) -> str:
    """``…/coco8/data.yaml`` → ``coco8``: the dataset's folder says more than ``data.yaml``."""
    if not text:
        return "—"
    path = Path(text)
    return path.parent.name or path.name if path.suffix in (".yaml", ".yml") else path.name


def _model_name(text: str) -> str:
    return Path(text).name if text else "—"


class RunsTableModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.runs: list[RunInfo] = []

    def tick(self) -> bool:
        """A second passed: the Duration of a running run moves (True when some row changed)."""
        column = next(i for i, (key, _title) in enumerate(COLUMNS) if key == "duration")
        rows = [row for row, run in enumerate(self.runs) if run.status == "running"]
        for row in rows:
            index = self.index(row, column)
            self.dataChanged.emit(index, index)
        return bool(rows)

    def set_runs(self, runs: list[RunInfo]) -> None:
        self.beginResetModel()
        self.runs = list(runs)
        self.endResetModel()

    def run_at(self, row: int) -> RunInfo | None:
        return self.runs[row] if 0 <= row < len(self.runs) else None

    # -- Qt model -----------------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.runs)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return _tr(COLUMNS[section][1])
        if role == Qt.ItemDataRole.TextAlignmentRole and COLUMNS[section][0] in NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and COLUMNS[section][0] in HEADER_TIPS:
            return _tr(HEADER_TIPS[COLUMNS[section][0]])
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        run = self.run_at(index.row()) if index.isValid() else None
        if run is None:
            return None
        key = COLUMNS[index.column()][0]
        if role == Qt.ItemDataRole.DisplayRole:
            return escape_controls(self.display(run, key))  # a run folder's name is anyone's text
        if role == SORT_ROLE:
            return self.sort_value(run, key)
        if role == RUN_ROLE:
            return run
        if role == Qt.ItemDataRole.DecorationRole and key == "status":
            icon = _STATUS_ICONS.get(run.status, QStyle.StandardPixmap.SP_MessageBoxQuestion)
            return QApplication.style().standardIcon(icon) if QApplication.instance() else QIcon()
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = self.tooltip(run, key)
            return None if tip is None else escape_controls(tip)
        if role == Qt.ItemDataRole.TextAlignmentRole and key in NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    # -- formatting ---------------------------------------------------------------------------------
    @staticmethod
    def display(run: RunInfo, key: str) -> str:
        dash = "—"
        if key == "name":
            return run.name
        if key == "dataset":
            return _short_path(run.dataset)
        if key == "model":
            return _model_name(run.model)
        if key == "status":
            return status_title(run.status)
        if key == "topology":
            nodes, per_node = run.topology["nnodes"], run.topology["nproc_per_node"]
            return str(per_node) if nodes == 1 else _tr("{per_node} × {nodes} machines").format(
                per_node=per_node, nodes=nodes)
        if key == "epochs":
            return _tr("{done}/{total}").format(done=run.epochs_done, total=run.epochs_total or dash)
        if key in ("map50", "map50_95"):
            value = run.best_map50 if key == "map50" else run.best_map50_95
            return dash if value is None else f"{value:.3f}"
        if key == "ips":
            return dash if run.images_per_s is None else f"{run.images_per_s:.1f}"  # the header names the unit
        if key == "gpu":
            value = run.gpu_util_mean_percent
            return dash if value is None else _tr("{value} %").format(value=f"{value:.0f}")
        if key == "wait":
            value = run.data_wait_share
            return dash if value is None else _tr("{value} %").format(value=f"{100 * value:.0f}")
        if key == "duration":
            value = run.duration_at(time.time())  # live while it runs
            return dash if value is None else format_duration(value)
        if key == "started":
            if not run.started:
                return dash
            return date_time_text(run.started)
        return ""

    @staticmethod
    def sort_value(run: RunInfo, key: str) -> Any:
        """Numbers sort as numbers; a missing figure sorts below every real one."""
        low = float("-inf")
        values = {
            "name": run.name.lower(), "dataset": _short_path(run.dataset).lower(),
            "model": _model_name(run.model).lower(), "status": status_title(run.status),
            "topology": float(run.topology["nnodes"] * run.topology["nproc_per_node"]),
            "epochs": float(run.epochs_done), "map50": run.best_map50, "map50_95": run.best_map50_95,
            "ips": run.images_per_s, "gpu": run.gpu_util_mean_percent, "wait": run.data_wait_share,
            "duration": run.duration_at(time.time()), "started": run.started,
        }
        value = values.get(key)
        return low if value is None else value

    @staticmethod
    def tooltip(run: RunInfo, key: str) -> str | None:
        if key == "dataset":
            return run.dataset or None
        if key == "model":
            return run.model or None
        if key == "status" and run.error:
            return str(run.error.get("message") or "") or None
        if key == "name":
            return run.path
        return None
