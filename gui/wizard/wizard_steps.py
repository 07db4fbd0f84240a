"""The Wizard page's first four steps as widgets: Hardware, Dataset, Goal, Measure (Review is ``wizard_review``).

Display and input only: each step shows what it is given and says what the user chose; the page
(``gui.wizard.wizard_page``) runs the flow and every core call (``gui.wizard.operations``).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (QButtonGroup, QCheckBox, QDoubleSpinBox, QFileDialog, QFormLayout, QHBoxLayout,
                               QLabel, QLineEdit, QListWidget, QListWidgetItem, QProgressBar, QPushButton,
                               QRadioButton, QSpinBox, QVBoxLayout, QWidget)

from core.environment.nvml import error_words
from core.wizard.inputs import DatasetSummary, Goal
from core.wizard.session import step_words
from core.wizard.time_fit import CPU_GOAL_BUDGET_S, duration_words

#: The measure job's steps, in its order (``core/worker/wizard_job.py``): the progress bar's length.
MEASURE_STEPS = ("cache", "loader", "prepared", "cached", "demand", "batch", "amp")


def _tr(text: str) -> str:
    return QCoreApplication.translate("WizardPage", text)


def ask_data_yaml(parent: QWidget) -> str:
    """Module attribute so tests answer it instead of a modal dialog."""
    return QFileDialog.getOpenFileName(parent, _tr("Choose the dataset's data.yaml"), "",
                                       _tr("Dataset (*.yaml *.yml)"))[0]


class HardwareStep(QWidget):
    changed = Signal()  # the GPU choice changed

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text = QLabel(self.tr("Reading this machine…"), self)
        self.text.setWordWrap(True)
        self.gpu_list = QListWidget(self)
        self.gpu_list.setAccessibleName(self.tr("GPUs to train on"))
        self.gpu_list.itemChanged.connect(lambda _item: self.changed.emit())
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(QLabel(self.tr("Train on these GPUs (several: DDP through torchrun):"), self))
        layout.addWidget(self.gpu_list, 1)

    def show_facts(self, facts: Any) -> None:
        s = facts.system
        self.text.setText(self.tr(
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


class DatasetStep(QWidget):
    chosen = Signal()  # the path was edited or browsed: read it

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = QLineEdit(self, placeholderText=self.tr("path/to/data.yaml"))
        self.edit.setAccessibleName(self.tr("Dataset"))
        self.edit.editingFinished.connect(self.chosen.emit)
        browse = QPushButton(self.tr("&Browse…"), self, clicked=self._browse)
        row = QHBoxLayout()
        row.addWidget(self.edit, 1)
        row.addWidget(browse)
        self.text = QLabel(self.tr("Choose the data.yaml to train on."), self)
        self.text.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.text)
        layout.addStretch(1)

    def _browse(self) -> None:
        path = ask_data_yaml(self)
        if path:
            self.edit.setText(path)
            self.chosen.emit()

    def show_summary(self, ds: DatasetSummary, report: Any) -> None:
        errors = [f for f in report.findings if f.severity == "error"]
        text = self.tr("{train} training and {val} validation images · {nc} classes · most images {side} px on the "
                       "long side · the smallest tenth of the boxes cover {area} of their image").format(
            train=ds.train_images, val=ds.val_images, nc=ds.nc, side=ds.long_side,
            area=f"{ds.small_box_area:.2%}" if ds.small_box_area else "?")
        if errors:
            text += "\n" + self.tr("{n} errors: fix them on the Dataset page before training (first: {first})").format(
                n=len(errors), first=errors[0].message)
        self.text.setText(text)


class GoalStep(QWidget):
    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.group = QButtonGroup(self)
        form = QFormLayout(self)
        texts = {"quick": self.tr("&Quick test — does it train at all? (small model, few epochs)"),
                 "balanced": self.tr("&Balanced — a good model in reasonable time"),
                 "accurate": self.tr("Best &accuracy — the largest model this machine trains well")}
        self.buttons: dict[str, QRadioButton] = {}
        for key, text in texts.items():
            button = QRadioButton(text, self)
            self.group.addButton(button)
            self.buttons[key] = button
            form.addRow(button)
            button.toggled.connect(lambda _on: self.changed.emit())
        self.buttons["balanced"].setChecked(True)
        self.budget_check = QCheckBox(self.tr("At most"), self)
        self.budget_hours = QDoubleSpinBox(self, minimum=0.1, maximum=1000, value=8, suffix=self.tr(" h"),
                                           decimals=1, enabled=False)
        self.budget_check.toggled.connect(self.budget_hours.setEnabled)
        budget = QHBoxLayout()
        budget.addWidget(self.budget_check)
        budget.addWidget(self.budget_hours)
        budget.addStretch(1)
        form.addRow(self.tr("Time budget:"), budget)
        self.cpu_note = QLabel(self.tr("Without a budget, on a CPU the wizard fits the epochs to the goal: about "
                                       "{quick} for a quick test, {balanced} balanced, {accurate} for the best "
                                       "accuracy.").format(**{goal: duration_words(seconds) for goal, seconds
                                                              in CPU_GOAL_BUDGET_S.items()}), self)
        self.cpu_note.setWordWrap(True)
        self.cpu_note.hide()
        form.addRow(self.cpu_note)
        self.imgsz_check = QCheckBox(self.tr("Fixed at"), self)
        self.imgsz_spin = QSpinBox(self, minimum=32, maximum=4096, singleStep=32, value=640, suffix=" px",
                                   enabled=False)
        self.imgsz_check.toggled.connect(self.imgsz_spin.setEnabled)
        imgsz = QHBoxLayout()
        imgsz.addWidget(self.imgsz_check)
        imgsz.addWidget(self.imgsz_spin)
        imgsz.addStretch(1)
        form.addRow(self.tr("Image size:"), imgsz)

    def goal(self) -> Goal:
        kind = next(key for key, button in self.buttons.items() if button.isChecked())
        return Goal(kind, self.budget_hours.value() * 3600 if self.budget_check.isChecked() else None,
                    self.imgsz_spin.value() if self.imgsz_check.isChecked() else None)


class MeasureStep(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text = QLabel(self.tr(
            "Measuring takes about a minute: yolov5's own data loader on a sample of your images at each worker "
            "count (originals, a resized copy, a RAM cache), the model's training speed, and on a GPU the largest "
            "batch that fits. Nothing is changed in your dataset."), self)
        self.text.setWordWrap(True)
        self.measure_button = QPushButton(self.tr("&Measure"), self)
        self.skip_button = QPushButton(self.tr("&Skip (estimate)"), self)
        self.cancel_button = QPushButton(self.tr("Cancel"), self, enabled=False)
        self.bar = QProgressBar(self, maximum=len(MEASURE_STEPS), textVisible=False)
        self.list = QListWidget(self)
        self.list.setAccessibleName(self.tr("Measurements"))
        row = QHBoxLayout()
        row.addWidget(self.measure_button)
        row.addWidget(self.skip_button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.bar, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addLayout(row)
        layout.addWidget(self.list, 1)

    def start(self) -> None:
        self.list.clear()
        self.bar.setValue(0)
        self.set_measuring(True)

    def set_measuring(self, on: bool) -> None:
        self.measure_button.setEnabled(not on)
        self.skip_button.setEnabled(not on)
        self.cancel_button.setEnabled(on)

    def show_step(self, event: dict[str, Any]) -> None:
        """One ``wizard_step`` event of the measure job, as a line of the list."""
        status = event.get("status")
        words = step_words(event.get("step"))
        if status == "started":
            self.list.addItem(self.tr("{step}: measuring…").format(step=words))
            return
        item = self.list.item(self.list.count() - 1)
        text = self.tr("{step}: {detail}").format(step=words, detail=event.get("detail") or status)
        if status in ("failed", "skipped"):
            text = self.tr("{step}: not measured — {detail}").format(step=words, detail=event.get("detail"))
        if item is not None:
            item.setText(text)
        if status != "progress":
            self.bar.setValue(int(event.get("index", 0)) + 1)
