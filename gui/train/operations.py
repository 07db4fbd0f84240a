"""The Train page's calls into core that read the disk, as small operations (``gui.operations.CoreOp``).

One function per call, so every way the page reaches core for slow work is in this file and runs off the
GUI thread with the default failure path (logged, said in the status bar).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QObject

from core.dataset.prepare import PrepareResult
from core.environment.machine import MachineFacts
from core.remote.facts import remembered_facts
from core.remote.machines import Machine, load_machines
from core.remote.sync import SyncCancelled
from core.training.options import TrainConfig
from core.usecases.remote import RemoteStartError, RemoteTrainDoor
from core.job.protocol import iter_events
from core.run.folder import RunFolder
from core.runs.store import load_run_config, read_log_tail, read_run
from core.wizard.prepared_copy import CopyRequest, copy_for_training
from gui.operations import CoreOp


@dataclass(frozen=True)
class RunEnd:
    """What the completion card needs from the run's folder once its worker ended."""

    can_resume: bool = False  # ``core.run.RunFolder.can_resume``: a checkpoint this run may continue from
    worker_log: list[str] = field(default_factory=list)  # the last lines of worker.log
    duration_s: float | None = None  # ``RunInfo.duration_at``: every worker start summed, as the Runs page says


def read_run_end(parent: QObject, run_dir: Path, status: str) -> CoreOp[RunEnd]:
    """The ended run's folder read off the GUI thread (its config, events and worker.log can be megabytes)."""
    run_dir = Path(run_dir)

    def call() -> RunEnd:
        folder = RunFolder(run_dir)
        try:
            spec = load_run_config(run_dir).get("spec", {})
        except (OSError, ValueError):
            spec = {}  # a run without a readable config.json cannot resume; the card still shows
        return RunEnd(folder.can_resume(status, spec), read_log_tail(folder.worker_log),
                      read_run(run_dir).duration_at(time.time()))

    return CoreOp(parent, call, what=QCoreApplication.translate("TrainOperations", "Reading run {name}").format(
        name=run_dir.name))


def read_run_options(parent: QObject, run_dir: Path) -> CoreOp[dict[str, Any]]:
    """The options run ``run_dir`` was started with (its ``config.json``'s spec): the form shows a run's own
    options, never the dataset open elsewhere. A run without a readable config shows none (``{}``)."""
    run_dir = Path(run_dir)

    def call() -> dict[str, Any]:
        try:
            return dict(load_run_config(run_dir).get("spec", {}).get("config", {}))
        except (OSError, ValueError):
            return {}

    return CoreOp(parent, call, what=QCoreApplication.translate("TrainOperations", "Reading run {name}").format(
        name=run_dir.name))


def refresh_prepared_copy(parent: QObject, request: CopyRequest, workspace: Path) -> CoreOp[PrepareResult]:
    """The wizard's prepared copy brought up to date before Start (``copy_for_training``, the one owner the CLI's
    ``train --config`` and the wizard's hand-over use): a photo changed after the hand-over is resized again,
    so a run never trains on stale pixels. Reports ``done/total`` and stops when cancelled."""
    return CoreOp(parent, lambda progress, cancelled: copy_for_training(request, workspace, progress=progress,
                                                                         cancelled=cancelled),
                  what=QCoreApplication.translate("TrainOperations", "Checking the prepared copy of {source}").format(
                      source=request.source))


def picture_epoch(run_dir: Path, written: float) -> int | None:
    """A validation picture's epoch (``gui.train.val_images``, on its background look): the last epoch whose
    ``epoch_end`` the run's events record at or before ``written`` (unix time)."""
    last = None
    for event in iter_events(RunFolder(run_dir).events):
        t = event.get("t")
        if event.get("type") == "epoch_end" and isinstance(t, (int, float)) and t <= written:
            last = int(event.get("epoch", 0))
    return last


def list_machines(parent: QObject, workspace: Path) -> CoreOp[list[Machine]]:
    """The workspace's machines (``machines.json``), for the Train page's machine choice."""
    return CoreOp(parent, lambda: list(load_machines(workspace).values()),
                  what=QCoreApplication.translate("TrainOperations", "Reading the machines"))


class _CancelFlag:
    """The background task's ``cancelled()`` as the ``threading.Event`` the sync checks before each write."""

    def __init__(self, cancelled: Callable[[], bool]) -> None:
        self.is_set = cancelled


def start_on_machine(parent: QObject, config: TrainConfig, machine: str, workspace: Path, *,
                     trust: bool = False) -> CoreOp[RemoteTrainDoor]:
    """A run on another machine through the door ``yolostudio train --machine`` uses: its pre-flight
    (``RemoteStartError`` with the problems), the dataset sent (``progress(sent, total)`` in bytes; cancelled:
    ``SyncCancelled``, nothing started), then the run started there detached. Returns the door, to follow it."""
    door = RemoteTrainDoor(config, machine, workspace, trust_weights=trust)

    def call(progress: Callable[[int, int], None], cancelled: Callable[[], bool]) -> RemoteTrainDoor:
        refused = [p for p in door.preflight() if p.is_error]
        if refused:
            raise RemoteStartError("\n".join(p.text() for p in refused))
        door.send(progress=progress, cancel=_CancelFlag(cancelled))  # type: ignore[arg-type]
        if cancelled():
            raise SyncCancelled("")
        door.start_there()
        return door

    return CoreOp(parent, call, what=QCoreApplication.translate("TrainOperations", "Starting the run on {name}")
                  .format(name=machine))


def read_machine_facts(parent: QObject, workspace: Path, name: str) -> CoreOp[MachineFacts | None]:
    """The GPUs of machine ``name`` as its last check found them (``core.remote.facts``); None: never checked."""
    return CoreOp(parent, lambda: remembered_facts(workspace, name),
                  what=QCoreApplication.translate("TrainOperations", "Reading what {name} has").format(name=name))
