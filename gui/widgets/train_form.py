"""The Train page's options form: it edits a ``core.train_config.TrainConfig`` and nothing else.

Keyboard friendly (buddies, natural tab order), with the demo dataset one click away. Validation lives
in ``core.train_config.validate_config``; the form only says ``changed`` and hands out ``config()``;
``apply_values`` sets fields by their ``TrainConfig`` name (the bottleneck doctor's prescriptions).
Picking a checkpoint that ``core.trust`` says needs trust asks first — a checkpoint is a pickle that can
run code — and a confirmed path is remembered in ``trusted_weights``.
"""

from __future__ import annotations

import os
from pathlib import Path

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QComboBox, QFileDialog, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QProgressBar,
                               QPushButton, QSpinBox, QVBoxLayout, QWidget)

from core.model_catalog import BUILTIN_MODELS
from core.train_config import AUTO_BATCH, MachineFacts, TrainConfig
from core.trust import confirmed_entry, needs_trust
from gui import dialogs

DEMO_DEFAULTS = {"epochs": 30, "imgsz": 128}
OTHER_DEFAULTS = {"epochs": 100, "imgsz": 640}


def _row(*widgets: QWidget) -> QWidget:
    box = QWidget()
    layout = QHBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    for i, widget in enumerate(widgets):
        layout.addWidget(widget, 1 if i == 0 else 0)
    return box


