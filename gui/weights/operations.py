"""The Weights dialog's calls into core, one small ``CoreOp`` each (``gui.operations``).

Why here: reading the weights store (its manifest and a stat per checkpoint) and removing a file touch
the disk, so none of it runs on the GUI thread; the dialog asks through these functions and shows what
comes back. The downloads and imports are worker jobs (``gui.job_runner``), not operations.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject

from core.weights.store import WeightsStore
from core.weights.words import weights_rows
from gui.operations import CoreOp


def _tr(text: str) -> str:
    return QCoreApplication.translate("WeightsOperations", text)


@dataclass(frozen=True)
class StoreRows:
    """The store as the table shows it: one row per checkpoint, and why its manifest was unreadable, if it was."""

    rows: list[dict[str, Any]]
    manifest_problem: str


def _read_rows(workspace: Path) -> StoreRows:
    store = WeightsStore(workspace)  # one per reading: its ``manifest_problem`` belongs to this reading
    rows = weights_rows(store)
    return StoreRows(rows, store.manifest_problem)


def read_store_rows(parent: QObject, workspace: Path) -> CoreOp[StoreRows]:
    """The table's rows (``yolostudio weights list``'s): a manifest and a few stats, no file hashed."""
    return CoreOp(parent, lambda: _read_rows(workspace), what=_tr("Reading the weights store"))


def stored_state(parent: QObject, workspace: Path, name: str) -> CoreOp[str]:
    """``name``'s state in the store ("ok", "absent", …): an import is refused over a file already there."""
    return CoreOp(parent, lambda: WeightsStore(workspace).state(name), what=_tr("Reading the weights store"))


def remove_checkpoint(parent: QObject, workspace: Path, name: str) -> CoreOp[bool]:
    """Delete ``name`` from the store (and its manifest record)."""
    return CoreOp(parent, lambda: WeightsStore(workspace).remove(name), what=_tr("Removing {name}").format(name=name))
