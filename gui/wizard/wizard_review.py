"""The wizard's Review step: setting · value · why · evidence, the prediction, and the commands to copy.

Shows a ``core.wizard.session.result_document`` (the same document ``yolostudio wizard --json`` prints), so
the page and the terminal always say the same thing. Estimated settings (not measured here) carry a mark
and a tooltip naming why; the measurement failures are listed above the table in words.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QHeaderView, QLabel, QPlainTextEdit, QPushButton,
                               QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from core.run.progress import format_duration
from core.wizard.session import setting_words, step_words, value_words


class WizardReview(QWidget):
    copied = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc: dict[str, Any] | None = None
        self.notes = QLabel(self)
        self.notes.setWordWrap(True)
        self.notes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTableWidget(0, 4, self)
        self.table.setHorizontalHeaderLabels([self.tr("Setting"), self.tr("Value"), self.tr("Why"),
                                              self.tr("Evidence")])
        self.table.setAccessibleName(self.tr("Recommended settings"))
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)  # wrapped text
        self.table.setWordWrap(True)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.predicted = QLabel(self)
        self.predicted.setWordWrap(True)
        font = self.predicted.font()
        font.setBold(True)
        self.predicted.setFont(font)
        self.command_choice = QComboBox(self)
        self.command_choice.setAccessibleName(self.tr("Command"))
        self.command_choice.currentIndexChanged.connect(self._show_command)
        self.command = QPlainTextEdit(self, readOnly=True)
        self.command.setMaximumHeight(90)
        self.command.setAccessibleName(self.tr("Command to copy"))
        self.copy_button = QPushButton(self.tr("&Copy command"), self, clicked=self.copy_command)
        commands = QHBoxLayout()
        commands.addWidget(QLabel(self.tr("Run it elsewhere:"), self))
        commands.addWidget(self.command_choice, 1)
        commands.addWidget(self.copy_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.notes)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.predicted)
        layout.addLayout(commands)
        layout.addWidget(self.command)

    def command_names(self) -> dict[str, str]:
        return {"yolostudio": self.tr("yolostudio train"), "yolov5": self.tr("plain yolov5 train"),
                "nohup": self.tr("nohup (keeps training after an SSH session ends)"),
                "torchrun": self.tr("torchrun: every GPU of this machine (DDP)"),
                "nodes": self.tr("torchrun: one command per machine"),
                "elastic": self.tr("torchrun: elastic, the same command on every machine"),
                "prepare": self.tr("prepare the resized copy first")}

    def step_titles(self) -> dict[str, str]:
        """What each wizard step is called where a setting names the step that chose it."""
        return {"hardware": self.tr("Hardware"), "dataset": self.tr("Dataset"), "goal": self.tr("Goal"),
                "measure": self.tr("Measure")}

    def show_document(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        reasons = doc["reasons"]
        self.table.setRowCount(len(reasons))
        for row, (name, reason) in enumerate(reasons.items()):
            value = value_words(name, reason["value"]) if reason["value"] not in ("", None) else self.tr("none")
            step = self.step_titles().get(reason["step"], reason["step"])
            items = [QTableWidgetItem(setting_words(name)),
                     QTableWidgetItem(value + (" *" if reason["estimated"] else "")),
                     QTableWidgetItem(reason["why"]), QTableWidgetItem(reason["evidence"])]
            tip = self.tr("Chosen in the {step} step.").format(step=step)
            if reason["estimated"]:
                tip += " " + self.tr("Estimated: the measurement it needs was not made here.")
            items[0].setData(Qt.ItemDataRole.UserRole, name)  # the setting's id (the config's key)
            for column, item in enumerate(items):
                item.setToolTip(tip if column < 2 else item.text())
                self.table.setItem(row, column, item)
        lines = []
        if doc.get("estimated"):
            lines.append(self.tr("* estimated (not measured here): {names}").format(
                names=self.tr(", ").join(map(setting_words, doc["estimated"]))))  # 、 in Chinese
        for step, why in (doc.get("failures") or {}).items():
            lines.append(self.tr("Not measured — {step}: {why}").format(step=step_words(step), why=why))
        self.notes.setText("\n".join(lines))
        self.notes.setVisible(bool(lines))
        p = doc["predicted"]
        self.predicted.setText(self.tr("Predicted: {rate:.0f} images/s · {epoch} per epoch · {total} for {epochs} "
                                       "epochs").format(rate=p["images_per_s"], epoch=format_duration(p["epoch_s"]),
                                                        total=format_duration(p["total_s"]),
                                                        epochs=doc["config"]["epochs"])
                               + ("\n" + doc["hours_note"] if doc.get("hours_note") else ""))
        names = self.command_names()
        self.command_choice.blockSignals(True)
        self.command_choice.clear()
        for key in doc["commands"]:
            self.command_choice.addItem(names.get(key, key), key)
        self.command_choice.blockSignals(False)
        self._show_command()

    def _show_command(self) -> None:
        key = self.command_choice.currentData()
        value = (self.doc or {}).get("commands", {}).get(key, "")
        self.command.setPlainText("\n".join(value) if isinstance(value, list) else str(value))

    def copy_command(self) -> None:
        text = self.command.toPlainText()
        if text:
            QGuiApplication.clipboard().setText(text)
            self.copied.emit(text)
