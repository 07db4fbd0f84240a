"""The line under the Train form's Model field: what the next run starts from, why, and the one click that changes it.

It shows ``core.weights.choice.recommend_start``'s answer next to what the form holds: fine-tuning from the
stored COCO checkpoint (with "Train from scratch" to opt out), training from scratch because the checkpoint
is not here (with "Get yolov5s.pt…", which asks before it downloads), a stored file that changed, or
another start the user chose. "Weights…" opens the store. The panel owns the form's values; this widget
only shows and asks (its signals). The wizard's Review shows it too, with ``switches=False``: it offers Get
and Weights… but not the scratch/fine-tune switch, which belongs to the Train form it hands over to.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from core.weights.choice import StartChoice
from gui.widgets.levels import level_icon


class StartHint(QWidget):
    get_requested = Signal(str)  # the checkpoint's name, "yolov5s"
    scratch_requested = Signal()
    pretrained_requested = Signal(str)  # the checkpoint's file name, "yolov5s.pt"
    manage_requested = Signal()

    def __init__(self, parent: QWidget | None = None, *, switches: bool = True) -> None:
        super().__init__(parent)
        self._switches = switches
        self.level = "info"
        self.choice: StartChoice | None = None
        self._icon = QLabel(self)
        self.text = QLabel(self, wordWrap=True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.get_button = QPushButton(self, clicked=self._get)
        self.get_button.setToolTip(self.tr("Download it from the official YOLOv5 release (asks first)"))
        self.scratch_button = QPushButton(self.tr("Train from scratch"), self)
        self.scratch_button.clicked.connect(lambda: self.scratch_requested.emit())
        self.scratch_button.setToolTip(self.tr("Start from random weights instead (needs many more epochs)"))
        self.pretrained_button = QPushButton(self, clicked=self._pretrained)
        self.manage_button = QPushButton(self.tr("Weights…"), self)
        self.manage_button.clicked.connect(lambda: self.manage_requested.emit())
        self.manage_button.setToolTip(self.tr("The pretrained checkpoints: get, import or remove them"))
        line = QHBoxLayout()
        line.setContentsMargins(0, 0, 0, 0)
        line.addWidget(self._icon, 0, Qt.AlignmentFlag.AlignTop)
        line.addWidget(self.text, 1)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        for button in (self.get_button, self.pretrained_button, self.scratch_button, self.manage_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 4)
        layout.addLayout(line)
        layout.addLayout(buttons)

    @property
    def buttons(self) -> tuple[QPushButton, ...]:
        """In tab order."""
        return self.get_button, self.pretrained_button, self.scratch_button, self.manage_button

    def show_choice(self, choice: StartChoice, weights: str) -> None:
        """``weights``: the form's Initial weights as typed ("" = none)."""
        self.choice = choice
        checkpoint = choice.checkpoint
        weights = weights.strip()
        shown = {"get": False, "pretrained": False, "scratch": False}
        if weights and not (checkpoint and weights == checkpoint.file_name and choice.weights):
            level, text = "info", self.tr("Starting from {weights} (Initial weights, under Advanced options).").format(
                weights=weights)
        elif weights:
            level, text, shown["scratch"] = "ok", choice.reason, True
        elif checkpoint is not None and choice.weights is not None:
            level, text, shown["pretrained"] = "info", self.tr(
                "Training from scratch, as you chose: it needs many more epochs than fine-tuning from {file}, "
                "which is on this machine.").format(file=checkpoint.file_name), True
        elif checkpoint is not None and choice.state == "absent":
            level, text, shown["get"] = "info", choice.reason, True
        else:
            level, text = ("warning" if choice.state in ("changed", "unlisted") else "info"), choice.reason
        if checkpoint is not None:
            self.get_button.setText(self.tr("Get {file} ({size})…").format(file=checkpoint.file_name,
                                                                          size=checkpoint.size_text()))
            self.pretrained_button.setText(self.tr("Fine-tune from {file}").format(file=checkpoint.file_name))
        self.get_button.setVisible(shown["get"])
        self.pretrained_button.setVisible(shown["pretrained"] and self._switches)
        self.scratch_button.setVisible(shown["scratch"] and self._switches)
        self.level = level
        self._icon.setPixmap(level_icon(level).pixmap(16, 16))
        self.text.setText(text)

    def _get(self) -> None:
        if self.choice is not None and self.choice.checkpoint is not None:
            self.get_requested.emit(self.choice.checkpoint.name)

    def _pretrained(self) -> None:
        if self.choice is not None and self.choice.checkpoint is not None:
            self.pretrained_requested.emit(self.choice.checkpoint.file_name)
