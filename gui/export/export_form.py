"""The Export page's options: which weights, which formats, and the options that go with them.

It edits a ``core.export.options.ExportOptions`` and nothing else. Whether each format/option is
possible is decided by ``core.export.options.option_states`` on the machine's facts; the form only
greys out what is not possible and shows the reason (and the install command) right under the options,
never colour or a disabled box alone. Weights come from the workspace's runs (best/last) or from any
local .pt, which the page confirms first (a .pt is a pickle).
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton,
                               QSpinBox, QVBoxLayout, QWidget)

from core.export.options import OPSET_DEFAULT, OPSET_MAX, OPSET_MIN, ExportOptions, OptionState
from core.runs.store import RunInfo


class ExportForm(QWidget):
    changed = Signal()
    browse_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.weights_combo = QComboBox(self)
        self.weights_combo.setToolTip(self.tr("A run's best.pt or last.pt, or another .pt you picked"))
        self.weights_combo.setMinimumContentsLength(14)
        self.weights_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.browse_button = QPushButton(self.tr("Other .pt…"), self)
        self.browse_button.clicked.connect(self.browse_requested)
        self.formats = {
            "onnx": QCheckBox(self.tr("ONNX"), self, checked=True),
            "engine": QCheckBox(self.tr("TensorRT engine"), self),
            "torchscript": QCheckBox(self.tr("TorchScript"), self, checked=True),
            "openvino": QCheckBox(self.tr("OpenVINO"), self),
        }
        self.imgsz = QSpinBox(self, minimum=32, maximum=4096, singleStep=32, value=640, suffix=self.tr(" px"))
        self.imgsz.setToolTip(self.tr("The exported model's input size; a multiple of 32."))
        self.batch = QSpinBox(self, minimum=1, maximum=256, value=1)
        self.opset = QSpinBox(self, minimum=OPSET_MIN, maximum=OPSET_MAX, value=OPSET_DEFAULT)
        self.opset.setToolTip(self.tr("ONNX operator set; 17 suits TensorRT 10, ONNX Runtime and OpenCV."))
        self.checks = {
            "half": QCheckBox(self.tr("FP16 (half precision)"), self),
            "dynamic": QCheckBox(self.tr("Dynamic batch and image size"), self),
            "simplify": QCheckBox(self.tr("Simplify the ONNX graph"), self),
            "int8": QCheckBox(self.tr("INT8 (calibrated on the dataset, its accuracy cost measured)"), self),
        }
        self.data_edit = QLineEdit(self, placeholderText=self.tr("the run's own dataset"))
        self.data_edit.setToolTip(self.tr("data.yaml whose validation images verify the export (and calibrate INT8)"))
        self.reasons = QLabel(self, wordWrap=True)
        self.disabled_reasons: dict[str, str] = {}
        self.reasons.setTextFormat(Qt.TextFormat.RichText)
        self.reasons.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        weights_row = QHBoxLayout()
        weights_row.addWidget(self.weights_combo, 1)
        weights_row.addWidget(self.browse_button)
        formats_row = QHBoxLayout()
        for box in self.formats.values():
            formats_row.addWidget(box)
        formats_row.addStretch(1)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        weights_label = QLabel(self.tr("&Weights:"), self)  # a layout as the field gets no buddy: '&' would show
        weights_label.setBuddy(self.weights_combo)
        form.addRow(weights_label, weights_row)
        form.addRow(self.tr("Formats:"), formats_row)
        form.addRow(self.tr("&Image size:"), self.imgsz)
        form.addRow(self.tr("&Batch:"), self.batch)
        form.addRow(self.tr("ONNX &opset:"), self.opset)
        for box in self.checks.values():
            form.addRow("", box)
        form.addRow(self.tr("&Dataset:"), self.data_edit)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(form)
        layout.addWidget(self.reasons)
        for box in (*self.formats.values(), *self.checks.values()):
            box.toggled.connect(self.changed)
        for spin in (self.imgsz, self.batch, self.opset):
            spin.valueChanged.connect(self.changed)
        self.weights_combo.currentIndexChanged.connect(self.changed)
        self.data_edit.textChanged.connect(self.changed)

    # -- weights ------------------------------------------------------------------------------------
    def set_runs(self, runs: list[RunInfo]) -> None:
        """Offer every run's best.pt / last.pt (newest run first); keeps a picked file at the top. With nothing
        picked yet, the newest finished run's best.pt is chosen — never the weights of a run still training."""
        current = self.weights_path()
        self.weights_combo.blockSignals(True)
        self.weights_combo.clear()
        preferred = -1
        for info in runs:
            training = info.status == "running"
            for best, path in ((True, info.best_weights), (False, info.last_weights)):
                if path and Path(path).is_file():  # the file's own name (best.pt): never translated
                    text = self.tr("{run} · {file}").format(run=info.name, file=Path(path).name)
                    if training:
                        text = self.tr("{weights} (still training)").format(weights=text)
                    elif preferred < 0 and best:
                        preferred = self.weights_combo.count()
                    self.weights_combo.addItem(text, path)
        if current and self.weights_combo.findData(current) < 0:
            self.weights_combo.insertItem(0, Path(current).name, current)
            preferred += 1 if preferred >= 0 else 0
        index = self.weights_combo.findData(current) if current else max(preferred, 0)
        self.weights_combo.setCurrentIndex(max(0, index))
        self.weights_combo.blockSignals(False)
        self.changed.emit()

    def add_weights_file(self, path: Path) -> None:
        index = self.weights_combo.findData(str(path))
        if index < 0:
            self.weights_combo.insertItem(0, self.tr("{name} (picked file)").format(name=path.name), str(path))
            index = 0
        self.weights_combo.setCurrentIndex(index)

    def weights_path(self) -> str:
        return str(self.weights_combo.currentData() or "")

    # -- options ------------------------------------------------------------------------------------
    def options(self) -> ExportOptions:
        formats = tuple(name for name, box in self.formats.items() if box.isChecked() and box.isEnabled())
        flags = {name: box.isChecked() and box.isEnabled() for name, box in self.checks.items()}
        return ExportOptions(weights=self.weights_path(), formats=formats, imgsz=self.imgsz.value(),
                             batch=self.batch.value(), opset=self.opset.value(), data=self.data_edit.text().strip(),
                             **flags)

    def set_imgsz(self, value: int) -> None:
        self.imgsz.setValue(value)

    def apply_states(self, states: dict[str, OptionState]) -> None:
        """Grey out what is not possible, with the reason as tooltip and in the list under the form."""
        rows = []
        labelled = {**self.formats, **self.checks}
        for name, widget in labelled.items():
            state = states.get(name, OptionState())
            widget.blockSignals(True)
            widget.setEnabled(state.enabled)
            if not state.enabled and widget.isChecked():
                widget.setChecked(False)
            widget.blockSignals(False)
            tip = state.reason + (f"\n{state.install}" if state.install else "")
            widget.setToolTip(tip)
            if not state.enabled:
                text = self.tr("<b>{option}</b>: {reason}").format(option=escape(widget.text()),
                                                                   reason=escape(state.reason))
                if state.install:
                    text += "<br><code>" + escape(state.install) + "</code>"
                rows.append(text)
        opset = states.get("opset", OptionState())
        self.opset.setEnabled(opset.enabled)
        self.opset.setToolTip(opset.reason or self.tr("ONNX operator set; 17 suits TensorRT 10, ONNX Runtime and "
                                                      "OpenCV."))
        self.reasons.setText("<br>".join(rows))
        self.reasons.setVisible(bool(rows))
        self.disabled_reasons = {name: states[name].reason for name in labelled if name in states
                                 and not states[name].enabled}
