"""The Runs package's calls into core, one small ``CoreOp`` each (``gui.operations``).

Why here: Compare reads each run's events file (a long run's is megabytes) and gathers each run's
config and evaluations; none of it may run on the GUI thread. (The Runs page's own listing, rename and
trash are the page owner's to convert: ``tests/test_gui_operations_rule.py`` lists it as not converted yet.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject

from core.job.protocol import iter_events
from core.run.files import EVENTS_FILE
from core.run_compare import comparison_rows, gather
from core.runs.store import RunInfo
from gui.background import Cancelled, Progress
from gui.operations import CoreOp

CURVES = {"map50": "metrics/mAP_0.5", "train_box": "train/box_loss", "val_box": "val/box_loss"}
Curves = dict[str, tuple[list[float], list[float]]]  # curve -> (epochs, values)


def _tr(text: str) -> str:
    return QCoreApplication.translate("RunsOperations", text)


def read_curves(run_dir: Path) -> Curves:
    """Per-epoch curves of one run from its events file (epochs counted from 1); a redone epoch keeps its last."""
    by_epoch: dict[str, dict[int, float]] = {name: {} for name in CURVES}
    for event in iter_events(Path(run_dir) / EVENTS_FILE):
        if event.get("type") != "epoch_end":
            continue
        metrics = event.get("metrics") or {}
        epoch = int(event.get("epoch", 0)) + 1
        for name, key in CURVES.items():
            value = metrics.get(key)
            if isinstance(value, (int, float)):
                by_epoch[name][epoch] = float(value)
    return {name: (sorted(values), [values[e] for e in sorted(values)]) for name, values in by_epoch.items()}


def read_all_curves(parent: QObject, run_dirs: list[Path]) -> CoreOp[dict[str, Curves]]:
    """Every run's curves, by run name; stops between runs when the returned task is cancelled."""
    def call(progress: Progress, cancelled: Cancelled) -> dict[str, Curves]:
        out: dict[str, Curves] = {}
        for done, run_dir in enumerate(run_dirs):
            if cancelled():
                break
            out[Path(run_dir).name] = read_curves(run_dir)
            progress(done + 1, len(run_dirs))
        return out

    return CoreOp(parent, call, what=_tr("Reading the runs' events")).progress(lambda done, total: None)


def compare_runs(parent: QObject, runs: list[RunInfo]) -> CoreOp[list[tuple[str, list[Any]]]]:
    """The rows of settings and figures that differ between ``runs`` (``core.run_compare``)."""
    return CoreOp(parent, lambda: comparison_rows(gather(list(runs))), what=_tr("Comparing the runs"))
