"""The Wizard page: Hardware → Dataset → Goal → Measure → Review, then Train (or copy the commands).

Owns the page's flow only; every decision is ``core.wizard`` (the same ``read_inputs``, ``measure_job``,
``recommend`` and ``result_document`` as ``yolostudio wizard``), so the page and the terminal recommend the
same settings. Slow work never runs on the GUI thread: the machine's facts and the dataset's statistics are
read on the background pool, the measurements are the ``wizard_measure`` worker job through ``JobRunner``
(progress per step, Cancel kills it and keeps what was measured), the prepared copy is written on the pool.
"Train with these settings" hands the config and the prediction to the Train page (``services.use_wizard``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (QButtonGroup, QCheckBox, QDoubleSpinBox, QFileDialog, QFormLayout, QHBoxLayout,
                               QLabel, QLineEdit, QListWidget, QListWidgetItem, QProgressBar, QPushButton,
                               QRadioButton, QSpinBox, QStackedWidget, QVBoxLayout, QWidget)

from core.dataset.prepare import prepare_dataset
from core.job.jobs import JobOutcome
from core.weights.choice import recommend_start
from core.wizard.inputs import Goal, Hardware, Measurements, measurements_from_json
from core.wizard.recommend import recommend
from core.environment.nvml import error_words
from core.wizard.session import (MEASURE_TIMEOUT_S, measure_job, prepared_out_dir, quick_facts, read_inputs,
                                 result_document, step_words, use_prepared)
from gui.background import run_in_background
from gui.job_runner import JobRunner, Launcher, default_launcher
from gui.pages.page import Page
from gui.widgets.banner import Banner
from gui.widgets.page_header import PageHeader
from gui.widgets.start_hint import StartHint
from gui.weights.weights_dialog import WeightsDialog
from gui.wizard.wizard_review import WizardReview

HARDWARE, DATASET, GOAL, MEASURE, REVIEW = range(5)
MEASURE_STEPS = ("cache", "loader", "prepared", "cached", "demand", "batch", "amp")


def _tr(text: str) -> str:
    return QCoreApplication.translate("WizardPage", text)


def ask_data_yaml(parent: QWidget) -> str:
    """Module attribute so tests answer it instead of a modal dialog."""
    return QFileDialog.getOpenFileName(parent, _tr("Choose the dataset's data.yaml"), "",
                                       _tr("Dataset (*.yaml *.yml)"))[0]


class WizardPage(Page):
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
        self._build_hardware()
        self._build_dataset()
        self._build_goal()
        self._build_measure()
        self.review = WizardReview(self)
        self.review.copied.connect(lambda text: self.banner.show_message("info", self.tr("Copied.")))
        self.prepare_button = QPushButton(self.tr("&Prepare the resized copy"), self, clicked=self.prepare_copy)
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
        self.stack.addWidget(review)
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

    # -- steps -------------------------------------------------------------------------------------
    def _build_hardware(self) -> None:
        page = QWidget(self)
        self.hardware_text = QLabel(self.tr("Reading this machine…"), page)
        self.hardware_text.setWordWrap(True)
        self.gpu_list = QListWidget(page)
        self.gpu_list.setAccessibleName(self.tr("GPUs to train on"))
        self.gpu_list.itemChanged.connect(lambda _item: self._invalidate())
        layout = QVBoxLayout(page)
        layout.addWidget(self.hardware_text)
        layout.addWidget(QLabel(self.tr("Train on these GPUs (several: DDP through torchrun):"), page))
        layout.addWidget(self.gpu_list, 1)
        self.stack.addWidget(page)

    def _build_dataset(self) -> None:
        page = QWidget(self)
        self.data_edit = QLineEdit(page, placeholderText=self.tr("path/to/data.yaml"))
        self.data_edit.setAccessibleName(self.tr("Dataset"))
        self.data_edit.editingFinished.connect(self.read_dataset)
        browse = QPushButton(self.tr("&Browse…"), page, clicked=self._browse)
        row = QHBoxLayout()
        row.addWidget(self.data_edit, 1)
        row.addWidget(browse)
        self.dataset_text = QLabel(self.tr("Choose the data.yaml to train on."), page)
        self.dataset_text.setWordWrap(True)
        layout = QVBoxLayout(page)
        layout.addLayout(row)
        layout.addWidget(self.dataset_text)
        layout.addStretch(1)
        self.stack.addWidget(page)

    def _build_goal(self) -> None:
        page = QWidget(self)
        self.goal_group = QButtonGroup(page)
        form = QFormLayout(page)
        texts = {"quick": self.tr("&Quick test — does it train at all? (small model, few epochs)"),
                 "balanced": self.tr("&Balanced — a good model in reasonable time"),
                 "accurate": self.tr("Best &accuracy — the largest model this machine trains well")}
        self.goal_buttons = {}
        for key, text in texts.items():
            button = QRadioButton(text, page)
            self.goal_group.addButton(button)
            self.goal_buttons[key] = button
            form.addRow(button)
            button.toggled.connect(lambda _on: self._invalidate())
        self.goal_buttons["balanced"].setChecked(True)
        self.budget_check = QCheckBox(self.tr("At most"), page)
        self.budget_hours = QDoubleSpinBox(page, minimum=0.1, maximum=1000, value=8, suffix=self.tr(" h"),
                                           decimals=1, enabled=False)
        self.budget_check.toggled.connect(self.budget_hours.setEnabled)
        budget = QHBoxLayout()
        budget.addWidget(self.budget_check)
        budget.addWidget(self.budget_hours)
        budget.addStretch(1)
        form.addRow(self.tr("Time budget:"), budget)
        self.imgsz_check = QCheckBox(self.tr("Fixed at"), page)
        self.imgsz_spin = QSpinBox(page, minimum=32, maximum=4096, singleStep=32, value=640, suffix=" px",
                                   enabled=False)
        self.imgsz_check.toggled.connect(self.imgsz_spin.setEnabled)
        imgsz = QHBoxLayout()
        imgsz.addWidget(self.imgsz_check)
        imgsz.addWidget(self.imgsz_spin)
        imgsz.addStretch(1)
        form.addRow(self.tr("Image size:"), imgsz)
        self.stack.addWidget(page)

    def _build_measure(self) -> None:
        page = QWidget(self)
        self.measure_text = QLabel(self.tr(
            "Measuring takes about a minute: yolov5's own data loader on a sample of your images at each worker "
            "count (originals, a resized copy, a RAM cache), the model's training speed, and on a GPU the largest "
            "batch that fits. Nothing is changed in your dataset."), page)
        self.measure_text.setWordWrap(True)
        self.measure_button = QPushButton(self.tr("&Measure"), page, clicked=self.measure)
        self.skip_button = QPushButton(self.tr("&Skip (estimate)"), page, clicked=lambda: self.finish(Measurements(
            failures={"measure": self.tr("skipped")})))
        self.cancel_button = QPushButton(self.tr("Cancel"), page, clicked=self.cancel, enabled=False)
        self.measure_bar = QProgressBar(page, maximum=len(MEASURE_STEPS), textVisible=False)
        self.measure_list = QListWidget(page)
        self.measure_list.setAccessibleName(self.tr("Measurements"))
        row = QHBoxLayout()
        row.addWidget(self.measure_button)
        row.addWidget(self.skip_button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.measure_bar, 1)
        layout = QVBoxLayout(page)
        layout.addWidget(self.measure_text)
        layout.addLayout(row)
        layout.addWidget(self.measure_list, 1)
        self.stack.addWidget(page)

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
        facts = self._facts
        run_in_background(self, lambda progress, cancelled: facts or quick_facts(), on_done=self._show_hardware,
                          what=self.tr("Reading this machine"))

    def _show_hardware(self, facts: Any) -> None:
        self._facts = facts
        s = facts.system
        self.hardware_text.setText(self.tr(
            "{cpu}: {cores} usable cores · {ram} GB RAM free · /dev/shm {shm} · {os}{container}").format(
            cpu=s.cpu_model or self.tr("CPU"), cores=s.usable_cores or s.logical_cores or "?",
            ram=f"{s.ram_available_gb:.1f}" if s.ram_available_gb is not None else "?",
            shm=f"{s.shm_free_gb:.1f} GB" if s.shm_free_gb is not None else "—", os=s.os or "?",
            container=self.tr(" · in {name}").format(name=s.container) if s.container else ""))
        self.gpu_list.blockSignals(True)
        self.gpu_list.clear()
        for gpu in facts.nvml.gpus:
            item = QListWidgetItem(self.tr("GPU {index}: {name} · {mem:.0f} GB ({used:.1f} GB in use)").format(
                index=gpu.index, name=gpu.name or "?", mem=gpu.memory_total_gb or 0, used=gpu.memory_used_gb or 0))
            item.setData(Qt.ItemDataRole.UserRole, gpu.index)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            self.gpu_list.addItem(item)
        if not facts.nvml.gpus:
            self.gpu_list.addItem(self.tr("No NVIDIA GPU found: training runs on the CPU ({why}).").format(
                why=error_words(facts.nvml.error) if facts.nvml.error else self.tr("no driver")))
        self.gpu_list.blockSignals(False)

    def chosen_gpus(self) -> list[int]:
        out = []
        for row in range(self.gpu_list.count()):
            item = self.gpu_list.item(row)
            if item.data(Qt.ItemDataRole.UserRole) is not None and item.checkState() == Qt.CheckState.Checked:
                out.append(int(item.data(Qt.ItemDataRole.UserRole)))
        return out

    def on_bound(self) -> None:
        self.services.current.dataset_changed.connect(self._follow_dataset)
        if self.services.current.dataset and not self.data_edit.text():
            self._follow_dataset(self.services.current.dataset)

    def _follow_dataset(self, path: str) -> None:
        if path and path != self.data_edit.text():
            self.data_edit.setText(path)
            self.read_dataset()

    def _browse(self) -> None:
        path = ask_data_yaml(self)
        if path:
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
        facts = self._facts
        run_in_background(self, lambda progress, cancelled: read_inputs(path, self.workspace, None, facts),
                          on_done=self._show_dataset, on_failed=lambda exc: self.dataset_text.setText(
                              self.tr("Cannot read the dataset: {reason}").format(reason=exc)),
                          what=self.tr("Checking the dataset"))

    def _show_dataset(self, result: tuple) -> None:
        _hw, ds, report = result
        self.summary_ds = ds
        errors = [f for f in report.findings if f.severity == "error"]
        text = self.tr("{train} training and {val} validation images · {nc} classes · most images {side} px on the "
                       "long side · the smallest tenth of the boxes cover {area} of their image").format(
            train=ds.train_images, val=ds.val_images, nc=ds.nc, side=ds.long_side,
            area=f"{ds.small_box_area:.2%}" if ds.small_box_area else "?")
        if errors:
            text += "\n" + self.tr("{n} errors: fix them on the Dataset page before training (first: {first})").format(
                n=len(errors), first=errors[0].message)
        self.dataset_text.setText(text)
        self._go(self.stack.currentIndex())

    def goal(self) -> Goal:
        kind = next(key for key, button in self.goal_buttons.items() if button.isChecked())
        return Goal(kind, self.budget_hours.value() * 3600 if self.budget_check.isChecked() else None,
                    self.imgsz_spin.value() if self.imgsz_check.isChecked() else None)

    def _inputs(self) -> tuple[Hardware, Any] | None:
        from core.wizard.inputs import hardware_from_facts

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
        self.measure_list.clear()
        self.measure_bar.setValue(0)
        self._set_measuring(True)
        try:
            self._runner.start(measure_job(hw, ds, self.goal(), self.workspace))
        except OSError as exc:
            self._set_measuring(False)
            self.banner.show_message("error", self.tr("Cannot start measuring: {reason}").format(reason=exc))
            return False
        return True

    def cancel(self) -> None:
        if self._runner.active:
            self._cancelled = True
            self._runner.stop()

    def _set_measuring(self, on: bool) -> None:
        self.measure_button.setEnabled(not on)
        self.skip_button.setEnabled(not on)
        self.cancel_button.setEnabled(on)

    def _on_event(self, event: dict[str, Any]) -> None:
        if event.get("type") == "done":
            self._final = event
        if event.get("type") != "wizard_step":
            return
        status = event.get("status")
        words = step_words(event.get("step"))
        if status == "started":
            self.measure_list.addItem(self.tr("{step}: measuring…").format(step=words))
        else:
            item = self.measure_list.item(self.measure_list.count() - 1)
            text = self.tr("{step}: {detail}").format(step=words, detail=event.get("detail") or status)
            if status in ("failed", "skipped"):
                text = self.tr("{step}: not measured — {detail}").format(step=words, detail=event.get("detail"))
            if item is not None:
                item.setText(text)
            if status != "progress":
                self.measure_bar.setValue(int(event.get("index", 0)) + 1)

    def _on_measured(self, outcome: JobOutcome) -> None:
        self._set_measuring(False)
        m = measurements_from_json(self._final.get("measurements") or {})
        if outcome.status == "failed":
            m.failures.setdefault("measure", outcome.message or self.tr("the measure job failed"))
            self.banner.show_message("warning", self.tr("Measuring failed: {reason}. The settings it would have "
                                                        "decided are estimated.").format(reason=outcome.message))
        elif outcome.status == "stopped" or self._cancelled:
            m.failures.setdefault("measure", self.tr("cancelled"))
        self.finish(m)

    def finish(self, m: Measurements) -> None:
        inputs = self._inputs()
        if inputs is None:
            return
        hw, ds = inputs
        self.measurements = m
        rec = recommend(hw, ds, self.goal(), m, lambda model: recommend_start(model, self.workspace))
        use_prepared(rec, self.workspace)
        self._rec = rec
        self.doc = result_document(rec, m, self.workspace, source_data=ds.data_yaml)
        self.review.show_document(self.doc)
        choice = recommend_start(str(rec.config.get("model", "")), self.workspace)
        fine_tunes = choice.checkpoint is not None and choice.weights is not None
        self.start_hint.show_choice(choice, choice.checkpoint.file_name if fine_tunes else "")
        needs_copy = rec.prepare_imgsz is not None and rec.config["data"] == ds.data_yaml
        self.prepare_button.setVisible(needs_copy)
        self.train_button.setEnabled(True)
        self._go(REVIEW)

    # -- actions -------------------------------------------------------------------------------------
    def prepare_copy(self) -> None:
        if self.doc is None or self._rec.prepare_imgsz is None:
            return
        source = self.doc["source_data"]
        out_dir = prepared_out_dir(self._rec, self.workspace, source)
        imgsz = int(self._rec.prepare_imgsz)
        self.prepare_button.setEnabled(False)
        self.train_button.setEnabled(False)
        self.prepare_bar.setVisible(True)

        def work(progress: Any, cancelled: Any) -> Any:
            return prepare_dataset(Path(source), imgsz, out_dir, progress=progress, cancelled=cancelled)

        def done(result: Any) -> None:
            self.prepare_bar.setVisible(False)
            self.prepare_button.setEnabled(True)
            if self.measurements is not None:
                self.finish(self.measurements)
            self.banner.show_message("info", self.tr("The resized copy is ready: {n} images.").format(n=result.images))

        def failed(exc: BaseException) -> None:
            self.prepare_bar.setVisible(False)
            self.prepare_button.setEnabled(True)
            self.train_button.setEnabled(True)
            self.banner.show_message("error", self.tr("Preparing the copy failed: {reason}").format(reason=exc))

        run_in_background(self, work, on_done=done, on_failed=failed,
                          on_progress=lambda d, t: (self.prepare_bar.setMaximum(t), self.prepare_bar.setValue(d)),
                          what=self.tr("Preparing the resized copy"))

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
        if self.doc is None:
            return False
        use = self.services.use_wizard
        if use is None:
            self.banner.show_message("warning", self.tr("The Train page is not available here."))
            return False
        return use(self.doc)

    def can_leave(self) -> bool:
        return True

    def refresh(self) -> None:
        self.read_hardware()
        if self.data_edit.text():
            self.read_dataset()

