"""The Tune page: find better training settings with a hyperparameter search on Ray Tune (issue 24).

Before a search it says what is searched (yolov5's own evolve bounds, read from the installed yolov5 by
``core.tune.space``), the budget, and the trials the budget allows (from a wizard document's measured epoch
time when one is given, ``core.tune.plan.planned_trials``). Start checks the options and the dataset as
``yolostudio tune`` does (the door, ``core.usecases.tune``, off the GUI thread) and runs the ``tune`` worker job through
``JobRunner``; its ``trial`` events fill one row per trial and the chart of fitness by trial. Stop sends the
protocol's stop line (the search can be resumed: ``yolostudio tune … --resume NAME``). "Train with these" puts
the best trial's settings into the Train form. Without the ``tune`` extra the page shows its install command
and size instead. Ray is never imported here.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (QDoubleSpinBox, QFileDialog, QFormLayout, QGroupBox, QHBoxLayout, QHeaderView,
                               QLabel, QLineEdit, QPushButton, QSpinBox, QSplitter, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from core.job.jobs import JobOutcome
from core.model_catalog import DEFAULT_MODEL
from core.tune.extra import INSTALL_COMMAND, INSTALL_SIZE_MB
from core.tune.plan import planned_trials
from gui.job_runner import JobRunner, Launcher, default_launcher
from gui.pages.page import Page
from gui.tune import operations
from gui.tune.fitness_chart import FitnessChart
from gui.tune.trial_table import TrialTable
from gui.widgets.scrolled import FORM_HEIGHT, scrolled

if TYPE_CHECKING:  # the door arrives from gui/tune/operations.py, checked off the GUI thread
    from core.usecases.tune import TuneDoor

#: The options a search takes from the form; the rest are ``yolostudio train``'s defaults.
FORM_FIELDS = ("data", "model", "epochs", "imgsz", "device")
#: What "Train with these" puts into the Train form: the searched settings and the hyperparameter file.
TRAINED_FIELDS = ("hyp", "model", "imgsz", "batch", "data")


class TunePage(Page):
    searched = Signal(object)  # JobOutcome, when a search ended

    def __init__(self, workspace: Path, parent: QWidget | None = None, *,
                 launcher: Launcher = default_launcher) -> None:
        super().__init__(workspace, parent)
        self.runner = JobRunner(self, launcher=launcher)
        self.runner.event.connect(self._on_event)
        self.runner.ended.connect(self._on_ended)
        self.setup: operations.TuneSetup | None = None
        self.epoch_s: float | None = None
        self.best: dict[str, Any] | None = None
        self.tune_dir: Path | None = None
        self.stopped = False  # the last search was stopped: Resume continues it
        self.search_text = ""  # which search runs, and what its door warned of (stays above each stage's words)
        self._build()
        operations.load_setup(self, self._show_setup)

    # -- layout -------------------------------------------------------------------------------------
    def _build(self) -> None:
        root = QVBoxLayout(self)
        self.title_label = QLabel(self.tr("Tune: search for better training settings"), self)
        title_font = self.title_label.font()
        title_font.setPointSizeF(title_font.pointSizeF() * 1.3)
        title_font.setBold(True)
        self.title_label.setFont(title_font)
        root.addWidget(self.title_label)
        intro = QLabel(self.tr("Searches for better training settings: many short trainings side by side, one per "
                               "GPU (or CPU slot); the poor ones are stopped early and the next settings are "
                               "proposed from the finished ones. Each trial is an ordinary run."), self)
        intro.setWordWrap(True)
        root.addWidget(intro)
        self.install_box = QGroupBox(self.tr("Ray Tune is not installed"), self)
        install = QHBoxLayout(self.install_box)
        self.install_label = QLabel(self.tr("The search runs on Ray Tune, an optional extra (about {size} MB "
                                            "installed). Install it, then open this page again:")
                                    .format(size=INSTALL_SIZE_MB), self.install_box)
        self.install_label.setWordWrap(True)
        self.install_command = QLineEdit(INSTALL_COMMAND, self.install_box, readOnly=True)
        copy = QPushButton(self.tr("Copy"), self.install_box, clicked=self._copy_install)
        install.addWidget(self.install_label, 2)
        install.addWidget(self.install_command, 1)
        install.addWidget(copy)
        self.install_box.setVisible(False)
        root.addWidget(self.install_box)

        top_widget = QWidget(self)  # the form and the space scroll at a small height (1280×720 with the guide)
        top = QHBoxLayout(top_widget)
        top.setContentsMargins(0, 0, 0, 0)
        form_box = QGroupBox(self.tr("Search"), self)
        form = QFormLayout(form_box)
        self.data_edit = QLineEdit(form_box, placeholderText=self.tr("the dataset's data.yaml"))
        form.addRow(self.tr("Dataset"), self._with_browse(self.data_edit, self._browse_data))
        self.model_edit = QLineEdit(DEFAULT_MODEL, form_box)
        form.addRow(self.tr("Model"), self.model_edit)
        self.epochs_spin = QSpinBox(form_box, minimum=1, maximum=1000, value=30)
        self.epochs_spin.setToolTip(self.tr("The most epochs a trial may run; poor trials stop sooner."))
        form.addRow(self.tr("Epochs per trial (at most)"), self.epochs_spin)
        self.imgsz_spin = QSpinBox(form_box, minimum=32, maximum=1920, singleStep=32, value=640)
        form.addRow(self.tr("Image size"), self.imgsz_spin)
        self.device_edit = QLineEdit(form_box, placeholderText=self.tr("automatic (cpu or 0,1,…)"))
        form.addRow(self.tr("Device"), self.device_edit)
        self.budget_spin = QDoubleSpinBox(form_box, minimum=0.05, maximum=720.0, value=8.0, decimals=2)
        self.budget_spin.setSuffix(self.tr(" h"))
        form.addRow(self.tr("Time budget"), self.budget_spin)
        self.trials_spin = QSpinBox(form_box, minimum=0, maximum=10000, value=0)
        self.trials_spin.setSpecialValueText(self.tr("as many as the budget allows"))
        form.addRow(self.tr("Trials"), self.trials_spin)
        self.wizard_edit = QLineEdit(form_box, placeholderText=self.tr("optional: a saved wizard document"))
        self.wizard_edit.setToolTip(self.tr("Its measured epoch time gives the number of trials the budget allows "
                                            "(yolostudio wizard … --save FILE)."))
        form.addRow(self.tr("Wizard document"), self._with_browse(self.wizard_edit, self._browse_wizard))
        top.addWidget(form_box, 1)

        space_box = QGroupBox(self.tr("What is searched (yolov5's evolve bounds)"), self)
        space_layout = QVBoxLayout(space_box)
        self.space_table = QTableWidget(0, 4, space_box)
        self.space_table.setHorizontalHeaderLabels([self.tr("Hyperparameter"), self.tr("Low"), self.tr("High"),
                                                    self.tr("Scale")])
        self.space_table.verticalHeader().setVisible(False)
        self.space_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.space_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        space_layout.addWidget(self.space_table)
        top.addWidget(space_box, 1)
        root.addWidget(scrolled(top_widget, self, least=FORM_HEIGHT), 2)

        self.estimate_label = QLabel(self.tr("Reading this machine…"), self)
        self.estimate_label.setWordWrap(True)
        buttons = QHBoxLayout()  # the estimate beside the buttons: one row less, the page fits 1280×720 in Chinese
        self.start_button = QPushButton(self.tr("Start search"), self, clicked=lambda: self.start())
        self.stop_button = QPushButton(self.tr("Stop"), self, clicked=self.stop, enabled=False)
        self.resume_button = QPushButton(self.tr("Resume"), self, clicked=self.resume, enabled=False)
        self.resume_button.setToolTip(self.tr("Continue the stopped search: each stopped trial resumes its own run."))
        self.train_button = QPushButton(self.tr("Train with these"), self, clicked=self.train_with_best,
                                        enabled=False)
        self.train_button.setToolTip(self.tr("The best trial's settings into the Train form, for a full training."))
        for button in (self.start_button, self.stop_button, self.resume_button, self.train_button):
            buttons.addWidget(button)
        buttons.addSpacing(12)
        buttons.addWidget(self.estimate_label, 1)
        root.addLayout(buttons)
        self.status_label = QLabel("", self, wordWrap=True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        root.addWidget(self.status_label)

        live = QSplitter(Qt.Orientation.Horizontal, self)
        self.trials = TrialTable(live)
        self.chart = FitnessChart(live)
        live.addWidget(self.trials)
        live.addWidget(self.chart)
        live.setSizes([640, 360])
        root.addWidget(live, 3)

        for spin in (self.epochs_spin, self.trials_spin):
            spin.valueChanged.connect(self._show_estimate)
        self.budget_spin.valueChanged.connect(self._show_estimate)
        self.wizard_edit.editingFinished.connect(self._read_wizard)

    def _with_browse(self, edit: QLineEdit, browse: Any) -> QWidget:
        row = QWidget(self)
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(edit, 1)
        layout.addWidget(QPushButton(self.tr("Browse…"), row, clicked=browse))
        return row

    def on_bound(self) -> None:
        current = self.services.current
        current.dataset_changed.connect(self._follow_dataset)
        if current.dataset and not self.data_edit.text():
            self.data_edit.setText(current.dataset)

    def _follow_dataset(self, path: str) -> None:
        """The dataset chosen on another page (Train, a replayed run) fills the form — said, never silent; a
        resumed search keeps its own dataset whatever the form shows (the door)."""
        if self.runner.active or not path or path == self.data_edit.text().strip():
            return
        self.data_edit.setText(path)
        self.status_label.setText(self.tr("Dataset set to {path}, the one chosen on another page.").format(path=path))

    # -- before a search ----------------------------------------------------------------------------
    def _show_setup(self, setup: operations.TuneSetup) -> None:
        self.setup = setup
        self.install_box.setVisible(bool(setup.missing))
        self.space_table.setRowCount(len(setup.bounds) + len(setup.choices))
        for row, (name, low, high, log) in enumerate(setup.bounds):
            scale = self.tr("logarithmic") if log else self.tr("linear")
            for column, text in enumerate((name, f"{low:g}", f"{high:g}", scale)):
                self.space_table.setItem(row, column, QTableWidgetItem(text))
        for row, (name, values) in enumerate(setup.choices.items(), start=len(setup.bounds)):
            self.space_table.setItem(row, 0, QTableWidgetItem(name))
            self.space_table.setItem(row, 1, QTableWidgetItem(", ".join(map(str, values))))
        if setup.space_problem:
            self.status_label.setText(setup.space_problem)
        self._show_estimate()
        self._enable()

    def _read_wizard(self) -> None:
        text = self.wizard_edit.text().strip()
        if not text:
            self.epoch_s = None
            self._show_estimate()
            return
        operations.epoch_time(self, Path(text), self._got_epoch_time)

    def _got_epoch_time(self, epoch_s: float | None) -> None:
        self.epoch_s = epoch_s
        if epoch_s is None:
            self.status_label.setText(self.tr("{file} holds no measured epoch time (save it with yolostudio wizard "
                                              "… --save FILE).").format(file=self.wizard_edit.text().strip()))
        self._show_estimate()

    def estimate_text(self) -> str:
        if self.setup is None:
            return self.tr("Reading this machine…")
        slots, hours = self.setup.slots, self.budget_spin.value()
        trials = planned_trials(hours * 3600.0, self.epochs_spin.value(), slots, self.trials_spin.value() or None,
                                self.epoch_s)
        if self.trials_spin.value():
            return self.tr("{trials} trials, {slots} side by side, within {hours:g} h.").format(
                trials=trials, slots=slots, hours=hours)
        if self.epoch_s:
            return self.tr("The budget allows {trials} trials of {epochs} epochs, {slots} side by side (the wizard "
                           "measured {epoch:.0f} s per epoch).").format(trials=trials, epochs=self.epochs_spin.value(),
                                                                       slots=slots, epoch=self.epoch_s)
        return self.tr("As many trials as {hours:g} h allow, {slots} side by side. A wizard document gives the "
                       "count from its measured epoch time.").format(hours=hours, slots=slots)

    def _show_estimate(self) -> None:
        self.estimate_label.setText(self.estimate_text())

    def _enable(self) -> None:
        running = self.runner.active
        ready = self.setup is not None and not self.setup.missing and not self.setup.space_problem
        self.start_button.setEnabled(ready and not running)
        self.stop_button.setEnabled(running)
        self.train_button.setEnabled(self.best is not None and not running)
        self.resume_button.setEnabled(self.stopped and ready and not running)

    def form_values(self) -> dict[str, Any]:
        values: dict[str, Any] = {"data": self.data_edit.text().strip(), "model": self.model_edit.text().strip(),
                                  "epochs": self.epochs_spin.value(), "imgsz": self.imgsz_spin.value()}
        if self.device_edit.text().strip():
            values["device"] = self.device_edit.text().strip()
        return values

    # -- the search ---------------------------------------------------------------------------------
    def start(self, resume_dir: Path | None = None) -> bool:
        if self.runner.active or self.setup is None or self.setup.missing:
            return False
        self.start_button.setEnabled(False)
        self.resume_button.setEnabled(False)
        self.status_label.setText(self.tr("Checking the options and the dataset…"))
        operations.plan(self, self.form_values(), self.workspace, self.budget_spin.value() * 3600.0,
                        self.trials_spin.value() or None, self.epoch_s, self._planned, self._plan_failed,
                        resume_dir=resume_dir)
        return True

    def resume(self) -> bool:
        """Continue the stopped search in its own folder (Ray Tune's restore; ``yolostudio tune … --resume``)."""
        return self.stopped and self.tune_dir is not None and self.start(resume_dir=self.tune_dir)

    def _plan_failed(self, exc: BaseException) -> None:
        self.status_label.setText(self.tr("The search could not be planned: {reason}").format(reason=exc))
        self._enable()

    def _planned(self, door: TuneDoor) -> None:
        if door.plan is None:
            self.status_label.setText("\n".join(p.text() for p in door.preflight() if p.is_error))
            self._enable()
            return
        plan = door.plan
        self.tune_dir, self.best, self.stopped = plan.tune_dir, None, False
        if not plan.spec["resume"]:  # a resumed search's trials keep their rows
            self.trials.clear_trials()
            self.chart.show_trials([])
        warnings = [p.text() for p in door.preflight() if not p.is_error]
        self.search_text = "\n".join([self.tr("Search {name} in {path}.").format(
            name=plan.tune_dir.name, path=plan.tune_dir), *warnings])
        self.status_label.setText(self.search_text)
        self.runner.start(door)
        self._enable()

    def stop(self) -> bool:
        stopped = self.runner.stop()
        if stopped:
            self.status_label.setText(self.tr("Stopping: each running trial saves a checkpoint first…"))
        return stopped

    def _on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "trial":
            self.trials.update_trial(event)
            self.chart.show_trials([self.trials.rows[t] for t in self.trials.trial_ids()])
        elif kind == "stage":  # a stage's words replace the last stage's ("starting Ray" ends when trials start)
            detail = str(event.get("detail") or "") or (self.tr("Searching: the trials run below.")
                                                        if event.get("stage") == "tuning" else "")
            self.status_label.setText("\n".join(t for t in (self.search_text, detail) if t))
        elif kind == "done":
            for row in event.get("trials") or []:  # the search's last word on each trial (a Stop: "stopped")
                if row.get("trial") is not None and row != self.trials.rows.get(str(row["trial"])):
                    self.trials.update_trial(row)
            if event.get("trials"):
                self.chart.show_trials([self.trials.rows[t] for t in self.trials.trial_ids()])
            if event.get("best_trial"):
                self.best = dict(event["best_trial"])

    def _on_ended(self, outcome: JobOutcome) -> None:
        self.stopped = outcome.status == "stopped"
        if outcome.failed:
            words = outcome.message + (f" {outcome.hint}" if outcome.hint else "")
            self.status_label.setText(self.tr("The search failed: {reason}").format(reason=words))
        elif self.best is not None:
            self.status_label.setText(self.tr("Search {status}. Best: {run} (fitness {fitness:.4f}).").format(
                status=self.tr("stopped (Resume continues it; or yolostudio tune … --resume {name})").format(
                    name=self.tune_dir.name if self.tune_dir else "") if outcome.status == "stopped"
                else self.tr("completed"), run=Path(self.best["run"]).name, fitness=float(self.best["fitness"])))
        elif self.stopped:
            self.status_label.setText(self.tr("Search stopped: Resume continues it."))
        else:
            self.status_label.setText(self.tr("The search ended without a trial finishing an epoch."))
        self._enable()
        self.searched.emit(outcome)

    def train_with_best(self) -> bool:
        if self.best is None:
            return False
        operations.best_settings(self, Path(self.best["config_file"]), self._use_best)
        return True

    def _use_best(self, values: dict[str, Any]) -> None:
        apply = self.services.apply_to_next_run
        chosen = {k: values[k] for k in TRAINED_FIELDS if values.get(k) not in (None, "")}
        if apply is None or not apply(chosen, self.tr("the best trial of search {name}").format(
                name=self.tune_dir.name if self.tune_dir else "")):
            self.status_label.setText(self.tr("The best settings are in {file}: yolostudio train --config {file}")
                                      .format(file=self.best["config_file"] if self.best else ""))

    # -- small helpers ------------------------------------------------------------------------------
    def _copy_install(self) -> None:
        QGuiApplication.clipboard().setText(INSTALL_COMMAND)

    def _browse_data(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, self.tr("Dataset"), self.data_edit.text(), "data.yaml (*.yaml *.yml)")
        if name:
            self.data_edit.setText(name)

    def _browse_wizard(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, self.tr("Wizard document"), "", "JSON / YAML (*.json *.yaml *.yml)")
        if name:
            self.wizard_edit.setText(name)
            self._read_wizard()

    def can_leave(self) -> bool:
        return True
