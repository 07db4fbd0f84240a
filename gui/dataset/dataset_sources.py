"""Where a new data.yaml comes from: the demo dataset, or a folder of images and labels split into train/val.

Both are slow (images are written or listed), so they run as operations (``gui/dataset/operations.py``) with
the page's progress row; the page opens the file that comes back (``made``) or shows why there is none
(``failed``). The folder is looked at first, and only what it does not say is asked: its own split
(``images/train`` + ``images/val``) is kept, the val share is asked for images in no split folder, class
names when there is no ``classes.txt`` (with the ids the labels use and any outlier row). The questions are
``dataset_dialogs`` functions, so tests answer them.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from core.dataset.split import SplitPlan
from gui.dataset import dataset_dialogs, operations
from gui.widgets.progress_row import ProgressRow

DEFAULT_VAL_RATIO = 0.2  # planned with this first; asked only when some images are in no split folder


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
        operations.prepare_demo(self, self.workspace).progress(self.progress.update_counts) \
            .success(lambda path: self._done(path, "")) \
            .failure(lambda exc: self._failed(self.tr("Could not prepare the demo dataset: {reason}").format(
                reason=exc))).run()

    def from_folders(self) -> None:
        folder = dataset_dialogs.choose_image_folder(self._parent, str(Path.home()))
        if folder:
            self._plan(Path(folder), DEFAULT_VAL_RATIO, asked=False)

    def _plan(self, folder: Path, ratio: float, *, asked: bool) -> None:
        self.busy_changed.emit(True)
        self.progress.start(self.tr("Finding images and labels…"))
        operations.plan_folder(self, folder, ratio).progress(self.progress.update_counts) \
            .success(lambda plan: self._planned(plan, ratio, asked)).failure(self._split_failed).run()

    def _planned(self, plan: SplitPlan, ratio: float, asked: bool) -> None:
        """Ask only what the folder does not say: the val share for images in no split folder, the names."""
        self.progress.hide()
        self.busy_changed.emit(False)
        if plan.free and not asked:
            wanted = dataset_dialogs.ask_val_ratio(self._parent)
            if wanted is None:
                return
            if abs(wanted - ratio) > 1e-9:
                self._plan(plan.folder, wanted, asked=True)
                return
        names = plan.names
        if not names:
            names = dataset_dialogs.ask_class_names(self._parent, plan.suggested_names, self.class_note(plan))
            if names is None:
                return
        self.busy_changed.emit(True)
        self.progress.start(self.tr("Writing the dataset…"))
        operations.write_folder(self, plan, names).success(lambda path: self._split_done(path, plan, names)) \
            .failure(self._split_failed).run()

    def class_note(self, plan: SplitPlan) -> str:
        """What the labels say about the classes: the ids used from 0, and the rows beyond them."""
        if plan.class_count:
            text = self.tr("The labels use class ids 0 to {top}.").format(top=plan.class_count - 1)
        else:
            text = self.tr("No label row uses class id 0.")
        if plan.outliers:
            first = plan.outliers[0]
            text = self.tr("{first} {second}").format(first=text, second=self.tr(
                "Label rows with an id beyond that: {n} (first: id {id} at {file}:{line}); they show as errors "
                "after the check, with a fix. If they are a real class, add names up to their id.").format(
                n=plan.outlier_rows, id=first.class_id, file=Path(first.file).name, line=first.line))
        return text

    def _split_done(self, path: Path, plan: SplitPlan, names: list[str]) -> None:
        message = self.tr("Wrote {path}: {train} training and {val} validation images ({bg} without labels).").format(
            path=path, train=len(plan.train), val=len(plan.val), bg=plan.unlabelled)
        if plan.kept:
            message = self.tr("{first} {second}").format(first=message, second=self.tr(
                "The folder's own split is kept ({splits}).").format(
                splits=", ".join(f"{split} {count}" for split, count in sorted(plan.kept.items()))))
        if plan.outliers:
            message = self.tr("{first} {second}").format(first=message, second=self.tr(
                "Label rows with a class id beyond the {nc} classes: {n} (see the Problems list).").format(
                n=plan.outlier_rows, nc=len(names)))
        self._done(path, message)

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
