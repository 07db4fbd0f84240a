"""The Train page's calls into core that read the disk, as small operations (``gui.operations.CoreOp``).

One function per call, so every way the page reaches core for slow work is in this file and runs off the
GUI thread with the default failure path (logged, said in the status bar).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject

from core.runs.store import RunInfo, read_run
from gui.operations import CoreOp


def read_run_info(parent: QObject, run_dir: Path) -> CoreOp[RunInfo]:
    """The run's summary from its folder (``core.runs.store.read_run``: its events, every worker start) — the
    figures the Runs page shows, so the Train page's completion card says the same (e.g. the run's duration)."""
    return CoreOp(parent, lambda: read_run(Path(run_dir)),
                  what=QCoreApplication.translate("TrainOperations", "Reading run {name}").format(
                      name=Path(run_dir).name))