class TrainForm(QWidget):
    changed = Signal()
    demo_requested = Signal()

    def __init__(self, workspace: Path, demo_yaml: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.demo_yaml = demo_yaml
        self.trusted_weights: set[str] = set()
        self._touched: set[str] = set()
        self._programmatic = False

        self.data_edit = QLineEdit(self, placeholderText=self.tr("Path of a data.yaml"))
        self.data_browse = QPushButton(self.tr("Browse…"), self, clicked=self._browse_data)
        self.demo_button = QPushButton(self.tr("Use demo dataset"), self)
        self.demo_button.clicked.connect(self.demo_requested)
        self.demo_button.setToolTip(self.tr("A small synthetic dataset (circles, squares, triangles) that trains "
                                            "in minutes on a CPU; made on this machine, nothing is downloaded."))
        self.demo_progress = QProgressBar(self, visible=False)
        self.demo_status = QLabel(self, visible=False, wordWrap=True)
        self.model_combo = QComboBox(self, editable=True)
        self.model_combo.addItems(list(BUILTIN_MODELS))
        self.model_combo.setToolTip(self.tr("n is the smallest and fastest, x the largest; or a model .yaml or "
                                            "a .pt checkpoint to start from."))
        self.model_browse = QPushButton(self.tr("Browse…"), self, clicked=self._browse_model)
        self.epochs = QSpinBox(self, minimum=1, maximum=10_000, value=DEMO_DEFAULTS["epochs"])
        self.imgsz = QSpinBox(self, minimum=32, maximum=4096, singleStep=32, value=DEMO_DEFAULTS["imgsz"],
                              suffix=self.tr(" px"))
        self.imgsz.setToolTip(self.tr("Images are resized to this size; a multiple of 32."))
        self.batch = QSpinBox(self, minimum=AUTO_BATCH, maximum=4096, value=16, suffix=self.tr(" images"))
        self.batch.setSpecialValueText(self.tr("auto"))
        self.batch.setToolTip(self.tr("Images per training step. “auto” lets yolov5 pick it on a single GPU."))
        self.workers = QSpinBox(self, minimum=0, maximum=64, value=min(8, os.cpu_count() or 1))
        self.workers.setToolTip(self.tr("Processes loading and augmenting images in parallel with training."))
        self.device_combo = QComboBox(self, editable=True)
        self.device_combo.setToolTip(self.tr("Auto uses the first GPU if there is one, else the CPU. "
                                             "Type 0,1 for two GPUs."))
        self.set_machine_facts(MachineFacts())
        self.cache_combo = QComboBox(self)
        self.cache_combo.addItem(self.tr("No cache (read each image from disk)"), "")
        self.cache_combo.addItem(self.tr("RAM (decode once, keep in memory)"), "ram")
        self.cache_combo.addItem(self.tr("Disk (decoded .npy files beside the images)"), "disk")
        self.cache_combo.setToolTip(self.tr("Caching decoded images removes JPEG decoding from every epoch; "
                                            "yolov5 checks that a RAM cache fits."))
        self.name_edit = QLineEdit("exp", self)
        self.name_edit.setToolTip(self.tr("The run folder's name; a number is added when it already exists."))

        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(self.tr("&Dataset:"), _row(self.data_edit, self.data_browse))
        demo_box = QWidget(self)
        demo_layout = QVBoxLayout(demo_box)
        demo_layout.setContentsMargins(0, 0, 0, 0)
        demo_row = QHBoxLayout()
        demo_row.addWidget(self.demo_button)
        demo_row.addStretch(1)
        demo_layout.addLayout(demo_row)
        demo_layout.addWidget(self.demo_progress)
        demo_layout.addWidget(self.demo_status)
        form.addRow("", demo_box)
        form.addRow(self.tr("&Model:"), _row(self.model_combo, self.model_browse))
        form.addRow(self.tr("&Epochs:"), self.epochs)
        form.addRow(self.tr("&Image size:"), self.imgsz)
        form.addRow(self.tr("&Batch:"), self.batch)
        form.addRow(self.tr("&Workers:"), self.workers)
        form.addRow(self.tr("De&vice:"), self.device_combo)
        form.addRow(self.tr("&Cache:"), self.cache_combo)
        form.addRow(self.tr("Run &name:"), self.name_edit)
        for row, field in ((0, self.data_edit), (2, self.model_combo), (3, self.epochs), (4, self.imgsz),
                           (5, self.batch), (6, self.workers), (7, self.device_combo), (8, self.cache_combo),
                           (9, self.name_edit)):
            label = form.itemAt(row, QFormLayout.ItemRole.LabelRole).widget()
            label.setBuddy(field)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(form)
        chain = (self.data_edit, self.data_browse, self.demo_button, self.model_combo, self.model_browse,
                 self.epochs, self.imgsz, self.batch, self.workers, self.device_combo, self.cache_combo, self.name_edit)
        for first, second in zip(chain, chain[1:]):
            QWidget.setTabOrder(first, second)

        self.data_edit.textChanged.connect(self._on_data_changed)
        self.model_combo.currentTextChanged.connect(self.changed)
        self.device_combo.currentTextChanged.connect(self.changed)
        self.cache_combo.currentIndexChanged.connect(self.changed)
        self.name_edit.textChanged.connect(self.changed)
        for key, spin in (("epochs", self.epochs), ("imgsz", self.imgsz), ("batch", self.batch),
                          ("workers", self.workers)):
            spin.valueChanged.connect(lambda _value, key=key: self._on_spin_changed(key))

    # -- reading and writing ------------------------------------------------------------------------
    def config(self) -> TrainConfig:
        return TrainConfig(data=self.data_edit.text().strip(), model=self.model_combo.currentText().strip(),
                           epochs=self.epochs.value(), imgsz=self.imgsz.value(), batch=self.batch.value(),
                           workers=self.workers.value(), device=self.device_value(), name=self.name_edit.text(),
                           cache=self.cache_combo.currentData() or "")

    def device_value(self) -> str:
        text = self.device_combo.currentText()
        index = self.device_combo.findText(text)
        data = self.device_combo.itemData(index) if index >= 0 else None
        return data if isinstance(data, str) else text.strip()

    #: TrainConfig fields the form can set (the doctor's prescriptions name them).
    SETTABLE = ("epochs", "imgsz", "batch", "workers", "device", "cache", "model", "name", "data")

    def field_text(self, field: str) -> str:
        """The field's current value as the user sees it (``auto``, ``no cache``…)."""
        spins = {"epochs": self.epochs, "imgsz": self.imgsz, "batch": self.batch, "workers": self.workers}
        if field in spins:
            spin = spins[field]
            return spin.specialValueText() if spin.value() == spin.minimum() and spin.specialValueText() else \
                str(spin.value())
        if field == "cache":
            return self.cache_combo.currentText()
        if field == "device":
            return self.device_combo.currentText()
        value = getattr(self.config(), field, None)
        return "" if value is None else str(value)

    def apply_values(self, values: dict[str, Any]) -> list[str]:
        """Set fields by TrainConfig name; the ones set count as chosen by the user. Returns the fields set."""
        spins = {"epochs": self.epochs, "imgsz": self.imgsz, "batch": self.batch, "workers": self.workers}
        done = []
        for field, value in values.items():
            if field in spins:
                spins[field].setValue(int(value))
                self._touched.add(field)
            elif field == "cache":
                index = self.cache_combo.findData(str(value or ""))
                if index < 0:
                    continue
                self.cache_combo.setCurrentIndex(index)
            elif field == "device":
                index = self.device_combo.findData(str(value))
                if index >= 0:
                    self.device_combo.setCurrentIndex(index)
                else:
                    self.device_combo.setCurrentText(str(value))
            elif field == "model":
                self.set_model(str(value))
            elif field == "name":
                self.name_edit.setText(str(value))
            elif field == "data":
                self.set_data_path(str(value))
            else:
                continue
            done.append(field)
        return done

    def set_data_path(self, path: str) -> None:
        self.data_edit.setText(path)

    def set_model(self, model: str) -> None:
        self.model_combo.setCurrentText(model)

    def set_machine_facts(self, facts: MachineFacts) -> None:
        current = self.device_value() if self.device_combo.count() else ""
        self.device_combo.blockSignals(True)
        self.device_combo.clear()
        self.device_combo.addItem(self.tr("Auto (first GPU, else CPU)"), "")
        self.device_combo.addItem(self.tr("CPU"), "cpu")
        for i, name in enumerate(facts.gpu_names):
            self.device_combo.addItem(self.tr("GPU {index}: {name}").format(index=i, name=name), str(i))
        index = self.device_combo.findData(current)
        if index >= 0:
            self.device_combo.setCurrentIndex(index)
        else:
            self.device_combo.setCurrentText(current)
        self.device_combo.blockSignals(False)

    def is_demo(self) -> bool:
        text = self.data_edit.text().strip()
        return bool(text) and Path(text).expanduser() == self.demo_yaml

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

    # -- slots --------------------------------------------------------------------------------------
    def _on_data_changed(self) -> None:
        defaults = DEMO_DEFAULTS if self.is_demo() else OTHER_DEFAULTS
        self._programmatic = True
        if "epochs" not in self._touched:
            self.epochs.setValue(defaults["epochs"])
        if "imgsz" not in self._touched:
            self.imgsz.setValue(defaults["imgsz"])
        self._programmatic = False
        self.changed.emit()

    def _on_spin_changed(self, key: str) -> None:
        if not self._programmatic:
            self._touched.add(key)
        self.changed.emit()

    def _browse_data(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a dataset"), self.data_edit.text(),
                                              self.tr("Dataset YAML (*.yaml *.yml)"))
        if path:
            self.set_data_path(path)

    def _browse_model(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a model"), "",
                                              self.tr("Model definition or checkpoint (*.yaml *.yml *.pt)"))
        if path and self.accept_weights(Path(path)):
            self.set_model(path)

    def accept_weights(self, path: Path) -> bool:
        """Ask before trusting a checkpoint (``core.trust``'s rule); True when it may be used."""
        if not needs_trust(path, self.workspace, self.trusted_weights):
            return True
        if not dialogs.confirm_untrusted_weights(self, path):
            return False
        self.trusted_weights.add(confirmed_entry(path))
        return True
