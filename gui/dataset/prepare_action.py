""""Prepare a resized copy…" on the Dataset page: ``core.dataset.prepare`` on the background pool, with progress.

Asks the training size, writes (or resumes, or finds up to date) the copy in the workspace's cache, and says
where its data.yaml is. The page's own data.yaml stays the one it edits and checks: findings keep pointing at
the user's originals. Cancel keeps the finished images; the next run resumes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import QInputDialog, QProgressDialog, QWidget

from core.dataset.prepare import PrepareCancelled, default_out_dir
from core.workspace import app_cache_dir
from gui.background import BackgroundTask
from gui.dataset import operations


def _tr(text: str) -> str:
    return QCoreApplication.translate("PrepareAction", text)


def ask_imgsz(parent: QWidget) -> int | None:
    """Module attribute so tests answer it instead of a modal dialog."""
    value, ok = QInputDialog.getInt(parent, _tr("Prepare a resized copy"), _tr(
        "Training image size (the copy's long side; images are never enlarged):"), 640, 32, 4096, 32)
    return value if ok else None


class PrepareAction(QObject):
    finished = Signal(str, str)  # level, message for the page's banner
    prepared = Signal(str)  # the copy's data.yaml

    def __init__(self, workspace: Path, parent: QWidget) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.task: BackgroundTask | None = None
        self.dialog: QProgressDialog | None = None

    @property
    def busy(self) -> bool:
        return self.task is not None

    def run(self, data_yaml: Path, imgsz: int | None = None) -> bool:
        parent = self.parent()
        assert isinstance(parent, QWidget)
        if self.busy:
            return False
        imgsz = imgsz or ask_imgsz(parent)
        if imgsz is None:
            return False
        out_dir = default_out_dir(app_cache_dir(self.workspace), data_yaml, imgsz, "jpg")
        self.dialog = QProgressDialog(_tr("Resizing images to {n} px…").format(n=imgsz), _tr("Cancel"), 0, 0,
                                      parent)
        self.dialog.setWindowModality(Qt.WindowModality.NonModal)
        self.dialog.setMinimumDuration(300)

        self.task = operations.prepare_copy(self, data_yaml, imgsz, out_dir).progress(self._progress) \
            .success(self._done).failure(self._failed).run()
        self.dialog.canceled.connect(self.task.cancel)
        return True

    def _progress(self, done: int, total: int) -> None:
        if self.dialog is not None:
            self.dialog.setMaximum(total)
            self.dialog.setValue(done)

    def _close(self) -> None:
        self.task = None
        if self.dialog is not None:
            self.dialog.reset()
            self.dialog.deleteLater()
            self.dialog = None

    def _done(self, result: Any) -> None:
        self._close()
        words = self.tr("Already up to date") if result.up_to_date else self.tr("Prepared {n} images").format(
            n=result.written)
        failed = self.tr(" ({n} unreadable, copied as they are)").format(n=len(result.failed)) if result.failed else ""
        self.finished.emit("info", self.tr("{words}{failed}. Train on {path} — your own data.yaml stays the one "
                                           "checked here.").format(words=words, failed=failed, path=result.data_yaml))
        self.prepared.emit(str(result.data_yaml))

    def _failed(self, exc: BaseException) -> None:
        self._close()
        if isinstance(exc, PrepareCancelled):
            self.finished.emit("info", str(exc))
        else:
            self.finished.emit("error", self.tr("Preparing the copy failed: {reason}").format(reason=exc))
