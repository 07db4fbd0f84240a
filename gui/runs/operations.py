"""The Runs package's calls into core, one small ``CoreOp`` each (``gui.operations``).

Why here: Compare reads each run's events file (a long run's is megabytes) and gathers each run's
config and evaluations; renaming reads the run's events to refuse a running one; moving to the trash
re-reads each run's status first (the table may be stale) and asks the OS trash. None of it may run on the
GUI thread. The listing itself is the window's runs store (``gui/runs_store.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QFile, QObject

from core.job.protocol import iter_events
from core.remote.fetch import Fetched, fetch_run
from core.remote.machines import Machine, load_machines
from core.remote.runs import RemoteRunsError, list_remote_runs
from core.run.files import EVENTS_FILE
from core.run_compare import comparison_rows, gather
from core.runs.store import RunInfo, read_run, rename_run
from core.usecases.grants import adopt_fetched
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


def move_to_trash(path: Path) -> bool:
    """The OS trash (freedesktop Trash, Windows Recycle Bin, macOS Trash); False when it refused."""
    result = QFile.moveToTrash(str(path))  # bool, or (bool, path in trash) depending on the binding
    return bool(result[0] if isinstance(result, tuple) else result)


def trash_runs(paths: list[Path]) -> list[tuple[Path, bool]]:
    """A run that started training since the table was drawn is never moved; (path, moved) for each."""
    return [(path, read_run(path).status != "running" and move_to_trash(path)) for path in paths]


def rename_run_op(parent: QObject, run_dir: Path, new_name: str) -> CoreOp[Path]:
    """``core.runs.store.rename_run``: the run's new folder comes back."""
    return CoreOp(parent, lambda: Path(rename_run(run_dir, new_name)),
                  what=_tr("Renaming run {name}").format(name=run_dir.name))


def trash_runs_op(parent: QObject, paths: list[Path]) -> CoreOp[list[tuple[Path, bool]]]:
    return CoreOp(parent, lambda: trash_runs(paths), what=_tr("Moving runs to the trash"))


@dataclass
class MachineRuns:
    """The runs listed on each machine, and the machines that could not be reached (name -> why)."""

    runs: list[tuple[Machine, RunInfo]] = field(default_factory=list)
    problems: dict[str, str] = field(default_factory=dict)


def list_machine_runs(parent: QObject, workspace: Path) -> CoreOp[MachineRuns]:
    """``yolostudio runs --json`` on each of the workspace's machines (ssh, one after the other)."""
    def call() -> MachineRuns:
        found = MachineRuns()
        for machine in load_machines(workspace).values():
            try:
                found.runs += [(machine, info) for info in list_remote_runs(machine)]
            except RemoteRunsError as exc:
                found.problems[machine.name] = str(exc)
        return found

    return CoreOp(parent, call, what=_tr("Listing the runs on the machines"))


def fetch_machine_run(parent: QObject, workspace: Path, machine: Machine, run: str) -> CoreOp[tuple[Fetched, int]]:
    """The run brought back verified (``core.remote.fetch``), the checkpoints its machine vouched for adopted here
    (``core.usecases.grants.adopt_fetched``): (what arrived, how many were adopted)."""
    def call() -> tuple[Fetched, int]:
        fetched = fetch_run(machine, run, workspace)
        return fetched, len(adopt_fetched(workspace, fetched.vouched))

    return CoreOp(parent, call, what=_tr("Fetching {run} from {name}").format(run=run, name=machine.name))
