"""The Wizard page: Hardware → Dataset → Goal → Measure → Review, then Train (or copy the commands).

Owns the page's flow only; every decision is ``core.wizard`` (the same ``read_inputs``, ``measure_spec``,
``recommend`` and ``result_document`` as ``yolostudio wizard``), so the page and the terminal recommend the
same settings. The steps' widgets are ``gui.wizard.wizard_steps`` and ``wizard_review``; every core call is an
operation of ``gui.wizard.operations`` (off the GUI thread), the measurements are the ``wizard_measure``
worker job through ``JobRunner`` (progress per step, Cancel kills it and keeps what was measured).
"Train with these settings" first makes or refreshes the prepared copy the recommendation asks for (the
same ``copy_for_training`` as ``yolostudio train --config``), then hands the config and the prediction to the
Train page (``services.use_wizard``) and says so (``applied``: the guide's step 3 is done then, not before).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QHBoxLayout, QListWidget, QProgressBar, QPushButton, QScrollArea, QStackedWidget,
                               QVBoxLayout, QWidget)

from core.job.jobs import JobOutcome
from core.wizard.inputs import Goal, Hardware, Measurements, hardware_from_facts, measurements_from_json
from core.wizard.prepared_copy import copy_words, request_of
from core.usecases.jobs import WizardMeasureDoor
from core.wizard.session import MEASURE_TIMEOUT_S, measure_spec
from gui.job_runner import JobRunner, Launcher, default_launcher
from gui.pages.page import Page
from gui.widgets.banner import Banner
from gui.widgets.page_header import PageHeader
from gui.widgets.start_hint import StartHint
from gui.weights.weights_dialog import WeightsDialog
from gui.wizard import operations
from gui.wizard.operations import Recommended
from gui.wizard.wizard_review import WizardReview
from gui.wizard.wizard_steps import DatasetStep, GoalStep, HardwareStep, MeasureStep

HARDWARE, DATASET, GOAL, MEASURE, REVIEW = range(5)


class WizardPage(Page):
    applied = Signal(dict)  # the recommendation went to the Train form (its document)
    recommended = Signal()  # a new recommendation is on the Review step

    def __init__(self, workspace: Path, parent: QWidget | None = None, *, launcher: Launcher = default_launcher,
                 facts: Any = None) -> None:
        super().__init__(workspace, parent)
        self._facts = facts
        self.hardware: Hardware | None = None
        self.summary_ds: Any = None
        self.measurements: Measurements | None = None
        self.doc: dict[str, Any] | None = None
        self._rec: Any = None
        self._final: dict[str, Any] = {}
        self._launcher = launcher
        self.weights_dialog: WeightsDialog | None = None
        self._runner = JobRunner(self, launcher=launcher, timeout_s=MEASURE_TIMEOUT_S)
        self._runner.event.connect(self._on_event)
        self._runner.ended.connect(self._on_measured)
        self._cancelled = False
        self.steps = QListWidget(self)
        self.steps.setAccessibleName(self.tr("Wizard steps"))
        for title in (self.tr("1  Hardware"), self.tr("2  Dataset"), self.tr("3  Goal"), self.tr("4  Measure"),
                      self.tr("5  Review")):
            self.steps.addItem(title)
        self.steps.setMaximumWidth(150)
        self.steps.currentRowChanged.connect(self._go)
        self.stack = QStackedWidget(self)
        self.banner = Banner(self)
        self.back_button = QPushButton(self.tr("< &Back"), self, clicked=lambda: self._go(self.stack.currentIndex() - 1))
        self.next_button = QPushButton(self.tr("&Next >"), self, clicked=self._next)
        self.train_button = QPushButton(self.tr("&Train with these settings"), self, clicked=self.train)
        self.header = PageHeader(self.tr("Wizard"), self.tr(
            "Measures what this machine can feed and compute, then recommends batch, workers, cache, image size "
            "and model — each with its reason."), [], self)
        self.hardware_step, self.dataset_step = HardwareStep(self), DatasetStep(self)
        self.goal_step, self.measure_step = GoalStep(self), MeasureStep(self)
        for step in (self.hardware_step, self.dataset_step, self.goal_step, self.measure_step):
            self.stack.addWidget(step)
        self.hardware_step.changed.connect(self._invalidate)
        self.goal_step.changed.connect(self._invalidate)
        self.dataset_step.chosen.connect(self.read_dataset)
        self.measure_step.measure_button.clicked.connect(self.measure)
        self.measure_step.skip_button.clicked.connect(lambda: self.finish(Measurements(
            failures={"measure": self.tr("skipped")})))
        self.measure_step.cancel_button.clicked.connect(self.cancel)
        # The steps' fields, by the names the page's callers and tests use.
        self.data_edit, self.dataset_text = self.dataset_step.edit, self.dataset_step.text
        self.hardware_text, self.gpu_list = self.hardware_step.text, self.hardware_step.gpu_list
        self.goal_buttons, self.budget_check = self.goal_step.buttons, self.goal_step.budget_check
        self.budget_hours, self.imgsz_check, self.imgsz_spin = (self.goal_step.budget_hours,
                                                                self.goal_step.imgsz_check, self.goal_step.imgsz_spin)
        self.measure_button, self.skip_button = self.measure_step.measure_button, self.measure_step.skip_button
        self.cancel_button, self.measure_list = self.measure_step.cancel_button, self.measure_step.list
        self.measure_bar = self.measure_step.bar
        self.review = WizardReview(self)
        self.review.copied.connect(lambda text: self.banner.show_message("info", self.tr("Copied.")))
        self.prepare_button = QPushButton(self.tr("&Prepare the resized copy"), self,
                                          clicked=lambda: self.prepare_copy())
        self.prepare_bar = QProgressBar(self, visible=False)
        # What the recommended run starts from; "Get yolov5s.pt…" when the pretrained checkpoint is not here.
        self.start_hint = StartHint(self, switches=False)
        self.start_hint.get_requested.connect(lambda name: self.open_weights(get=name))
        self.start_hint.manage_requested.connect(self.open_weights)
        review = QWidget(self)
        rl = QVBoxLayout(review)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.review, 1)
        rl.addWidget(self.start_hint)
        row = QHBoxLayout()
        row.addWidget(self.prepare_button)
        row.addWidget(self.prepare_bar, 1)
        rl.addLayout(row)
        scroll = QScrollArea(self)  # the longest step scrolls at a small height instead of pushing the guide out
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(review)
        self.stack.addWidget(scroll)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.back_button)
        buttons.addWidget(self.next_button)
        buttons.addWidget(self.train_button)
        body = QHBoxLayout()
        body.addWidget(self.steps)
        body.addWidget(self.stack, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 8)
        layout.addWidget(self.header)
        layout.addWidget(self.banner)
        layout.addLayout(body, 1)
        layout.addLayout(buttons)
        self.steps.setCurrentRow(HARDWARE)
        self._go(HARDWARE)
        self.read_hardware()

    def _go(self, index: int) -> None:
        index = max(HARDWARE, min(REVIEW, index))
        if index == REVIEW and self.doc is None:
            index = MEASURE
        self.stack.setCurrentIndex(index)
        if self.steps.currentRow() != index:
            self.steps.blockSignals(True)
            self.steps.setCurrentRow(index)
            self.steps.blockSignals(False)
        self.back_button.setEnabled(index > HARDWARE)
        self.next_button.setVisible(index < MEASURE)
        self.next_button.setEnabled(index != DATASET or self.summary_ds is not None)
        self.train_button.setVisible(index == REVIEW)

    def _next(self) -> None:
        self._go(self.stack.currentIndex() + 1)

    def show_step(self, index: int) -> None:
        self._go(index)

    def _invalidate(self) -> None:
        """A changed choice makes the last recommendation stale."""
        self.doc = None

    # -- hardware and dataset ----------------------------------------------------------------------
    def read_hardware(self) -> None:
        operations.read_machine(self, self._facts, self._show_hardware, what=self.tr("Reading this machine"))

    def _show_hardware(self, facts: Any) -> None:
        self._facts = facts
        self.hardware_step.show_facts(facts)
        self.goal_step.cpu_note.setVisible(not facts.nvml.gpus)

    def chosen_gpus(self) -> list[int]:
        return self.hardware_step.chosen_gpus()

    def on_bound(self) -> None:
        self.services.current.dataset_changed.connect(self._follow_dataset)
        if self.services.current.dataset and not self.data_edit.text():
            self._follow_dataset(self.services.current.dataset)

    def _follow_dataset(self, path: str) -> None:
        if path and path != self.data_edit.text():
            self.data_edit.setText(path)
            self.read_dataset()

    def read_dataset(self) -> None:
        path = Path(self.data_edit.text().strip()).expanduser()
        self.summary_ds = None
        self._invalidate()
        self._go(self.stack.currentIndex())
        if not path.is_file():
            self.dataset_text.setText(self.tr("{path} does not exist.").format(path=path) if str(path) != "." else
                                      self.tr("Choose the data.yaml to train on."))
            return
        self.dataset_text.setText(self.tr("Checking the dataset…"))
        operations.read_dataset(self, path, self.workspace, self._facts, self._show_dataset,
                                lambda exc: self.dataset_text.setText(
                                    self.tr("Cannot read the dataset: {reason}").format(reason=exc)),
                                what=self.tr("Checking the dataset"))

    def _show_dataset(self, result: tuple) -> None:
        _hw, ds, report = result
        self.summary_ds = ds
        self.dataset_step.show_summary(ds, report)
        self._go(self.stack.currentIndex())

    def goal(self) -> Goal:
        return self.goal_step.goal()

    def _inputs(self) -> tuple[Hardware, Any] | None:
        if self._facts is None or self.summary_ds is None:
            self.banner.show_message("warning", self.tr("Choose a dataset first (step 2)."))
            self._go(DATASET if self._facts is not None else HARDWARE)
            return None
        gpus = self.chosen_gpus() if self._facts.nvml.gpus else []
        return hardware_from_facts(self._facts, gpus), self.summary_ds

    # -- measuring ---------------------------------------------------------------------------------
    def measure(self) -> bool:
        inputs = self._inputs()
        if inputs is None or self._runner.active:
            return False
        hw, ds = inputs
        self._final = {}
        self._cancelled = False
        self.measure_step.start()
        try:
            door = WizardMeasureDoor(measure_spec(hw, ds, self.goal(), self.workspace), self.workspace)
            self._runner.start(door)
        except OSError as exc:
            self.measure_step.set_measuring(False)
            self.banner.show_message("error", self.tr("Cannot start measuring: {reason}").format(reason=exc))
            return False
        return True

    def cancel(self) -> None:
        if self._runner.active:
            self._cancelled = True
            self._runner.stop()

    def _on_event(self, event: dict[str, Any]) -> None:
        if event.get("type") == "done":
            self._final = event
        if event.get("type") == "wizard_step":
            self.measure_step.show_step(event)

    def _on_measured(self, outcome: JobOutcome) -> None:
        self.measure_step.set_measuring(False)
        m = measurements_from_json(self._final.get("measurements") or {})
        if outcome.status == "failed":
            m.failures.setdefault("measure", outcome.message or self.tr("the measure job failed"))
            self.banner.show_message("warning", self.tr("Measuring failed: {reason}. The settings it would have "
                                                        "decided are estimated.").format(reason=outcome.message))
        elif outcome.status == "stopped" or self._cancelled:
            m.failures.setdefault("measure", self.tr("cancelled"))
        self.finish(m)

    def finish(self, m: Measurements) -> None:
        """Recommend from ``m`` (off the GUI thread: the weights store and the copy's manifest are read)."""
        inputs = self._inputs()
        if inputs is None:
            return
        hw, ds = inputs
        self.measurements = m
        self.train_button.setEnabled(False)
        operations.recommend_settings(self, hw, ds, self.goal(), m, self.workspace, self._show_recommended,
                                      what=self.tr("Recommending the settings"))

    def _show_recommended(self, result: Recommended) -> None:
        rec, choice = result.rec, result.start
        self._rec, self.doc = rec, result.doc
        self.review.show_document(self.doc)
        fine_tunes = choice.checkpoint is not None and choice.weights is not None
        self.start_hint.show_choice(choice, choice.checkpoint.file_name if fine_tunes else "")
        self.prepare_button.setVisible(rec.prepare_imgsz is not None and rec.config["data"] == self.doc["source_data"])
        self.train_button.setEnabled(True)
        self._go(REVIEW)
        self.recommended.emit()

    # -- actions -------------------------------------------------------------------------------------
    def prepare_copy(self, then: Any = None) -> bool:
        """Make or refresh the copy the recommendation asks for (progress on the Review step); ``then(doc)``
        gets the document pointed at the up-to-date copy. False when there is nothing to prepare."""
        request = request_of(self.doc, "") if self.doc is not None else None
        if request is None:
            return False
        self._prepared(True)

        def done(result: Any) -> None:
            self._prepared(False)
            self.banner.show_message("info", copy_words(result, request))
            if then is not None and self.doc is not None:  # the same document, on the copy that is fresh now
                then({**self.doc, "config": {**self.doc["config"], "data": str(result.data_yaml)}})
            elif self.measurements is not None:
                self.finish(self.measurements)  # recommended again: the commands now name the copy

        def failed(exc: BaseException) -> None:
            self._prepared(False)
            self.banner.show_message("error", self.tr("Preparing the copy failed: {reason}").format(reason=exc))

        operations.prepare_copy(self, request, self.workspace, done, failed, lambda d, t: (
            self.prepare_bar.setMaximum(t), self.prepare_bar.setValue(d)), what=self.tr("Preparing the resized copy"))
        return True

    def _prepared(self, busy: bool) -> None:
        self.prepare_bar.setVisible(busy)
        self.prepare_button.setEnabled(not busy)
        self.train_button.setEnabled(not busy)

    def open_weights(self, get: str = "") -> WeightsDialog:
        """The Weights dialog; with ``get`` it asks to download that checkpoint at once. When one arrives or
        goes, the recommendation is made again from the same measurements (fine-tune instead of scratch)."""
        if self.weights_dialog is None:
            self.weights_dialog = WeightsDialog(self.workspace, self, launcher=self._launcher)
            self.weights_dialog.changed.connect(self._on_weights_changed)
        self.weights_dialog.offer(str((self._rec.config if self._rec else {}).get("model", "")), get)
        return self.weights_dialog

    def _on_weights_changed(self) -> None:
        if self.measurements is not None and self.stack.currentIndex() == REVIEW:
            self.finish(self.measurements)

    def train(self) -> bool:
        """Hand the recommendation to the Train page — on the up-to-date prepared copy when it asks for one."""
        if self.doc is None:
            return False
        if self.services.use_wizard is None:
            self.banner.show_message("warning", self.tr("The Train page is not available here."))
            return False
        if self.prepare_copy(then=self._hand_over):
            return True  # handed over once the copy is ready
        return self._hand_over(self.doc)

    def _hand_over(self, doc: dict[str, Any]) -> bool:
        use = self.services.use_wizard
        if use is None or not use(doc):
            return False
        self.applied.emit(doc)
        return True

    def can_leave(self) -> bool:
        return True

    def refresh(self) -> None:
        self.read_hardware()
        if self.data_edit.text():
            self.read_dataset()
