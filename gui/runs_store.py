"""The app's one list of runs: loaded once in the background, refreshed on request, shared by every page.

Before, the main window (to re-attach to a run still training), the Runs page and the Export page each
listed the workspace at start-up, and each listing read every events file again. Now the main window
owns one ``RunsStore``; pages read ``runs`` and listen to ``changed``. A reload (F5, a run that ended, a
rename or a move to the trash) goes through ``core.runs.index.RunIndex``, which folds each events file
once and then only what was appended, so reloading is cheap enough to do whenever something may have
changed. Reloads never overlap: one asked for while another runs is done right after it.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from gui.background import BackgroundTask
from gui.shell_operations import list_runs

if TYPE_CHECKING:
    from core.runs.index import RunIndex
    from core.runs.store import RunInfo

log = logging.getLogger("yolostudio.gui.runs")


class RunsStore(QObject):
    changed = Signal(list)  # list[RunInfo], newest first
    failed = Signal(str)  # why the runs folder could not be read

    def __init__(self, workspace: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.workspace = Path(workspace)
        self.runs: list[RunInfo] = []
        self.loaded = False  # a first listing arrived
        self._index: RunIndex | None = None  # made by the first listing; one pool thread at a time uses it
        self._task: BackgroundTask | None = None
        self._again = False

    @property
    def loading(self) -> bool:
        return self._task is not None

    def reload(self) -> None:
        """List the runs again in the background; ``changed`` follows."""
        if self._task is not None:
            self._again = True
            return
        self._task = list_runs(self, self.workspace, self._index).success(self._listed).failure(self._failed).run()

    def ensure_loaded(self) -> None:
        """Load once: the first page that needs the runs starts it; later callers reuse the list."""
        if not self.loaded and self._task is None:
            self.reload()

    def _listed(self, listed: tuple[RunIndex, list[RunInfo]]) -> None:
        self._task = None
        self._index, runs = listed
        self.runs, self.loaded = runs, True
        self.changed.emit(runs)
        self._next()

    def _failed(self, exc: BaseException) -> None:
        self._task = None
        log.warning("listing the runs in %s failed: %s", self.workspace, exc)
        self.failed.emit(str(exc))
        self._next()

    def _next(self) -> None:
        if self._again:
            self._again = False
            self.reload()
