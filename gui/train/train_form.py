"""The Train page's options form: a row per ``TrainConfig`` option, built from ``core.training.options``.

The form lists no option itself: each option's label, tooltip (its help: what it does and what it costs),
editor kind, range and whether it is advanced come from its one description, so a new option appears here
with no change to this file. Basic options first; the rest behind "Advanced options". Keyboard friendly
(buddies, natural tab order), with the demo dataset one click away. Validation lives in
``core.training.config.validate_config``; the form only says ``changed`` and hands out ``config()``;
``apply_values`` sets any option by its name (the bottleneck monitor's prescriptions, the environment
checker's settings, "train more"). Picking a checkpoint that ``core.trust`` says needs trust asks first —
a checkpoint is a pickle that can run code — and a confirmed path is remembered in ``trusted_weights``.
Under the Model field, ``start_hint`` (``StartHint``) says what the next run starts from; the options panel
fills it and, until the user picks Initial weights themselves, sets them with ``set_default``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QComboBox, QFormLayout, QHBoxLayout, QLabel, QProgressBar, QPushButton,
                               QVBoxLayout, QWidget)

from core.training.distributed import needs_run_id, new_run_id
from core.i18n import tr
from core.environment.machine import MachineFacts
from core.training.defaults import DATASET_DEFAULTED, dataset_defaults, is_demo_data
from core.training.options import TrainConfig, train_options
from core.trust import confirmed_entry, is_model_yaml, model_needs_trust, model_problem, needs_trust
from gui import dialogs
from gui.widgets.disclosure import disclosure_button
from gui.widgets.option_editors import ChoiceEditor, OptionEditor, SpinEditor, make_editor, with_browse
from gui.train.several_machines import SeveralMachinesSection
from gui.widgets.start_hint import StartHint

#: Options whose default follows the dataset (``core.training.defaults``, the table both faces use): a change made
#: for the user is said next to the field.
NOTED = DATASET_DEFAULTED
#: A choice box's minimum width in characters: the options column keeps to its pane at 1280x720 (the longest
#: choices, e.g. the cache's, are read in full in the open list).
COMBO_MIN_CHARS = 10


def with_mnemonic(text: str, used: set[str], source: str = "") -> str:
    """``text`` with ``&`` before its first letter no other label uses yet (Alt+letter jumps to the field).

    Only a Latin letter can be typed with Alt; a translated label without one (Chinese) gets the letter
    of its English ``source`` the way Chinese software writes it: "数据集(&D)：".
    """
    for index, char in enumerate(text):
        if char.isascii() and char.isalpha() and char.lower() not in used:
            used.add(char.lower())
            return text[:index] + "&" + text[index:]
    letter = next((c for c in source if c.isascii() and c.isalpha() and c.lower() not in used), "")
    if not letter:
        return text
    used.add(letter.lower())
    stem = text.rstrip(":：")
    return f"{stem}(&{letter.upper()}){text[len(stem):]}"


class TrainForm(QWidget):
    changed = Signal()
    demo_requested = Signal()

    def __init__(self, workspace: Path, demo_yaml: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.demo_yaml = demo_yaml
        self.trusted_weights: set[str] = set()
        self.trusted_models: set[str] = set()  # model YAMLs the user confirmed (core.trust.model_needs_trust)
        self._touched: set[str] = set()
        self._programmatic = False
        self.editors: dict[str, OptionEditor] = {}
        self.notes: dict[str, QLabel] = {}  # "set for the demo dataset" under a field the form changed itself
        self._note_rows: dict[str, tuple[QFormLayout, QLabel]] = {}

        self.demo_button = QPushButton(self.tr("Use demo dataset"), self)
        self.demo_button.clicked.connect(self.demo_requested)
        self.demo_button.setToolTip(self.tr("A small synthetic dataset (circles, squares, triangles) that trains "
                                            "in minutes on a CPU; made on this machine, nothing is downloaded."))
        self.demo_progress = QProgressBar(self, visible=False)
        self.demo_status = QLabel(self, visible=False, wordWrap=True)
        self.advanced = QWidget(self)
        self.advanced_button = disclosure_button(self, self.tr("&Advanced options"), self.advanced, tooltip=self.tr(
            "Optimizer, hyperparameters, early stopping, augmentation and checkpoint options"))
        self.start_hint = StartHint(self)
        self.machines = SeveralMachinesSection(self)

        basic_form, advanced_form = QFormLayout(), QFormLayout(self.advanced)
        advanced_form.setContentsMargins(0, 0, 0, 0)
        for form in (basic_form, advanced_form):
            form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
            form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)  # a long label puts its field below
        chain: list[QWidget] = []
        used = {"a", "u"}  # Alt+A opens the advanced options, Alt+U the several-machines section
        for opt in train_options():
            editor = self._editor_for(opt)
            self.editors[opt.name] = editor
            label = QLabel(with_mnemonic(tr("{label}:", label=tr(opt.label)), used, opt.label), self)
            label.setBuddy(editor.focus)
            label.setToolTip(tr(opt.help))
            form = self.machines.form if opt.section == "cluster" else advanced_form if opt.advanced else basic_form
            form.addRow(label, editor.row)
            if opt.name in NOTED:
                note = QLabel(self, wordWrap=True)
                note.setStyleSheet("color: palette(placeholder-text);")
                form.addRow("", note)
                form.setRowVisible(note, False)
                self.notes[opt.name] = note
                self._note_rows[opt.name] = (form, note)
            chain += [editor.focus, *([editor.browse] if editor.browse else [])]
            if opt.widget == "dataset":
                form.addRow("", self._demo_box())
                chain.append(self.demo_button)
            if opt.widget == "model":
                form.addRow("", self.start_hint)
                chain += self.start_hint.buttons
            editor.changed.connect(lambda name=opt.name: self._on_edited(name))
        self._touched.clear()
        for combo in self.findChildren(QComboBox):  # as wide as the pane, not as the longest choice ("No cache…")
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(COMBO_MIN_CHARS)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(basic_form)
        layout.addWidget(self.advanced_button)
        layout.addWidget(self.advanced)
        layout.addWidget(self.machines)
        layout.addStretch(1)
        chain.insert(next((i for i, w in enumerate(chain) if self._in_advanced(w)), len(chain)), self.advanced_button)
        chain.insert(next((i for i, w in enumerate(chain) if self.machines.isAncestorOf(w)), len(chain)),
                     self.machines.toggle)
        chain += [self.machines.copy_button, self.machines.slurm_button]
        self.changed.connect(self._follow_machines)
        self.machines.show_config(self.config())
        for first, second in zip(chain, chain[1:]):
            QWidget.setTabOrder(first, second)
        self.set_machine_facts(MachineFacts())

    def _follow_machines(self) -> None:
        """The other machines' commands; machine 0 of several gets its unguessable run id first
        (``core.training.distributed.needs_run_id``), so the commands shown are the ones that meet this run."""
        if needs_run_id(self.config()):
            self.set_default("rdzv_id", new_run_id())  # the section's note says what it is for
        self.machines.show_config(self.config())

    # -- the widgets tests and the page reach directly ----------------------------------------------
    @property
    def data_edit(self) -> Any:
        return self.editors["data"].focus

    def spin(self, name: str) -> Any:
        editor = self.editors[name]
        assert isinstance(editor, SpinEditor), name
        return editor.spin

    @property
    def device_combo(self) -> Any:
        return self.editors["device"].focus

    # -- reading and writing ------------------------------------------------------------------------
    def config(self) -> TrainConfig:
        return TrainConfig(**{name: editor.value() for name, editor in self.editors.items()})

    @property
    def settable(self) -> tuple[str, ...]:
        """Every ``TrainConfig`` option: prescriptions and settings may name any of them."""
        return tuple(self.editors)

    def field_text(self, field: str) -> str:
        """The option's current value as the user sees it (``auto``, ``No cache …``)."""
        editor = self.editors.get(field)
        return editor.text() if editor is not None else ""

    def apply_values(self, values: dict[str, Any]) -> list[str]:
        """Set options by name; the ones set count as chosen by the user. Returns the options set."""
        done = []
        for name, value in values.items():
            editor = self.editors.get(name)
            if editor is None or not editor.set_value(value):
                continue
            self._touched.add(name)
            self._show_note(name, "")  # "Set for the demo dataset… (was 640)" no longer describes this value
            done.append(name)
            if editor.option.advanced:
                self.advanced_button.setChecked(True)  # a change the user should see
            if editor.option.section == "cluster":
                self.machines.toggle.setChecked(True)
        return done

    def is_touched(self, name: str) -> bool:
        """Did the user choose this option (typed, picked, or applied a suggested change)?"""
        return name in self._touched

    def set_default(self, name: str, value: Any, why: str = "") -> bool:
        """Set an option the user has not chosen, as a default that follows their other choices; False (and
        nothing changes) once they chose it themselves. ``why`` is said next to the field when it changes it,
        so choosing a dataset never changes another value without a word."""
        if name in self._touched:
            return False
        before = self.editors[name].text()
        if self.editors[name].value() != value:
            self._programmatic = True
            try:
                self.editors[name].set_value(value)
            finally:
                self._programmatic = False
            if why:
                self._show_note(name, self.tr("{why} (was {before}); change it freely.").format(
                    why=why, before=before))
        return True

    def _show_note(self, name: str, text: str) -> None:
        row = self._note_rows.get(name)
        if row is None:
            return
        form, note = row
        note.setText(text)
        form.setRowVisible(note, bool(text))

    def forget_choice(self, name: str) -> None:
        """The option follows its default again (``set_default``)."""
        self._touched.discard(name)

    def choose(self, name: str, value: Any) -> None:
        """Set an option as the user's own choice (a button that stands for typing it)."""
        self.editors[name].set_value(value)
        self._touched.add(name)

    def set_data_path(self, path: str) -> None:
        self.editors["data"].set_value(path)

    def set_model(self, model: str) -> None:
        self.editors["model"].set_value(model)

    def set_machine_facts(self, facts: MachineFacts) -> None:
        editor = self.editors["device"]
        assert isinstance(editor, ChoiceEditor)
        combo, current = editor.combo, editor.value() if editor.combo.count() else ""
        combo.blockSignals(True)
        combo.clear()
        combo.addItem(self.tr("Auto (first GPU, else CPU)"), "")
        combo.addItem(self.tr("CPU"), "cpu")
        for i, name in enumerate(facts.gpu_names):
            combo.addItem(self.tr("GPU {index}: {name}").format(index=i, name=name), str(i))
        for count in range(2, len(facts.gpu_names) + 1):  # several GPUs: one DDP process each (or type "0,2")
            gpus = ",".join(str(i) for i in range(count))
            combo.addItem(self.tr("GPUs {gpus} (one process per GPU, DDP)").format(gpus=gpus), gpus)
        editor.set_value(current)
        combo.blockSignals(False)

    def is_demo(self) -> bool:
        return is_demo_data(str(self.editors["data"].value()), self.workspace)

    # -- demo dataset progress ----------------------------------------------------------------------
    def show_demo_progress(self, done: int, total: int) -> None:
        self.demo_button.setEnabled(False)
        self.demo_progress.setRange(0, max(total, 1))
        self.demo_progress.setValue(done)
        self.demo_progress.setFormat(self.tr("Preparing the demo dataset… %v/%m images"))
        self.demo_progress.show()

    def end_demo_progress(self, error: str = "") -> None:
        self.demo_button.setEnabled(True)
        self.demo_progress.hide()
        self.demo_status.setText(error)
        self.demo_status.setVisible(bool(error))

    # -- checkpoints are pickles --------------------------------------------------------------------
    def accept_model(self, path: Path) -> bool:
        """Ask before trusting a model YAML that yolov5 would partly run as code; True when it may be used."""
        if not model_needs_trust(path, self.trusted_models):
            return True
        if not dialogs.confirm_untrusted_model(self, path, model_problem(path) or ""):
            return False
        self.trusted_models.add(confirmed_entry(path))
        return True

    def accept_weights(self, path: Path) -> bool:
        """Ask before trusting a checkpoint or model YAML (``core.trust``'s rules); True when it may be used."""
        if is_model_yaml(path):
            return self.accept_model(path)
        if not needs_trust(path, self.workspace, self.trusted_weights):
            return True
        if not dialogs.confirm_untrusted_weights(self, path):
            return False
        self.trusted_weights.add(confirmed_entry(path))
        return True

    # -- building -----------------------------------------------------------------------------------
    def _editor_for(self, opt: Any) -> OptionEditor:
        editor = make_editor(opt, self)
        if opt.widget in ("dataset", "hyp"):
            return with_browse(editor, self, editor.set_value)
        if opt.widget in ("model", "weights"):
            return with_browse(editor, self, lambda path, e=editor: self.accept_weights(Path(path))
                               and e.set_value(path))
        return editor

    def _demo_box(self) -> QWidget:
        box = QWidget(self)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(self.demo_button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(self.demo_progress)
        layout.addWidget(self.demo_status)
        return box

    def _in_advanced(self, widget: QWidget) -> bool:
        return self.advanced.isAncestorOf(widget)

    # -- slots --------------------------------------------------------------------------------------
    def _on_edited(self, name: str) -> None:
        if not self._programmatic:
            self._touched.add(name)
            self._show_note(name, "")  # the user's own value now
        if name == "data":
            self._apply_dataset_defaults()
        self.changed.emit()

    def _apply_dataset_defaults(self) -> None:
        """The demo trains in minutes at its own size; any other dataset gets yolov5's defaults — unless the
        user chose the value."""
        demo = self.is_demo()
        why = self.tr("Set for the demo dataset, which trains in minutes at this size") if demo else self.tr(
            "yolov5's default for your own dataset")
        for name, value in dataset_defaults(str(self.editors["data"].value()), self.workspace).items():
            self.set_default(name, value, why)
