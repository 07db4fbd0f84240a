"""Starting a run on another machine from the Train page: the door ``yolostudio train --machine`` uses.

``RemoteStart.start`` builds ``core.usecases.remote.RemoteTrainDoor`` from the checked options and, off the GUI
thread (one ``CoreOp``), runs its pre-flight, sends the dataset (only the files that changed, verified by hash;
progress in bytes, ``cancel()`` stops it — what was sent whole stays there, verified) and starts the run there
detached (``door.start_there``: it survives the link, this window and the laptop's sleep). ``started(door)``
hands the door to the Train page's control, which follows the run's events into the same live view
(``gui.run_session.RunSession.follow_machine``); ``failed(text)`` says in words why nothing was started.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from core.export.render import size_text
from core.remote.sync import SyncCancelled, SyncError
from core.training.options import TrainConfig
from core.usecases.remote import RemoteStartError
from gui.background import BackgroundTask
from gui.train import operations


class RemoteStart(QObject):
    progress = Signal(str)  # words for the Start button while the dataset is sent
    started = Signal(object)  # core.usecases.remote.RemoteTrainDoor: the run trains there
    failed = Signal(str)  # nothing was started: why, with the way out
    cancelled = Signal()  # the user cancelled the sending: nothing was started

    def __init__(self, workspace: Path, parent: QObject) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.task: BackgroundTask | None = None

    @property
    def busy(self) -> bool:
        return self.task is not None

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()

    def start(self, config: TrainConfig, machine: str, *, trust: bool = False) -> bool:
        if self.task is not None:
            return False

        def sending(sent: int, total: int) -> None:
            self.progress.emit(self.tr("Sending {sent} of {total} to {name}…").format(
                sent=size_text(min(sent, total)), total=size_text(total), name=machine))

        self.progress.emit(self.tr("Comparing the dataset with {name}…").format(name=machine))
        self.task = operations.start_on_machine(self, config, machine, self.workspace, trust=trust) \
            .progress(sending).success(self._started).failure(lambda exc: self._failed(exc, machine)).run()
        return True

    def _started(self, door: Any) -> None:
        self.task = None
        self.started.emit(door)

    def _failed(self, exc: BaseException, machine: str) -> None:
        self.task = None
        if isinstance(exc, SyncCancelled):
            self.cancelled.emit()
            return
        if isinstance(exc, (RemoteStartError, SyncError)):
            reason = str(exc)
        else:
            reason = f"{type(exc).__name__}: {exc}"
        self.failed.emit(self.tr("Nothing was started on {name}: {reason}").format(name=machine, reason=reason))
