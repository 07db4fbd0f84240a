"""The "Repair PyTorch" dialog: the exact command first, then pip's progress and log, then the outcome.

It shows ``core.install.repair.plan_repair``'s plan — which build and why, the command (copyable), or the
reason it refuses — and on Install runs the ``repair`` worker job through the GUI's one worker-process
wrapper: progress and the current file from ``repair_progress``, pip's lines in the log, Stop while pip
is still downloading (the job refuses later, when a stop would leave PyTorch half installed). Before it
starts, a background look at the workspace makes sure no training run is using this PyTorch. On success
it emits ``repaired``; the page re-checks and offers a restart.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QPlainTextEdit, QProgressBar,
                               QPushButton, QVBoxLayout, QWidget)

from core.install.repair import RepairPlan
from core.job.jobs import JobOutcome
from core.usecases.jobs import RepairDoor
from gui.environment.operations import running_runs, running_runs_op
from gui.job_runner import JobRunner, Launcher, default_launcher
from gui.widgets.banner import Banner
from gui.widgets.log_view import LogView
from gui.screen_fit import fit_to_screen


class RepairDialog(QDialog):
    repaired = Signal()

    def __init__(self, plan: RepairPlan, workspace: Path, parent: QWidget | None = None, *,
                 launcher: Launcher = default_launcher,
                 busy_check: Callable[[Path], list[str]] = running_runs) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Repair PyTorch"))
        self.plan = plan
        self.installing = list(plan.argv)  # what the job installs: another build when the index lacks the first
        self.moved = ""  # why, then (the job's repair-build-not-served warning)
        self.workspace = Path(workspace)
        self.launcher = launcher
        self.busy_check = busy_check
        self.status: str | None = None  # the job's done status once finished
        self._worker = JobRunner(self, launcher=launcher)  # tests hand in a launcher that runs a fake pip
        self._worker.event.connect(self._on_event)
        self._worker.ended.connect(self._on_ended)
        choice = plan.choice
        self.headline = QLabel(self)
        self.headline.setTextFormat(Qt.TextFormat.PlainText)
        self.headline.setWordWrap(True)
        font = self.headline.font()
        font.setBold(True)
        self.headline.setFont(font)
        self.headline.setText(self.tr("Install the PyTorch build for this machine: {tag}").format(
            tag=choice.tag if choice else "?"))
        self.reason = QLabel(choice.reason if choice else "", self, wordWrap=True)
        self.reason.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.banner = Banner(self)
        self.command = QPlainTextEdit(plan.command, self, readOnly=True)
        self.command.setAccessibleName(self.tr("Command"))
        self.command.setMaximumHeight(80)
        self.copy_button = QPushButton(self.tr("Copy command"), self, clicked=self.copy_command)
        self.copy_button.setEnabled(bool(plan.command))
        self.progress_label = QLabel(self, wordWrap=True)
        self.progress_bar = QProgressBar(self, maximum=1000, textVisible=False)
        self.log = LogView(self)
        self._worker.text.connect(self.log.add)
        self.log.text.setPlaceholderText(self.tr("pip's output appears here."))
        self.buttons = QDialogButtonBox(self)
        self.install_button = self.buttons.addButton(self.tr("Install"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.stop_button = self.buttons.addButton(self.tr("Stop"), QDialogButtonBox.ButtonRole.ActionRole)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.install_button.clicked.disconnect()
        self.install_button.clicked.connect(self.start)
        self.stop_button.clicked.connect(self.stop)
        self.close_button.clicked.connect(self.close)
        self.install_button.setDefault(True)
        self._build_layout()
        self._show_running(False)
        if plan.refusal:
            self.banner.show_message("warning", plan.refusal)
        self.install_button.setEnabled(plan.ok)
        self.log.setMinimumHeight(140)
        fit_to_screen(self, 780, 460)

    def _build_layout(self) -> None:
        command_row = QHBoxLayout()
        command_row.addWidget(self.command, 1)
        command_row.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.addWidget(self.headline)
        layout.addWidget(self.reason)
        layout.addWidget(self.banner)
        layout.addWidget(QLabel(self.tr("Command (runs in the app's own environment):"), self))
        layout.addLayout(command_row)
        layout.addWidget(self.progress_label)
        layout.addWidget(self.progress_bar)
        layout.addWidget(self.log, 1)
        layout.addWidget(self.buttons)

    def _show_running(self, running: bool) -> None:
        for widget in (self.progress_label, self.progress_bar):
            widget.setVisible(running or self.status is not None)
        self.log.setVisible(running or self.status is not None)
        self.stop_button.setVisible(running)
        self.install_button.setVisible(not running and self.status != "completed")
        self.close_button.setEnabled(not running)

    @property
    def running(self) -> bool:
        return self._worker.active

    def copy_command(self) -> None:
        QGuiApplication.clipboard().setText(self.plan.command)
        self.banner.show_message("info", self.tr("Command copied."))

    # -- running ------------------------------------------------------------------------------------
    def start(self) -> None:
        if not self.plan.ok or self.running:
            return
        self.install_button.setEnabled(False)
        self.progress_label.setText(self.tr("Making sure no training run uses this PyTorch…"))
        self.progress_label.setVisible(True)
        running_runs_op(self, self.workspace, self.busy_check).success(self._start_unless_busy) \
            .failure(lambda exc: self._start_unless_busy([])).run()

    def _start_unless_busy(self, busy: list[str]) -> None:
        if busy:
            self.install_button.setEnabled(True)
            self.progress_label.setVisible(False)
            self.banner.show_message("warning", self.tr(
                "Training is running ({runs}) with this PyTorch; replacing it now would break the run. Stop it "
                "(or let it finish), then repair.").format(runs=", ".join(busy)))
            return
        job_dir = self.workspace / ".cache" / "repair" / time.strftime("%Y%m%d-%H%M%S")
        job_dir.mkdir(parents=True, exist_ok=True)
        self.log.clear()
        self.log.set_log_file(job_dir / "worker.log")
        self.status = None
        self.banner.hide()
        self.progress_bar.setRange(0, 0)
        self.progress_label.setText(self.tr("Starting pip…"))
        self._show_running(True)
        self._worker.start(RepairDoor(self.plan.job_spec(str(job_dir)), job_dir))

    def stop(self) -> None:
        if self.running:
            self._worker.stop()
            self.progress_label.setText(self.tr("Stopping…"))

    def _on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "repair_progress":
            fraction = event.get("fraction")
            if fraction is None:
                self.progress_bar.setRange(0, 0)
            else:
                self.progress_bar.setRange(0, 1000)
                self.progress_bar.setValue(int(fraction * 1000))
            self.progress_label.setText(str(event.get("text", "")))
            self.stop_button.setEnabled(bool(event.get("cancellable")))
        elif kind == "log":
            self.log.add(str(event.get("message", "")))
        elif kind == "warning":
            if event.get("code") == "repair-build-not-served" and isinstance(event.get("argv"), list):
                self.installing = [str(a) for a in event["argv"]]
                self.moved = str(event.get("message", ""))
                self.command.setPlainText(str(event.get("command") or " ".join(self.installing)))
            self.banner.show_message("warning", str(event.get("message", "")))

    def _on_ended(self, outcome: JobOutcome) -> None:
        self.status = outcome.status
        self._finish("\n".join(part for part in (outcome.message, outcome.hint) if part))

    def _finish(self, error: str) -> None:
        self.log.flush()
        self.progress_bar.setRange(0, 1000)
        self.progress_bar.setValue(1000 if self.status == "completed" else 0)
        torch = next((a.split("==", 1)[1] for a in self.installing if a.startswith("torch==")), "?")
        if self.status == "completed":
            self.progress_label.setText(self.tr("PyTorch {torch} is installed. The environment is being checked "
                                                "again.").format(torch=torch))
            self.banner.show_message("info", " ".join(filter(None, (self.moved, self.tr(
                "Repaired. Restart YOLO Studio so everything uses the new PyTorch.")))))
        elif self.status == "stopped":
            self.progress_label.setText(self.tr("Stopped before anything was replaced; PyTorch is unchanged."))
        else:
            self.progress_label.setText(self.tr("The repair failed; PyTorch was left as it was or as pip left it."))
            self.banner.show_message("error", error or self.tr("pip failed; see the log."))
            self.install_button.setText(self.tr("Try again"))
            self.install_button.setEnabled(True)
        self._show_running(False)
        if self.status == "completed":
            self.repaired.emit()

    def closeEvent(self, event: Any) -> None:
        if self.running:
            self.banner.show_message("warning", self.tr("pip is still running; stop it first (possible while it "
                                                        "downloads) or wait for it to finish."))
            event.ignore()
            return
        super().closeEvent(event)

    def reject(self) -> None:  # Esc
        if not self.running:
            super().reject()
