"""The Runs page's "Runs on machines": the runs of each machine reached by SSH, each row with its machine.

Listed on request (a click: nothing goes over the network unasked) through ``yolostudio runs --json`` there
(``core.remote.runs``, an operation). A run there can be followed on the Train page (its events streamed back,
reconnecting after a dropped link: ``RemoteRun`` handed to the window's ``open_run``) and fetched here
(``core.remote.fetch``: each file verified by hash, into ``runs/RUN@MACHINE``; its checkpoints adopted only
where the machine's provenance check vouched for them).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QAbstractItemView, QGroupBox, QHBoxLayout, QHeaderView, QLabel, QPushButton,
                               QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from core.remote.machines import Machine
from core.run.words import status_word
from core.runs.store import RunInfo
from gui.runs import operations


@dataclass(frozen=True)
class RemoteRun:
    """A run on another machine, as the window's ``open_run`` takes it (followed over ssh on the Train page)."""

    machine: Machine
    name: str
    status: str


class MachineRunsBox(QGroupBox):
    open_requested = Signal(object)  # RemoteRun: follow (or replay) it on the Train page
    fetched = Signal()  # a run came back: the local list has a new folder

    def __init__(self, workspace: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Runs on machines"))
        self.workspace = workspace
        self.rows: list[tuple[Machine, RunInfo]] = []
        self.list_button = QPushButton(self.tr("List runs on machines"), self, clicked=self.list_runs)
        self.list_button.setToolTip(self.tr("Ask each machine of the Machines page for its runs (over ssh)"))
        self.follow_button = QPushButton(self.tr("Open on the Train page"), self, clicked=self.open_selected,
                                         enabled=False)
        self.follow_button.setToolTip(self.tr("Follow the run there while it trains (or replay it), on the Train "
                                              "page"))
        self.fetch_button = QPushButton(self.tr("Fetch"), self, clicked=self.fetch_selected, enabled=False)
        self.fetch_button.setToolTip(self.tr("Bring its weights, evaluations and exports here, each file verified"))
        self.status = QLabel(self.tr("Runs on the machines are listed when you ask."), self, wordWrap=True)
        self.table = QTableWidget(0, 5, self)
        self.table.setHorizontalHeaderLabels([self.tr("Machine"), self.tr("Run"), self.tr("Status"), self.tr("Epochs"),
                                              self.tr("Started")])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.doubleClicked.connect(lambda index: self.open_selected())
        buttons = QHBoxLayout()
        for button in (self.list_button, self.follow_button, self.fetch_button):
            buttons.addWidget(button)
        buttons.addWidget(self.status, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(buttons)
        layout.addWidget(self.table)
        self.table.setVisible(False)
        self.table.setMaximumHeight(180)  # the local runs keep the room

    def selected(self) -> tuple[Machine, RunInfo] | None:
        row = self.table.currentRow()
        return self.rows[row] if 0 <= row < len(self.rows) and self.table.selectedItems() else None

    def _update_buttons(self) -> None:
        chosen = self.selected() is not None
        self.follow_button.setEnabled(chosen)
        self.fetch_button.setEnabled(chosen)

    # -- listing ---------------------------------------------------------------------------------------
    def list_runs(self) -> None:
        self.list_button.setEnabled(False)
        self.status.setText(self.tr("Asking the machines for their runs …"))
        operations.list_machine_runs(self, self.workspace).success(self._show).failure(self._failed).run()

    def _show(self, found: operations.MachineRuns) -> None:
        self.list_button.setEnabled(True)
        self.rows = found.runs
        self.table.setRowCount(len(self.rows))
        for row, (machine, info) in enumerate(self.rows):
            started = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.started)) if info.started else "—"
            for col, text in enumerate((machine.name, info.name, status_word(info.status),
                                        f"{info.epochs_done}/{info.epochs_total}", started)):
                self.table.setItem(row, col, QTableWidgetItem(text))
        self.table.setVisible(bool(self.rows))
        words = [self.tr("{n} runs on the machines.").format(n=len(self.rows))]
        words += [self.tr("{name}: {reason}").format(name=name, reason=reason)
                  for name, reason in found.problems.items()]
        self.status.setText(" ".join(words))
        self._update_buttons()

    def _failed(self, exc: BaseException) -> None:
        self.list_button.setEnabled(True)
        self.status.setText(str(exc))

    # -- acting on one ---------------------------------------------------------------------------------
    def open_selected(self) -> None:
        chosen = self.selected()
        if chosen is not None:
            machine, info = chosen
            self.open_requested.emit(RemoteRun(machine, info.name, info.status))

    def fetch_selected(self) -> None:
        chosen = self.selected()
        if chosen is None:
            return
        machine, info = chosen
        self.fetch_button.setEnabled(False)
        self.status.setText(self.tr("Fetching {run} from {name} …").format(run=info.name, name=machine.name))
        operations.fetch_machine_run(self, self.workspace, machine, info.name) \
            .success(self._fetched(machine, info.name)).failure(self._failed_fetch).run()

    def _fetched(self, machine: Machine, run: str) -> Callable[[tuple[operations.Fetched, int]], None]:
        def done(result: tuple[operations.Fetched, int]) -> None:
            fetched, adopted = result
            self._update_buttons()
            foreign = sum(1 for rel in fetched.received if rel.endswith(".pt")) - adopted
            self.status.setText(self.tr("{run} from {name}: {n} files in {folder}; {adopted} checkpoints verified, "
                                        "{foreign} foreign (asked about before they are loaded).").format(
                run=run, name=machine.name, n=len(fetched.received), folder=fetched.folder, adopted=adopted,
                foreign=foreign) + (" " + self.tr("{n} files changed while fetched: fetch again.").format(
                    n=len(fetched.bad)) if fetched.bad else ""))
            self.fetched.emit()
        return done

    def _failed_fetch(self, exc: BaseException) -> None:
        self._update_buttons()
        self.status.setText(str(exc))
