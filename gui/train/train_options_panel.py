"""The Train page's left side: the next run's options, their problems, the demo dataset and the yolov5 line.

Owns everything about *what the next run will be*: the form (``TrainForm``), checking it against this
machine's GPUs after every edit (``core.training.config.validate_config``), then the dataset in the background
(``core.dataset.training_gate``, the validator with its cache: "Ready to train" only when yolov5 would
neither stop nor drop images; droppable ones can be started anyway, knowingly), preparing the demo dataset in the background the first time the page is shown with no dataset,
remembering the last dataset and model, which checkpoints the user confirmed, and copying the equivalent
``yolov5 train`` command. The page asks it for ``revalidate()`` and owns starting, watching and stopping.

What the run starts from follows ``core.weights.choice.recommend_start``: the matching COCO checkpoint
from the weights store when it is here (Initial weights = ``yolov5s.pt``, a bare name the store resolves)
until the user picks weights themselves; the Weights dialog gets or imports one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import dataclasses

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QCheckBox, QGroupBox, QLabel, QPushButton, QVBoxLayout, QWidget

from core.dataset.fix_catalogue import fix_words
from core.dataset.training_gate import DatasetGate, check_for_training
from core.demo.dataset import DemoCancelled, ensure_demo_dataset
from core.demo.spec import demo_data_yaml
from core.findings import Finding, Severity
from core.environment.machine import MachineFacts, quick_machine_facts
from core.i18n import tr_n
from core.model_catalog import DEFAULT_MODEL
from core.settings import load_settings, save_settings
from core.training.config import ValidatedConfig, build_worker_spec, build_yolov5_command, command_line, validate_config
from core.training.options import option_labels
from core.trust import confirmed_entry, model_needs_trust
from core.weights.choice import recommend_start
from core.workspace import runs_dir
from gui.background import BackgroundTask, run_in_background
from gui.job_runner import Launcher, default_launcher
from gui.widgets import diagnosis_banner
from gui.widgets.problem_list import ProblemList
from gui.train.train_form import TrainForm
from gui.weights.weights_dialog import WeightsDialog

VALIDATE_DELAY_MS = 250
SHOWN_DATASET_ERRORS = 8


class TrainOptionsPanel(QGroupBox):
    checked = Signal(object)  # ValidatedConfig, after every check
    notify = Signal(str, str)  # (level, text) for the page's banner
    dataset_chosen = Signal(str)  # a data.yaml that exists was chosen here (the app's current dataset)
    show_dataset_requested = Signal()  # "Show them on the Dataset page"

    def __init__(self, workspace: Path, parent: QWidget | None = None, *,
                 machine_facts: MachineFacts | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Options"))
        self.workspace = Path(workspace)
        self.last_checked: ValidatedConfig | None = None
        self.weights_launcher: Launcher = default_launcher  # the Weights dialog's jobs (tests hand in their own)
        self.weights_dialog: WeightsDialog | None = None
        self._facts = machine_facts or MachineFacts()
        self._remote_facts: MachineFacts | None = None  # a run bound to another machine: its GPUs (last check)
        self._demo_task: BackgroundTask | None = None
        self._demo_expected = False  # "Preparing…" is on screen; the job starts after the first paint
        self.gate: DatasetGate | None = None  # the dataset check of ``_gate_path``
        self._gate_path: Path | None = None
        self._gate_task: BackgroundTask | None = None
        self._running: str | None = None  # the run these options belong to while it trains
        self.form = TrainForm(self.workspace, demo_data_yaml(self.workspace), self)
        self.problems = ProblemList(option_labels(), self)
        self.dataset_link = QLabel(self, visible=False, openExternalLinks=False)
        self.dataset_link.setText('<a href="dataset">{}</a>'.format(self.tr("Show them on the Dataset page")))
        self.dataset_link.linkActivated.connect(lambda _link: self.show_dataset_requested.emit())
        self.start_anyway = QCheckBox(self.tr("Start anyway: train without the images yolov5 cannot read"), self,
                                      visible=False)
        self.start_anyway.setToolTip(self.tr("yolov5 skips these images with a warning and trains on the rest; "
                                             "fix them on the Dataset page to train on all of them."))
        self.start_anyway.toggled.connect(self._on_start_anyway)
        self._anyway_path: Path | None = None  # the dataset whose droppable images the tick was about
        self.copy_button = QPushButton(self.tr("Copy yolov5 command"), self, clicked=self.copy_command)
        self.copy_button.setToolTip(self.tr("Copy the equivalent plain `yolov5 train …` command line"))
        layout = QVBoxLayout(self)
        layout.addWidget(self.form)
        layout.addWidget(self.problems)
        layout.addWidget(self.dataset_link)
        layout.addWidget(self.start_anyway)
        layout.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)

        settings = load_settings()
        if settings.last_data and Path(settings.last_data).is_file():
            self.form.set_data_path(settings.last_data)
        self.form.set_model(settings.last_model or DEFAULT_MODEL)
        if settings.default_device:  # Settings ▸ Default device
            self.form.apply_values({"device": settings.default_device})
        self._validate_timer = QTimer(self, singleShot=True, interval=VALIDATE_DELAY_MS, timeout=self.revalidate)
        self.form.changed.connect(self._validate_timer.start)
        self.form.demo_requested.connect(self.prepare_demo_dataset)
        hint = self.form.start_hint
        hint.get_requested.connect(lambda name: self.open_weights(get=name))
        hint.manage_requested.connect(self.open_weights)
        hint.scratch_requested.connect(lambda: self._choose_weights(""))
        hint.pretrained_requested.connect(self._follow_pretrained)
        if machine_facts is None:
            run_in_background(self, lambda progress, cancelled: quick_machine_facts(),
                              on_done=self._on_machine_facts, what=self.tr("Reading this machine's GPUs"))
        self.form.set_machine_facts(self._facts)

    @property
    def has_dataset(self) -> bool:
        return bool(self.form.data_edit.text().strip())

    @property
    def ready(self) -> bool:
        """The options are fine and the dataset check passed (or the user starts anyway past dropped images)."""
        checked, gate = self.last_checked, self._current_gate()
        return (checked is not None and checked.ok and gate is not None
                and (gate.ok or (gate.startable_anyway and self.start_anyway.isChecked())))

    @property
    def checking_dataset(self) -> bool:
        return self._gate_task is not None

    def revalidate(self) -> ValidatedConfig:
        """Check the options now; the problems list shows the result (or "Ready to train")."""
        self._follow_start_choice()
        self.last_checked = checked = validate_config(self.form.config(), self.facts, self.workspace)
        shown = list(checked.problems)
        waiting = (self._demo_task is not None or self._demo_expected) and not self.has_dataset
        if waiting:  # "no dataset chosen" is not news while the demo dataset is being made
            shown = [p for p in shown if p.field != "data"]
        ready_level, ready_text = ("info", self.tr("Preparing the demo dataset…")) if waiting else ("ok", "")
        if self._running is not None:  # a training run's options: "Ready to train" would be news of nothing
            ready_level, ready_text = "info", self.tr("Run {name} is training with these options.").format(
                name=self._running)
        if checked.data_path is not None:
            if self._running is None:  # a training run's dataset is not a choice: the app's current one stays
                self.dataset_chosen.emit(str(checked.data_path))
            if self._current_gate() is None and self._gate_path != checked.data_path:
                self._check_dataset(checked.data_path)
        gate = self._current_gate()
        blocked = checked.ok and gate is not None and not gate.ok
        if checked.ok and gate is None:
            shown.append(Finding("dataset-check", Severity.INFO, self.tr(
                "Checking the dataset's images and labels before training…"), field="data"))
        elif blocked:
            anyway = gate.startable_anyway and self.start_anyway.isChecked()
            shown += [dataclasses.replace(f, severity=Severity.WARNING) if anyway else f
                      for f in self._gate_problems(gate)]
        self.dataset_link.setVisible(blocked)
        self.start_anyway.setVisible(blocked and gate.startable_anyway)
        self.problems.set_problems(shown, ready_level=ready_level, ready_text=ready_text)
        self.copy_button.setEnabled(checked.ok)
        self.checked.emit(checked)
        return checked

    def set_running(self, name: str | None) -> None:
        """These options are run ``name``'s while it trains (None: the next run's again)."""
        if name != self._running:
            self._running = name
            self.revalidate()

    # -- the dataset check before Start --------------------------------------------------------------
    def _on_start_anyway(self, on: bool) -> None:
        """The tick holds for its dataset: other fields, a re-check or a save keep it (``_check_dataset``)."""
        self._anyway_path = self._gate_path if on else None
        self.revalidate()

    def recheck_dataset(self) -> None:
        """Check the dataset again (files may have changed: a fix, a save, F5); cheap thanks to the cache."""
        self._gate_path = None
        self.gate = None
        self.revalidate()

    def _current_gate(self) -> DatasetGate | None:
        checked = self.last_checked
        if checked is None or checked.data_path is None or self._gate_path != checked.data_path:
            return None
        return self.gate

    def _check_dataset(self, path: Path) -> None:
        if self._gate_task is not None:
            self._gate_task.cancel()
        if self._anyway_path is not None and self._anyway_path != path and self.start_anyway.isChecked():
            self.start_anyway.setChecked(False)  # it was said about the other dataset's images
            self.notify.emit("info", self.tr(
                "'Start anyway' was cleared: it was ticked for {old}, and the dataset is now {new}. Tick it "
                "again once you have read the new dataset's problems.").format(old=self._anyway_path, new=path))
        self._gate_path, self.gate = path, None
        workspace = self.workspace
        self._gate_task = task = run_in_background(
            self, lambda progress, cancelled: check_for_training(path, workspace, cancelled=cancelled),
            on_done=lambda gate: self._on_gate(task, path, gate),
            on_failed=lambda exc: self._on_gate_failed(task, path, exc),
            what=self.tr("Checking the dataset"))

    def _on_gate(self, task: BackgroundTask, path: Path, gate: DatasetGate) -> None:
        if task is not self._gate_task:
            return  # a newer check replaced this one
        self._gate_task = None
        if path == self._gate_path:
            self.gate = gate
        self.revalidate()

    def _on_gate_failed(self, task: BackgroundTask, path: Path, exc: BaseException) -> None:
        if task is not self._gate_task:
            return
        self._gate_task = None
        from core.dataset.scan import ScanCancelled  # loaded by the check that just ended
        if isinstance(exc, ScanCancelled):
            self._gate_path = None  # checked again by the revalidation below
        elif path == self._gate_path:
            self.gate = DatasetGate(str(path), aborts=[Finding("dataset-check", Severity.ERROR, self.tr(
                "The dataset check failed: {reason}").format(reason=exc), file=str(path))])
        self.revalidate()

    def _fix_words(self, gate: DatasetGate) -> str:
        """What the Dataset page can fix of these errors, from the fix catalogue Fix… itself reads (never a promise
        of a fix that is not there)."""
        return self.tr("{fixes} Then Start.").format(fixes=fix_words(gate.blockers))

    def _gate_problems(self, gate: DatasetGate) -> list[Finding]:
        """The errors that stop the start, as problems of the Dataset option (file:line first), then a total."""
        shown = [dataclasses.replace(f, field="data", fix="", message=self.tr("{where}: {message}").format(
            where=f.where, message=f.message)) for f in gate.blockers[:SHOWN_DATASET_ERRORS]]
        aborts, drops = len(gate.aborts), len(gate.drops)
        stop = tr_n("{n} error in the dataset would stop training.",
                    "{n} errors in the dataset would stop training.", aborts)
        if gate.aborts and gate.drops:
            total = self.tr("{stop} {skip}").format(stop=stop, skip=tr_n(
                "{n} more would make yolov5 skip an image.", "{n} more would make yolov5 skip images.", drops))
            fix = self._fix_words(gate)
        elif gate.aborts:
            total = stop
            fix = self._fix_words(gate)
        elif gate.drops:
            total = tr_n("yolov5 would skip {n} image it cannot read.",
                         "yolov5 would skip {n} images it cannot read.", drops)
            fix = self.tr("Fix them on the Dataset page, or tick 'Start anyway' to train without them.")
        else:
            return []
        return [Finding("dataset-check", Severity.ERROR, total, fix=fix, field="data"), *shown]

    def _on_machine_facts(self, facts: MachineFacts) -> None:
        self._facts = facts
        self.form.set_machine_facts(self.facts)
        self.revalidate()

    @property
    def facts(self) -> MachineFacts:
        """The GPUs the options are checked on: the chosen machine's (its last check), else this computer's."""
        return self._remote_facts or self._facts

    def use_machine_facts(self, facts: MachineFacts | None) -> None:
        """Check the options on another machine's GPUs (a run bound there), or on this computer's again (None)."""
        self._remote_facts = facts
        self.form.set_machine_facts(self.facts)
        self.revalidate()

    # -- what the run starts from: pretrained weights --------------------------------------------------
    def _follow_start_choice(self) -> None:
        """Fine-tune from the matching stored checkpoint unless the user chose Initial weights themselves."""
        choice = recommend_start(str(self.form.editors["model"].value()), self.workspace)
        if choice.checkpoint is not None and choice.weights is not None:
            self.form.set_default("weights", choice.checkpoint.file_name)
        else:
            self.form.set_default("weights", "")
        self.form.start_hint.show_choice(choice, str(self.form.editors["weights"].value()))

    def _choose_weights(self, value: str) -> None:
        self.form.choose("weights", value)
        self.revalidate()

    def _follow_pretrained(self, _file_name: str = "") -> None:
        """Back to the default: the model's own checkpoint, which follows later model changes too."""
        self.form.forget_choice("weights")
        self.revalidate()

    def open_weights(self, get: str = "") -> WeightsDialog:
        """The Weights dialog (window-modal); with ``get`` it asks to download that checkpoint at once."""
        if self.weights_dialog is None:
            self.weights_dialog = WeightsDialog(self.workspace, self, launcher=self.weights_launcher)
            self.weights_dialog.changed.connect(self._on_weights_changed)
            self.weights_dialog.finished.connect(lambda _result: self.revalidate())
        self.weights_dialog.offer(str(self.form.editors["model"].value()), get)
        return self.weights_dialog

    def _on_weights_changed(self) -> None:
        if self.form.editors["weights"].value() == "":
            self.form.forget_choice("weights")  # "from scratch", then a checkpoint got: fine-tune again
        self.revalidate()

    # -- the demo dataset ---------------------------------------------------------------------------
    def expect_demo_dataset(self) -> None:
        """Say "Preparing the demo dataset…" now; the job itself starts after the window's first paint."""
        self._demo_expected = True
        self.form.show_demo_progress(0, 1)
        self.revalidate()

    def drop_demo_expectation(self) -> None:
        """The demo will not be prepared after all (a dataset reached the form first, e.g. a re-attached run's):
        no "Preparing the demo dataset… 0/1" left behind, and "Use demo dataset" works again."""
        if self._demo_expected and self._demo_task is None:
            self._demo_expected = False
            self.form.end_demo_progress()
            self.revalidate()

    def prepare_demo_dataset(self) -> None:
        if self._demo_task is not None:
            return
        self.form.show_demo_progress(0, 1)
        self._demo_task = run_in_background(
            self, lambda progress, cancelled: ensure_demo_dataset(self.workspace, progress, cancelled),
            on_done=self._on_demo_ready, on_failed=self._on_demo_failed, on_progress=self.form.show_demo_progress)
        self.revalidate()

    def _on_demo_ready(self, path: Path) -> None:
        self._demo_task, self._demo_expected = None, False
        self.form.end_demo_progress()
        if self._running is None:  # a run re-attached meanwhile: its options stay; "Use demo dataset" is quick now
            self.form.set_data_path(str(path))
        self.revalidate()

    def _on_demo_failed(self, exc: BaseException) -> None:
        self._demo_task, self._demo_expected = None, False
        self.revalidate()
        if isinstance(exc, DemoCancelled):
            self.form.end_demo_progress()
            return
        self.form.end_demo_progress(self.tr("Could not prepare the demo dataset: {reason}. Check that the "
                                            "workspace folder {path} is writable.").format(
            reason=exc, path=self.workspace))

    # -- changes for the next run ----------------------------------------------------------------------
    def apply_changes(self, prescriptions: list[dict[str, Any]]) -> bool:
        """Put option changes into the form after the user saw and confirmed them (current -> new, why)."""
        settable = [p for p in prescriptions if p.get("field") in self.form.settable]
        if not settable:
            return False
        rows = diagnosis_banner.real_changes([(str(p["field"]), self.form.field_text(str(p["field"])),
                                               str(p.get("value")), str(p.get("reason") or "")) for p in settable])
        if not rows:  # the form already holds every value: nothing to confirm or to list
            self.notify.emit("info", self.tr("The form already has these settings."))
            return True
        settable = [p for p in settable if str(p["field"]) in {r[0] for r in rows}]
        if not diagnosis_banner.confirm_changes(self, rows):
            return False
        changed = self.form.apply_values({str(p["field"]): p.get("value") for p in settable})
        self.revalidate()
        self.notify.emit("info", self.tr("Set for the next run: {fields}.").format(fields=", ".join(
            self.tr("{field} {value}").format(field=r[0], value=r[2]) for r in rows if r[0] in changed)))
        return True

    # -- around a start -----------------------------------------------------------------------------
    def copy_command(self) -> None:
        checked = self.revalidate()
        if not checked.ok:
            return
        spec = build_worker_spec(checked, runs_dir(self.workspace) / checked.config.name, self.workspace)
        QGuiApplication.clipboard().setText(command_line(build_yolov5_command(spec)))
        self.notify.emit("info", self.tr("Copied the yolov5 command to the clipboard."))

    def trusted_weights(self, checked: ValidatedConfig) -> tuple[str, ...] | None:
        """The checkpoint paths the user confirmed (``core.trust``); None when they declined."""
        weights = checked.weights_path
        if weights is None:
            return ()
        if not self.form.accept_weights(weights):
            return None
        entry = confirmed_entry(weights)
        return (entry,) if entry in self.form.trusted_weights else ()

    def trusted_model(self, checked: ValidatedConfig) -> bool | None:
        """True: the user confirmed a model YAML that fails the strict check; False: none needed; None: declined."""
        model = checked.cfg_path
        if model is None or not model_needs_trust(model, self.form.trusted_models):
            return False
        return True if self.form.accept_model(model) else None

    def remember_choices(self, checked: ValidatedConfig) -> None:
        """The dataset and model of a started run are the next session's defaults."""
        try:
            settings = load_settings()
            settings.last_data = "" if self.form.is_demo() else checked.config.data
            settings.last_model = checked.config.model
            save_settings(settings)
        except OSError:
            pass  # remembering the last choice is a convenience; the run goes on
