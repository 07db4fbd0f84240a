"""Where a new data.yaml comes from: the demo dataset, or a folder of images and labels split into train/val.

Both are slow (images are written or listed), so they run in the background with the page's progress row;
the page opens the file that comes back (``made``) or shows why there is none (``failed``). The questions
(which folder, what share for validation) are ``dataset_dialogs`` functions, so tests answer them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from core.dataset.split import plan_split, write_split
from core.demo.dataset import ensure_demo_dataset
from gui.background import run_in_background
from gui.dataset import dataset_dialogs
from gui.widgets.progress_row import ProgressRow


class DatasetSources(QObject):
    made = Signal(object, str)  # the data.yaml written, and what to tell the user ("" for nothing)
    failed = Signal(str)
    busy_changed = Signal(bool)

    def __init__(self, workspace: Path, progress: ProgressRow, parent: QWidget) -> None:
        super().__init__(parent)
        self.workspace = Path(workspace)
        self.progress = progress
        self._parent = parent

    def demo(self) -> None:
        self.busy_changed.emit(True)
        self.progress.start(self.tr("Preparing the demo dataset…"))
        run_in_background(self, lambda progress, cancelled: ensure_demo_dataset(self.workspace, progress, cancelled),
                          on_done=lambda path: self._done(path, ""), on_progress=self.progress.update_counts,
                          on_failed=lambda exc: self._failed(self.tr(
                              "Could not prepare the demo dataset: {reason}").format(reason=exc)))

    def from_folders(self) -> None:
        folder = dataset_dialogs.choose_image_folder(self._parent, str(Path.home()))
        if not folder:
            return
        ratio = dataset_dialogs.ask_val_ratio(self._parent)
        if ratio is None:
            return
        self.busy_changed.emit(True)
        self.progress.start(self.tr("Finding images and labels…"))

        def job(progress: Any, cancelled: Any) -> tuple[Path, Any]:
            plan = plan_split(Path(folder), ratio, progress=progress)
            if not plan.train and not plan.val:
                raise FileNotFoundError(folder)
            return write_split(plan), plan

        run_in_background(self, job, on_done=self._split_done, on_failed=self._split_failed,
                          on_progress=self.progress.update_counts)

    def _split_done(self, result: tuple[Path, Any]) -> None:
        path, plan = result
        self._done(path, self.tr("Wrote {path}: {train} training and {val} validation images ({bg} without labels). "
                                 "Check the class names in the form.").format(
            path=path, train=len(plan.train), val=len(plan.val), bg=plan.unlabelled))

    def _split_failed(self, exc: BaseException) -> None:
        self._failed(self.tr("No images found in {folder}.").format(folder=exc) if isinstance(exc, FileNotFoundError)
                     else self.tr("Could not create the dataset: {reason}").format(reason=exc))

    def _done(self, path: Path, message: str) -> None:
        self.progress.hide()
        self.busy_changed.emit(False)
        self.made.emit(path, message)

    def _failed(self, message: str) -> None:
        self.progress.hide()
        self.busy_changed.emit(False)
        self.failed.emit(message)
