"""The Train page: choose options, start / stop / resume a run, watch it learn, find its weights.

Owns the page's layout and display only, and calls two parts it owns: the options side (form, problems, demo
dataset, yolov5 line, applying prescriptions) is ``TrainOptionsPanel``; starting, resuming, following, stopping
and the next run are ``TrainRunControl`` (``control``), which answers through signals. A run is created, spec'd
and resumed by ``core.runs.store``; progress is
``core.run.progress.RunProgress`` (inside ``RunSession``, a ``gui.job_runner.JobRunner``); the worker is
started through an injectable ``launcher`` (production: the job's own argv), so tests drive the real page
with a fake worker. Slow work (the demo dataset, NVML facts) runs in the background; the display is
refreshed by timers, never per event.

Everything the run shows — progress, training and system plots, the bottleneck monitor's verdict, the
validation pictures — comes from the run's events, so a run started here, one re-attached to, and one
replayed from the Runs page (``open_run``) look the same.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QPaintEvent, QShortcut, QShowEvent
from PySide6.QtWidgets import (QComboBox, QGroupBox, QHBoxLayout, QLabel, QPushButton, QScrollArea, QSplitter,
                               QVBoxLayout, QWidget)

from core.job.jobs import JobOutcome
from core.environment.machine import MachineFacts
from core.training.config import ValidatedConfig
from gui.evaluate.evaluate_window import EvaluateWindow
from core.remote.machines import Machine
from gui.job_runner import Launcher, default_launcher
from gui.pages.page import Page
from gui.run_session import RunSession
from gui.run_text import ended_text, log_line, stage_text, summary_text
from gui.widgets.banner import Banner
from gui.widgets.deferred import DeferredWidget
from gui.widgets.diagnosis_banner import DiagnosisBanner
from gui.widgets.log_view import LogView
from gui.widgets.page_header import PageHeader
from gui.widgets.progress_panel import ProgressPanel
from gui.train.run_control import ATTACHED, PROBLEMS, TrainRunControl
from gui.train.run_status_panel import RunStatusPanel
from gui.train.fit_height import keep_log_in_sight, keep_whole_height
from gui.train import operations as train_operations
from gui.train.operations import RunEnd
from gui.train.train_options_panel import TrainOptionsPanel
from gui.train.val_images import ValImages
from gui.train.wizard_prediction import WizardPrediction

if TYPE_CHECKING:
    from gui.widgets.system_plots import SystemPlots
    from gui.widgets.training_plots import TrainingPlots

REFRESH_MS = 100
LOG_TAIL_LINES = 12
LOG_MIN_PX = 160  # the log pane keeps at least this when the completion card appears


def _training_plots(parent: QWidget) -> TrainingPlots:
    from gui.widgets.training_plots import TrainingPlots  # noqa: PLC0415 - pyqtgraph when a plot is first shown

    return TrainingPlots(parent)


def _system_plots(parent: QWidget) -> SystemPlots:
    from gui.widgets.system_plots import SystemPlots  # noqa: PLC0415 - pyqtgraph when a plot is first shown

    return SystemPlots(parent)


class TrainPage(Page):
    summary_changed = Signal(str)  # the status bar's glance at the run
    run_ended = Signal(object)  # JobOutcome

    def __init__(self, workspace: Path, parent: QWidget | None = None, *, launcher: Launcher = default_launcher,
                 prepare_demo: bool = True, machine_facts: MachineFacts | None = None) -> None:
        super().__init__(workspace, parent)
        self._prepare_demo = prepare_demo
        self._shown_once = False
        self._dirty = False
        self._summary = ""
        self._problems_banner = False  # the banner says "fix the problems first"
        self._attached_banner = False  # the banner says "Re-attached to run …": it goes when that run ends
        self._dataset_after_run: str | None = None  # the app's dataset changed while a run trained

        self.options = TrainOptionsPanel(self.workspace, self, machine_facts=machine_facts)
        self.control = control = TrainRunControl(self.workspace, self.options, launcher,
                                                 lambda: self.services.current.show_train(), self)
        self.start_button = QPushButton(self.tr("Start"), self, clicked=control.start_run, default=True)
        self.start_button.setToolTip(self.tr("Start training with these options (Ctrl+Enter)"))
        self.stop_button = QPushButton(self.tr("Stop"), self, clicked=control.stop_run)
        self.stop_button.setToolTip(self.tr("Finish the current batch, save a checkpoint, then stop"))
        self.kill_button = QPushButton(self.tr("Kill"), self, clicked=control.kill_run, visible=False)
        self.kill_button.setToolTip(self.tr("End the training process at once (asks first)"))
        self.resume_button = QPushButton(self.tr("Resume"), self, clicked=control.resume_run)
        self.cancel_button = QPushButton(self.tr("Cancel"), self, clicked=control.cancel_start, visible=False)
        self.cancel_button.setToolTip(self.tr("Stop sending the dataset; nothing is started there"))
        # Where the run trains: this computer, or a machine of the Machines page (its dataset is sent there first)
        self.machine_label = QLabel(self.tr("Train on"), self)
        self.machine_choice = QComboBox(self)
        self.machine_choice.setToolTip(self.tr("Where the run trains: this computer, or a machine added on the "
                                               "Machines page (the dataset is sent there; the run keeps going if "
                                               "the link drops)"))
        self.machine_choice.addItem(self.tr("This computer"), "")
        self.machine_choice.currentIndexChanged.connect(self._machine_chosen)
        self.machine_label.setBuddy(self.machine_choice)
        self.header = PageHeader(
            self.tr("Train"),
            self.tr("Train a YOLOv5 model on your dataset, watch it learn, and find its weights when it is done."),
            [self.machine_label, self.machine_choice, self.start_button, self.cancel_button, self.stop_button,
             self.kill_button, self.resume_button], self)
        self.banner = Banner(self)

        self.options.checked.connect(self._on_checked)
        self.options.notify.connect(self._notify)
        self.options.show_dataset_requested.connect(self._show_dataset_page)
        self.form, self.problems = self.options.form, self.options.problems
        self.progress_panel = ProgressPanel(self)
        self.status_panel = RunStatusPanel(self)
        self.status_panel.resume_requested.connect(control.resume_run)
        self.status_panel.more_epochs_requested.connect(control.train_more)
        self.status_panel.evaluate_requested.connect(self.evaluate_run)
        self.diagnosis = DiagnosisBanner(self)
        self.diagnosis.apply_requested.connect(self.options.apply_changes)
        self.wizard_prediction = WizardPrediction(self)  # a run from the wizard: predicted vs measured
        self.wizard_prediction.review_requested.connect(lambda: self.services.current.show_requested.emit("wizard"))
        # Built with the first run shown (start-up never imports pyqtgraph): ``plots`` / ``system_plots``.
        self._plots = DeferredWidget(_training_plots, self.tr("Losses, metrics and the learning rate are plotted "
                                                              "here once a run starts or is opened."), self)
        self._system_plots = DeferredWidget(_system_plots, self.tr("GPU, CPU, memory, disk and data-wait "
                                                                   "figures appear here while a run trains."), self)
        self.val_images = ValImages(self)
        self.log_view = LogView(self)
        self._build_layout()
        control.notify.connect(self._control_notify)
        control.state_changed.connect(self._run_state_changed)
        control.session_created.connect(self._show_new_session)
        control.launched.connect(self._launched)
        control.ended.connect(self._show_end)
        control.copy_progress.connect(self.start_button.setText)

        QShortcut(QKeySequence("Ctrl+Return"), self, control.start_run,
                  context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self._refresh_timer = QTimer(self, interval=REFRESH_MS, timeout=self._refresh_if_dirty)
        self._refresh_timer.start()
        self.revalidate()

    def _build_layout(self) -> None:
        scroll = QScrollArea(self, widgetResizable=True, frameShape=QScrollArea.Shape.NoFrame)
        scroll.setWidget(self.options)
        scroll.setMinimumWidth(400)
        self.run_box = run_box = QGroupBox(self.tr("Progress"), self)
        run_layout = QVBoxLayout(run_box)
        live_row, progress_column = QHBoxLayout(), QVBoxLayout()
        progress_column.addWidget(self.diagnosis)
        progress_column.addWidget(self.wizard_prediction)
        progress_column.addWidget(self.progress_panel)
        progress_column.addStretch(1)
        live_row.addLayout(progress_column, 3)
        live_row.addWidget(self.val_images, 2)
        run_layout.addLayout(live_row)
        run_layout.addWidget(self.status_panel)  # the completion card spans the pane: never wider than it
        keep_whole_height(run_box)  # wrapped progress lines, the bottleneck card, the completion card: never squashed
        system_box = QGroupBox(self.tr("Machine while training"), self)
        system_layout = QVBoxLayout(system_box)
        system_layout.setContentsMargins(6, 4, 6, 4)
        system_layout.addWidget(self._system_plots)
        right = QSplitter(Qt.Orientation.Vertical, self, childrenCollapsible=False)
        right.addWidget(run_box)
        right.addWidget(self.log_view)  # under the progress: the completion card never pushes it out of sight
        right.addWidget(self._plots)
        right.addWidget(system_box)
        for index, stretch in enumerate((0, 1, 3, 2)):
            right.setStretchFactor(index, stretch)
        self._live_splitter, self._system_box = right, system_box
        self.log_view.setMinimumHeight(LOG_MIN_PX)  # no pane above may squeeze the log away
        self.log_view.enlarge_toggled.connect(self._enlarge_log)
        body = QSplitter(Qt.Orientation.Horizontal, self, childrenCollapsible=False)
        body.addWidget(scroll)
        # The live view is dense (progress, bottleneck verdict, pictures, three plots, the machine strip, the log): on a
        # short screen it scrolls instead of forcing the window taller than the screen.
        right_scroll = QScrollArea(self, widgetResizable=True, frameShape=QScrollArea.Shape.NoFrame)
        right_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        right_scroll.setWidget(right)
        body.addWidget(right_scroll)
        body.setStretchFactor(1, 1)
        body.setSizes([430, 900])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 8)
        layout.addWidget(self.header)
        layout.addWidget(self.banner)
        layout.addWidget(body, 1)

    # -- state --------------------------------------------------------------------------------------
    @property
    def plots(self) -> TrainingPlots:
        return self._plots.widget()  # type: ignore[return-value]

    @property
    def system_plots(self) -> SystemPlots:
        return self._system_plots.widget()  # type: ignore[return-value]

    @property
    def session(self) -> RunSession | None:
        """The run on screen (``control``'s)."""
        return self.control.session

    @property
    def active(self) -> bool:
        return self.control.active

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.refresh_machines()  # added on the Machines page since: offered here
        if not self._shown_once and self._prepare_demo and not self.options.has_dataset:
            self.options.expect_demo_dataset()  # the first paint says "Preparing…", not "No dataset chosen"
        elif self._shown_once and not self.active:
            self.options.recheck_dataset()  # back from fixing it elsewhere: only changed files are read

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._shown_once:  # once the window is on screen: start-up paints before any slow work
            self._shown_once = True
            if self._prepare_demo and not self.options.has_dataset:
                QTimer.singleShot(0, self, self._prepare_demo_if_needed)

    def _prepare_demo_if_needed(self) -> None:
        if not self.options.has_dataset and self.session is None:  # a run on screen brings its own dataset
            self.options.prepare_demo_dataset()
        else:  # a dataset came first (a re-attached run's, the app's current one): no demo after all
            self.options.drop_demo_expectation()

    def on_bound(self) -> None:
        """The app's current dataset: this form follows it, and a dataset chosen here becomes it."""
        current = self.services.current
        self.services.runs.changed.connect(self.control.runs_listed)  # a deleted run is no longer offered
        current.dataset_changed.connect(self._follow_dataset)
        self.options.dataset_chosen.connect(current.set_dataset)
        if self.last_checked is not None and self.last_checked.data_path is not None:
            current.set_dataset(str(self.last_checked.data_path))
        elif current.dataset:
            self._follow_dataset(current.dataset)

    def _follow_dataset(self, path: str) -> None:
        if self.active:  # the form shows the training run's own options: the new dataset is for the next run
            self._dataset_after_run = path
            return
        checked = self.last_checked
        if checked is None or checked.data_path is None or str(checked.data_path) != path:
            self.form.set_data_path(path)
            self.revalidate()

    def on_dataset_saved(self, path: Path) -> None:
        """A data.yaml was saved on the Dataset page: when it is this form's, its check is stale — check again
        (the validator's cache reads only what changed). A training run's form is checked when the run ends."""
        checked = self.last_checked
        if self.active or checked is None or checked.data_path is None:
            return
        if Path(path).resolve() == Path(checked.data_path).resolve():
            self.options.recheck_dataset()

    def refresh(self) -> None:
        """F5: check the options and the dataset again (files may have changed on disk)."""
        self.options.recheck_dataset()

    # -- the machine choice --------------------------------------------------------------------------
    def refresh_machines(self) -> None:
        """The workspace's machines, read off the GUI thread, into the choice (the current one kept)."""
        train_operations.list_machines(self, self.workspace).success(self._show_machines).run()

    def _show_machines(self, machines: list[Machine]) -> None:
        current = self.machine_choice.currentData() or ""
        names = [m.name for m in machines]
        if [self.machine_choice.itemData(i) for i in range(1, self.machine_choice.count())] == names:
            return
        self.machine_choice.blockSignals(True)
        while self.machine_choice.count() > 1:
            self.machine_choice.removeItem(1)
        for machine in machines:
            self.machine_choice.addItem(self.tr("{name} (SSH: {dest})").format(name=machine.name, dest=machine.ssh),
                                        machine.name)
        index = self.machine_choice.findData(current)
        self.machine_choice.setCurrentIndex(max(0, index))
        self.machine_choice.blockSignals(False)
        self._machine_chosen()

    def choose_machine(self, name: str) -> bool:
        """Choose where the next run trains ('' for this computer); False when no such machine is offered."""
        index = self.machine_choice.findData(name)
        if index < 0:
            return False
        self.machine_choice.setCurrentIndex(index)
        return True

    def _machine_chosen(self) -> None:
        name = str(self.machine_choice.currentData() or "")
        self.control.machine_name = name
        if not name:
            self.options.use_machine_facts(None)  # this computer's GPUs again
        else:  # the options are checked on that machine's GPUs, as its last check found them
            train_operations.read_machine_facts(self, self.workspace, name) \
                .success(lambda facts: self._machine_facts_read(name, facts)).run()
        self._update_buttons()

    def _machine_facts_read(self, name: str, facts: MachineFacts | None) -> None:
        if self.control.machine_name != name:
            return  # chosen otherwise meanwhile
        self.options.use_machine_facts(facts)
        if facts is None:
            self._notify("info", self.tr("{name} has not been checked yet: these options are checked on this "
                                         "computer's GPUs. Check it on the Machines page to check them on its "
                                         "own.").format(name=name))

    # -- options (``TrainOptionsPanel``) --------------------------------------------------------------
    @property
    def last_checked(self) -> ValidatedConfig | None:
        return self.options.last_checked

    def revalidate(self) -> ValidatedConfig:
        return self.options.revalidate()

    def _on_checked(self, checked: ValidatedConfig) -> None:
        if self.options.ready and self._problems_banner:
            self.banner.hide()
        self._update_buttons()

    # -- events (cheap: buffers only; timers draw) --------------------------------------------------
    def _on_event(self, event: dict[str, Any]) -> None:
        self.plots.add_event(event)
        self.wizard_prediction.feed(event)
        self.system_plots.add_event(event)
        kind = event.get("type")
        if kind == "diagnosis":
            self.diagnosis.show_diagnosis(event)
        elif kind == "epoch_end" and self.session is not None:
            self.val_images.request(self.session.run_dir)
        line = log_line(event)
        if line is not None:
            self.log_view.add(line)
        self._dirty = True

    def evaluate_run(self, run_dir: Path) -> EvaluateWindow:
        """The completion card's Evaluate: the run's evaluation in a window of its own."""
        window = EvaluateWindow(Path(run_dir), self.workspace, self, launcher=self.control.launcher)
        window.show()
        return window

    def _show_end(self, outcome: JobOutcome, run_dir: Path, end: RunEnd) -> None:
        session = self.session
        if session is not None and session.run_dir == run_dir and not self.active:  # still the run on screen
            tail = self.log_view.last_lines(LOG_TAIL_LINES)
            if outcome.failed and end.worker_log:
                tail += [self.tr("— last lines of worker.log —"), *end.worker_log]
            self.status_panel.show_outcome(outcome, run_dir=run_dir, progress=session.progress, log_tail=tail,
                                           can_resume=end.can_resume)
            self.status_panel.show_duration(run_dir, end.duration_s)  # the Runs page's figure (every start)
            if session.remote is not None:  # trained elsewhere: nothing of it is here until fetched
                self.status_panel.hide_local_actions()
            self._keep_log_in_sight()
            self.plots.refresh()
            self.system_plots.refresh()
            self.val_images.request(run_dir)  # yolov5 draws its pictures in the final validation
            self.log_view.flush()
            self._dirty = True
            self._refresh_if_dirty()
            self._update_buttons()
        if self._attached_banner:  # "Re-attached to run …" said while it trained; the card says how it ended
            self.banner.hide()
            self._attached_banner = False
        if self._dataset_after_run is not None and not self.active:  # chosen elsewhere while the run trained
            path, self._dataset_after_run = self._dataset_after_run, None
            self._follow_dataset(path)
        self.run_ended.emit(outcome)

    def _refresh_if_dirty(self) -> None:
        if not self._dirty or self.session is None:
            return
        self._dirty = False
        progress, outcome = self.session.progress, self.session.outcome
        self.progress_panel.show_progress(self.tr("Run {name}").format(name=self.session.name), progress, outcome)
        if self.active:
            summary = summary_text(self.session.name, progress)
        else:
            state = ended_text(outcome, with_message=False) if outcome is not None else stage_text(progress)
            summary = self.tr("Last run {name}: {state}").format(name=self.session.name, state=state)
        if summary != self._summary:
            self._summary = summary
            self.summary_changed.emit(summary)

    def _show_dataset_page(self) -> None:
        """The dataset check's errors, shown where they can be fixed (the Dataset page, with one-click fixes)."""
        current = self.services.current
        if self.last_checked is not None and self.last_checked.data_path is not None:
            current.set_dataset(str(self.last_checked.data_path))
        current.show_dataset()

    def _notify(self, level: str, text: str, *, about_problems: bool = False) -> None:
        self.banner.show_message(level, text)
        self._problems_banner = about_problems  # hidden again as soon as the options are fine
        self._attached_banner = False

    def _enlarge_log(self, on: bool) -> None:
        """The log takes the charts' room (and gives it back): reading a long log needs more than a strip."""
        self._plots.setVisible(not on)
        self._system_box.setVisible(not on)

    def _keep_log_in_sight(self) -> None:
        """The completion card grows the top pane: the room comes from the charts, never from the log."""
        keep_log_in_sight(self._live_splitter, self.run_box, LOG_MIN_PX)

    # -- what ``control`` says ------------------------------------------------------------------------
    def _control_notify(self, level: str, text: str, kind: str) -> None:
        self._notify(level, text, about_problems=kind == PROBLEMS)
        self._attached_banner = kind == ATTACHED

    def _run_state_changed(self) -> None:
        self._dirty = True
        self._update_buttons()

    def _launched(self) -> None:
        self.status_panel.clear()
        self.banner.hide()
        self._problems_banner = False

    def _show_new_session(self, session: RunSession, worker_log: Path) -> None:
        """A run comes on screen: everything it shows starts empty and fills from its events."""
        session.event.connect(self._on_event)
        session.text.connect(self.log_view.add)
        self.plots.clear()
        self.system_plots.clear()
        self.diagnosis.clear()
        self.val_images.clear()
        self.log_view.clear()
        self.log_view.set_log_file(worker_log)
        self.status_panel.clear()
        self.wizard_prediction.load(session.run_dir)

    def _update_buttons(self) -> None:
        active = self.active
        stopping = active and self.session.stopping
        self.form.setEnabled(not active)  # a training run's settings, read-only until it ends
        self.options.setTitle(self.tr("Options of run {name} (read-only while it trains)").format(
            name=self.session.name) if active else self.tr("Options for the next run"))
        self.options.set_running(self.session.name if active else None)  # no "Ready to train" while it trains
        ok = self.options.ready
        copying = self.control.starting
        self.cancel_button.setVisible(self.control.remote_start.busy)
        self.machine_choice.setEnabled(not active and not copying)
        self.start_button.setEnabled(not active and ok and not copying)
        if not copying:
            self.start_button.setText(self.tr("Start"))
        self.start_button.setToolTip(
            self.tr("A run is active: stop it, or wait for it to finish, first.") if active else
            self.tr("Send the dataset to {name} and start training there, detached: it keeps going if the link "
                    "drops (Ctrl+Enter)").format(name=self.control.machine_name)
            if ok and self.control.machine_name else
            self.tr("Start training with these options (Ctrl+Enter)") if ok else
            self.tr("Checking the dataset before training…") if self.options.checking_dataset else
            self.tr("Fix the problems listed under the options first."))
        self.stop_button.setEnabled(active and not stopping)
        self.stop_button.setText(self.tr("Stopping…") if stopping else self.tr("Stop"))
        self.kill_button.setVisible(stopping and self.session.remote is None)  # over ssh: stop only
        resumable = self.control.resumable_run
        self.resume_button.setEnabled(not active and resumable is not None)
        self.resume_button.setToolTip(
            self.tr("Resume run {name} from its last checkpoint: an epoch interrupted by a stop is redone from its "
                    "first batch, starting from the weights reached").format(name=resumable.name)
            if resumable is not None else self.tr("Nothing to resume: no stopped or failed run with a "
                                                           "checkpoint."))
