"""One editor per kind of training option: the widget, how to read and set its value, how it reads to a person.

The Train form builds a row per option from ``core.training.options`` — it never lists the options itself —
and asks this module for the editor that fits the option's ``widget`` kind. Every editor says the same
things the same way (``value``, ``set_value``, ``text``, ``changed``), so applying a prescription, showing
"current → new" in a confirmation and reading the config are one loop over the editors. The tooltip is the
option's help text, which says what the option does and what it costs.
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFileDialog, QHBoxLayout, QLineEdit, QPushButton,
                               QSpinBox, QWidget)

from core.i18n import tr
from core.model_catalog import BUILTIN_HYPS, BUILTIN_MODELS
from core.training.options import Option, choice_label

#: What a Browse button asks for: (dialog title, file filter), by widget kind.
BROWSE = {
    "dataset": ("Open a dataset", "Dataset YAML (*.yaml *.yml)"),
    "model": ("Choose a model", "Model definition or checkpoint (*.yaml *.yml *.pt)"),
    "weights": ("Choose initial weights", "PyTorch checkpoints (*.pt)"),
    "hyp": ("Choose a hyperparameter file", "Hyperparameter YAML (*.yaml *.yml)"),
}


class OptionEditor(QObject):
    """The editor of one option; ``row`` goes into the form, ``focus`` is the label's buddy."""

    changed = Signal()

    def __init__(self, option: Option, row: QWidget, focus: QWidget, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.option = option
        self.row = row
        self.focus = focus
        self.browse: QPushButton | None = None

    def value(self) -> Any:
        raise NotImplementedError

    def set_value(self, value: Any) -> bool:
        """Show ``value``; False when the editor cannot hold it (an unknown choice)."""
        raise NotImplementedError

    def text(self) -> str:
        """The value as the user sees it (``auto``, ``No cache …``)."""
        return str(self.value())


class SpinEditor(OptionEditor):
    def __init__(self, option: Option, parent: QWidget) -> None:
        number = option.widget == "int"
        spin: QSpinBox | QDoubleSpinBox = QSpinBox(parent) if number else QDoubleSpinBox(parent, decimals=2)
        if option.minimum is not None:
            spin.setMinimum(int(option.minimum) if number else option.minimum)  # type: ignore[arg-type]
        if option.maximum is not None:
            spin.setMaximum(int(option.maximum) if number else option.maximum)  # type: ignore[arg-type]
        if option.step:
            spin.setSingleStep(int(option.step) if number else option.step)  # type: ignore[arg-type]
        if option.special:
            spin.setSpecialValueText(tr(option.special))
        if option.suffix:
            spin.setSuffix(tr(option.suffix))
        spin.setValue(option.default)
        super().__init__(option, spin, spin, parent)
        self.spin = spin
        spin.valueChanged.connect(self.changed)

    def value(self) -> Any:
        return self.spin.value()

    def set_value(self, value: Any) -> bool:
        self.spin.setValue(int(value) if self.option.widget == "int" else float(value))
        return True

    def text(self) -> str:
        spin = self.spin
        if spin.specialValueText() and spin.value() == spin.minimum():
            return spin.specialValueText()
        return str(spin.value())


class CheckEditor(OptionEditor):
    def __init__(self, option: Option, parent: QWidget) -> None:
        box = QCheckBox(parent)
        box.setChecked(bool(option.default))
        super().__init__(option, box, box, parent)
        self.box = box
        box.toggled.connect(self.changed)

    def value(self) -> Any:
        return self.box.isChecked()

    def set_value(self, value: Any) -> bool:
        self.box.setChecked(bool(value))
        return True

    def text(self) -> str:
        return tr("on") if self.box.isChecked() else tr("off")


class ChoiceEditor(OptionEditor):
    """A fixed list of choices, or (``editable``) suggestions plus free text: models, hyp files, devices."""

    def __init__(self, option: Option, parent: QWidget, *, editable: bool = False,
                 items: tuple[tuple[Any, str], ...] = ()) -> None:
        combo = QComboBox(parent, editable=editable)
        for value, label in items or option.choices:
            combo.addItem(tr(label), value)
        super().__init__(option, combo, combo, parent)
        self.combo = combo
        self.set_value(option.default)
        (combo.currentTextChanged if editable else combo.currentIndexChanged).connect(self.changed)

    def value(self) -> Any:
        combo = self.combo
        if not combo.isEditable():
            return combo.currentData()
        index = combo.findText(combo.currentText())
        data = combo.itemData(index) if index >= 0 else None
        return data if isinstance(data, str) else combo.currentText().strip()

    def set_value(self, value: Any) -> bool:
        index = self.combo.findData(value)
        if index >= 0:
            self.combo.setCurrentIndex(index)
            return True
        if self.combo.isEditable():
            self.combo.setCurrentText(str(value))
            return True
        return False

    def text(self) -> str:
        return self.combo.currentText() if self.combo.isEditable() else choice_label(self.option, self.value())


class TextEditor(OptionEditor):
    def __init__(self, option: Option, parent: QWidget, *, strip: bool = True) -> None:
        edit = QLineEdit(str(option.default), parent)
        super().__init__(option, edit, edit, parent)
        self.edit = edit
        self._strip = strip
        edit.textChanged.connect(self.changed)

    def value(self) -> Any:
        return self.edit.text().strip() if self._strip else self.edit.text()

    def set_value(self, value: Any) -> bool:
        self.edit.setText(str(value))
        return True


def with_browse(editor: OptionEditor, parent: QWidget, on_pick: Callable[[str], None]) -> OptionEditor:
    """Put a Browse… button beside the editor; a picked file goes to ``on_pick``."""
    title, file_filter = BROWSE[editor.option.widget]
    box = QWidget(parent)
    layout = QHBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(editor.row, 1)
    button = QPushButton(QCoreApplication.translate("TrainForm", "Browse…"), box)
    layout.addWidget(button)

    def browse() -> None:
        start = str(editor.value()) if editor.option.widget == "dataset" else ""
        path, _ = QFileDialog.getOpenFileName(parent, tr(title), start, tr(file_filter))
        if path:
            on_pick(path)

    button.clicked.connect(browse)
    button.setToolTip(tr(editor.option.help))
    editor.row, editor.browse = box, button
    return editor


def make_editor(option: Option, parent: QWidget) -> OptionEditor:
    """The editor for ``option``'s widget kind, with the option's help as its tooltip."""
    kind = option.widget
    if kind in ("int", "float"):
        editor: OptionEditor = SpinEditor(option, parent)
    elif kind == "bool":
        editor = CheckEditor(option, parent)
    elif kind == "choice":
        editor = ChoiceEditor(option, parent)
    elif kind == "model":
        editor = ChoiceEditor(option, parent, editable=True, items=tuple((m, m) for m in BUILTIN_MODELS))
    elif kind == "hyp":
        editor = ChoiceEditor(option, parent, editable=True, items=tuple((h, h) for h in BUILTIN_HYPS))
    elif kind == "device":
        editor = ChoiceEditor(option, parent, editable=True)
    else:  # dataset, weights, text
        editor = TextEditor(option, parent, strip=kind != "text")
    editor.focus.setToolTip(tr(option.help))
    return editor
