"""The Runs page's calls into core, one ``CoreOp`` each (``gui.operations``): off the GUI thread.

Renaming reads the run's events to refuse a running one; moving to the trash re-reads each run's status
first (the table may be stale) and asks the OS trash. Both touch the disk; the page only starts them and
says what came back. Listing the runs is the window's runs store (``gui/runs_store.py``).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QFile, QObject

from core.runs.store import read_run, rename_run
from gui.operations import CoreOp


def _tr(text: str) -> str:
    return QCoreApplication.translate("RunsOperations", text)


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
