"""The Runs page: every run in the workspace, to compare, replay, rename, clean up.

Owns the page's flow only: the list is the window's runs store (``gui/runs_store.py``), renaming is
``core.runs.store.rename_run`` (an operation, ``gui/runs/operations.py``: it reads the run's events to refuse a
running one), deleting moves the folder to the OS trash with ``QFile.moveToTrash`` (an operation too) (never a silent permanent delete; when the trash
refuses, the page says so and deletes nothing). Opening a run asks the main window (``open_requested``)
to replay it on the Train page. The questions it asks are module functions, so tests answer them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import (QCoreApplication, QItemSelectionModel, QSortFilterProxyModel, QTimer, QUrl, Qt,
                            Signal)
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence, QShowEvent
from PySide6.QtWidgets import (QAbstractItemView, QHBoxLayout, QHeaderView, QInputDialog, QLabel, QLineEdit,
                               QPushButton, QStackedWidget, QTableView, QVBoxLayout, QWidget)

from core.run.words import status_title
from core.runs.store import RunInfo
from gui.dialogs import ask_yes
from gui.evaluate.evaluate_window import EvaluateWindow
from gui.job_runner import default_launcher
from gui.pages.page import Page
from gui.widgets.banner import Banner
from gui.widgets.page_header import PageHeader
from gui.runs.machine_runs import MachineRunsBox
from gui.runs.operations import rename_run_op, trash_runs_op
from gui.runs.runs_overlay import RunsOverlayDialog
from gui.widgets.sort_arrow import arrow_follows_order
from gui.runs.runs_table_model import COLUMN, RUN_ROLE, SORT_ROLE, RunsTableModel

MAX_OVERLAY = 9


# -- the questions (tests monkeypatch these) ----------------------------------------------------------
def _tr(text: str) -> str:
    return QCoreApplication.translate("RunsPage", text)


def ask_new_name(parent: QWidget, old: str) -> str | None:
    text, ok = QInputDialog.getText(parent, _tr("Rename run"), _tr("New name for run {name}:").format(name=old),
                                    QLineEdit.EchoMode.Normal, old)
    return text.strip() if ok and text.strip() and text.strip() != old else None


def confirm_delete(parent: QWidget, names: list[str]) -> bool:
    return ask_yes(parent, _tr("Move runs to the trash?"),
                   _tr("Move these runs (weights, results and events) to the trash?\n\n{names}\n\nThey can "
                       "be restored from the trash.").format(names="\n".join(names)))


class RunsPage(Page):
    open_requested = Signal(object)  # RunInfo: replay (or follow) it on the Train page

    def __init__(self, workspace: Path, parent: QWidget | None = None) -> None:
        super().__init__(workspace, parent)
        self._select_next: set[str] = set()  # paths to select once the list is read again (a renamed run)
        self.model = RunsTableModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)

        self.refresh_button = QPushButton(self.tr("Refresh"), self, clicked=self.refresh)
        self.refresh_button.setToolTip(self.tr("Read the runs folder again (F5)"))
        self.open_button = QPushButton(self.tr("Open"), self, clicked=self.open_selected)
        self.open_button.setToolTip(self.tr("Replay the run on the Train page, or follow it while it trains (Enter)"))
        self.evaluate_button = QPushButton(self.tr("Evaluate"), self, clicked=self.evaluate_selected)
        self.evaluate_button.setToolTip(self.tr("Per-class metrics, the confusion matrix and what to change, from "
                                                "yolov5's validation of the run's best weights"))
        self.launcher = default_launcher  # the evaluate worker's (tests replay recorded streams)
        self.compare_button = QPushButton(self.tr("Compare"), self, clicked=self.compare_selected)
        self.compare_button.setToolTip(self.tr("What differs between the selected runs, their mAP (per class when "
                                               "evaluated), speed and curves"))
        self.rename_button = QPushButton(self.tr("Rename…"), self, clicked=self.rename_selected)
        self.rename_button.setToolTip(self.tr("Rename the run's folder (F2)"))
        self.delete_button = QPushButton(self.tr("Delete…"), self, clicked=self.delete_selected)
        self.delete_button.setToolTip(self.tr("Move the selected runs to the trash (Delete)"))
        self.folder_button = QPushButton(self.tr("Open folder"), self, clicked=self.open_folder)
        self.header = PageHeader(
            self.tr("Runs"),
            self.tr("Every training run in this workspace, with its results and how efficiently it used the "
                    "machine. Open one to replay it; select several to compare their curves."),
            [self.refresh_button], self)
        self.banner = Banner(self)

        self._clock = QTimer(self, interval=1000, timeout=self.model.tick)  # live duration of a running run
        self._clock.start()
        self.table = QTableView(self)
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(COLUMN["started"], Qt.SortOrder.DescendingOrder)
        arrow_follows_order(self.table.horizontalHeader())  # ▼ above the newest-first list
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.setWordWrap(False)
        self.table.doubleClicked.connect(lambda index: self.open_selected())
        self.table.selectionModel().selectionChanged.connect(self._update_actions)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self._add_action(self.tr("Open"), ("Return", "Enter"), self.open_selected)
        self._add_action(self.tr("Evaluate"), (), self.evaluate_selected)
        self._add_action(self.tr("Compare"), (), self.compare_selected)
        self._add_action(self.tr("Rename…"), ("F2",), self.rename_selected)
        self._add_action(self.tr("Delete…"), (QKeySequence.StandardKey.Delete,), self.delete_selected)
        self._add_action(self.tr("Open folder"), (), self.open_folder)

        self.empty_label = QLabel(self, wordWrap=True, alignment=Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setText(self.tr(
            "No runs yet in {folder}.\n\nStart one on the Train page (Ctrl+4) — the demo dataset trains in a few "
            "minutes on a CPU. Every run then appears here with its results, its speed in images/s and how "
            "busy it kept the GPU.").format(folder=self.workspace / "runs"))
        self.loading_label = QLabel(self.tr("Reading the runs folder…"), self, enabled=False,
                                    alignment=Qt.AlignmentFlag.AlignCenter)  # until the first listing arrives
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.loading_label)
        self.stack.addWidget(self.empty_label)
        self.stack.addWidget(self.table)
        self.details = QLabel(self, wordWrap=True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        actions = QHBoxLayout()
        for button in (self.open_button, self.evaluate_button, self.compare_button, self.rename_button, self.delete_button,
                       self.folder_button):
            actions.addWidget(button)
        actions.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 8)
        layout.addWidget(self.header)
        layout.addWidget(self.banner)
        layout.addLayout(actions)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.details)
        self.machine_runs = MachineRunsBox(self.workspace, self)  # the runs on machines reached by SSH
        self.machine_runs.fetched.connect(self.refresh)
        layout.addWidget(self.machine_runs)
        self._update_actions()

    def _add_action(self, text: str, keys: tuple[Any, ...], slot: Any) -> QAction:
        action = QAction(text, self.table)
        action.setShortcuts([QKeySequence(k) for k in keys])
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.triggered.connect(slot)
        self.table.addAction(action)
        return action

    # -- loading: the window's runs store lists them (core.runs.index keeps each run's events folded) --------
    def on_bound(self) -> None:
        if self.services.open_run is not None:  # in the window: Open shows the run on the Train page
            self.open_requested.connect(self.services.open_run)
            self.machine_runs.open_requested.connect(self.services.open_run)  # a RemoteRun: followed over ssh
        store = self.services.runs
        store.changed.connect(self._on_listed)
        store.failed.connect(self._on_list_failed)
        if store.loaded:
            self._on_listed(store.runs)
        else:
            store.ensure_loaded()  # "Reading the runs folder…" until it answers

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.refresh()  # runs started from a terminal meanwhile appear; unchanged ones cost nothing

    def refresh(self) -> None:
        """F5, the Refresh button, and the end of a run: list the runs again, in the background."""
        self.refresh_button.setEnabled(False)
        self.services.runs.reload()

    @property
    def loading(self) -> bool:
        return self.services.runs.loading

    def _on_listed(self, runs: list[RunInfo]) -> None:
        selected = {run.path for run in self.selected_runs()} | self._select_next
        self._select_next = set()
        self.model.set_runs(runs)
        self.stack.setCurrentWidget(self.table if runs else self.empty_label)
        self._reselect(selected)
        self.refresh_button.setEnabled(True)

    def _on_list_failed(self, reason: str) -> None:
        self.banner.show_message("error", self.tr("Could not read the runs folder {folder}: {reason}").format(
            folder=self.workspace / "runs", reason=reason))
        if self.stack.currentWidget() is self.loading_label:
            self.stack.setCurrentWidget(self.empty_label)
        self.refresh_button.setEnabled(True)

    def _reselect(self, paths: set[str]) -> None:
        selection = self.table.selectionModel()
        for row in range(self.proxy.rowCount()):
            index = self.proxy.index(row, 0)
            if index.data(RUN_ROLE).path in paths:
                if not selection.hasSelection():  # the first one kept is current and in view
                    selection.setCurrentIndex(index, QItemSelectionModel.SelectionFlag.NoUpdate)
                    self.table.scrollTo(index)
                selection.select(index, QItemSelectionModel.SelectionFlag.Select
                                 | QItemSelectionModel.SelectionFlag.Rows)
        if not selection.hasSelection() and self.proxy.rowCount():
            self.table.setCurrentIndex(self.proxy.index(0, 0))
            self.table.selectRow(0)

    # -- selection ----------------------------------------------------------------------------------
    def selected_runs(self) -> list[RunInfo]:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return [index.data(RUN_ROLE) for index in sorted(rows, key=lambda i: i.row())]

    def select_run(self, name: str) -> bool:
        for row in range(self.proxy.rowCount()):
            if self.proxy.index(row, 0).data(RUN_ROLE).name == name:
                self.table.clearSelection()
                self.table.selectRow(row)
                return True
        return False

    def _update_actions(self) -> None:
        runs = self.selected_runs()
        one = len(runs) == 1
        self.open_button.setEnabled(one)
        self.evaluate_button.setEnabled(one and runs[0].status != "running" and bool(runs[0].best_weights))
        self.rename_button.setEnabled(one)
        self.folder_button.setEnabled(one)
        self.delete_button.setEnabled(bool(runs))
        self.compare_button.setEnabled(1 <= len(runs) <= MAX_OVERLAY)
        self.details.setText(self._details(runs[0]) if one else
                             self.tr("{count} runs selected.").format(count=len(runs)) if runs else "")

    def _details(self, run: RunInfo) -> str:
        parts = [self.tr("{name}: {status}").format(name=run.name, status=status_title(run.status)),
                 self.tr("folder {path}").format(path=run.path)]
        if run.best_weights:
            parts.append(self.tr("best weights {path}").format(path=run.best_weights))
        if run.dataset_change:  # "+8 images, 3 labels edited since exp3" (core.run.dataset_version)
            parts.append(run.dataset_change)
        if run.error and run.error.get("message"):
            parts.append(self.tr("why it failed: {message}").format(message=run.error["message"]))
        return " · ".join(parts)

    # -- actions ------------------------------------------------------------------------------------
    def open_selected(self) -> None:
        runs = self.selected_runs()
        if len(runs) == 1:
            self.open_requested.emit(runs[0])

    def open_folder(self) -> None:
        runs = self.selected_runs()
        if len(runs) == 1:
            QDesktopServices.openUrl(QUrl.fromLocalFile(runs[0].path))

    def evaluate_selected(self) -> EvaluateWindow | None:
        """Evaluate the selected finished run in a window of its own (planned and run in the background)."""
        runs = self.selected_runs()
        if len(runs) != 1 or runs[0].status == "running" or not runs[0].best_weights:
            return None
        window = EvaluateWindow(Path(runs[0].path), self.workspace, self, launcher=self.launcher)
        window.show()
        return window

    def compare_selected(self) -> RunsOverlayDialog | None:
        runs = self.selected_runs()[:MAX_OVERLAY]
        if not runs:
            return None
        dialog = RunsOverlayDialog([Path(run.path) for run in runs], self, runs=runs)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

    def rename_selected(self) -> None:
        runs = self.selected_runs()
        if len(runs) != 1:
            return
        run = runs[0]
        if run.status == "running":
            self._refuse(self.tr("Run {name} is training: stop it before renaming it.").format(name=run.name))
            return
        new_name = ask_new_name(self, run.name)
        if not new_name:
            return
        rename_run_op(self, Path(run.path), new_name).success(lambda path: self._on_renamed(run.name, path)) \
            .failure(lambda exc: self._refuse(self.tr("Could not rename run {name}: {reason}").format(
                name=run.name, reason=exc))).run()

    def _on_renamed(self, old: str, path: Path) -> None:
        self.banner.show_message("ok", self.tr("Renamed run {old} to {new}.").format(old=old, new=path.name))
        self._select_next = {str(path)}  # the renamed run stays selected (issue 32: it jumped to the top)
        self.refresh()

    def delete_selected(self) -> None:
        runs = self.selected_runs()
        if not runs:
            return
        running = [run.name for run in runs if run.status == "running"]
        if running:
            self._refuse(self.tr("Not deleted: {names} is training. Stop it first.").format(names=", ".join(running)))
            return
        if not confirm_delete(self, [run.name for run in runs]):
            return
        paths = [Path(run.path) for run in runs]
        trash_runs_op(self, paths).success(self._on_trashed).failure(self._on_trash_failed).run()

    def _on_trashed(self, results: list[tuple[Path, bool]]) -> None:
        failed = [path for path, ok in results if not ok]
        moved = [path.name for path, ok in results if ok]
        if failed:
            self.banner.show_message("error", self.tr(
                "Not moved to the trash: {names} (the system's trash refused, or the run is training now); nothing "
                "was deleted permanently. Delete the folder yourself if you are sure: {paths}").format(
                names=", ".join(p.name for p in failed), paths=", ".join(str(p) for p in failed)))
        else:
            self.banner.show_message("ok", self.tr("Moved to the trash: {names}.").format(names=", ".join(moved)))
        self.refresh()

    def _on_trash_failed(self, exc: BaseException) -> None:
        self.banner.show_message("error", self.tr("Could not move to the trash: {reason}. Nothing was deleted "
                                                  "permanently.").format(reason=exc))
        self.refresh()

    def _refuse(self, text: str) -> None:
        self.banner.show_message("warning", text)
