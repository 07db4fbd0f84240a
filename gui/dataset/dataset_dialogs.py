"""The questions the Dataset page asks in a modal box, each a module function so tests can answer it.

Callers use ``dataset_dialogs.ask_unsaved(...)`` (looked up at call time), so a test monkeypatches the
function instead of clicking a real box.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QInputDialog, QMessageBox, QWidget

from gui.dialogs import ask_yes

SAVE, DISCARD, CANCEL = "save", "discard", "cancel"


def _tr(text: str) -> str:
    return QCoreApplication.translate("DatasetDialogs", text)


def ask_unsaved(parent: QWidget | None, name: str) -> str:
    """``SAVE``, ``DISCARD`` or ``CANCEL`` for a data.yaml with unsaved edits."""
    answer = QMessageBox.warning(
        parent, _tr("Unsaved changes"),
        _tr("{name} has changes that are not saved. Save them before leaving?").format(name=name),
        QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Save)
    return {QMessageBox.StandardButton.Save: SAVE, QMessageBox.StandardButton.Discard: DISCARD}.get(answer, CANCEL)


def confirm_id_change(parent: QWidget | None, what: str) -> bool:
    """Label files store class *ids*: deleting or reordering classes changes what every label means."""
    return ask_yes(parent, _tr("Change class ids?"),
                   _tr("{what}\n\nLabel files store class ids, not names, so this changes the meaning of existing "
                       "labels (they are not rewritten). Continue?").format(what=what), warning=True)


def ask_val_ratio(parent: QWidget | None) -> float | None:
    """The share of images that go to val for a new dataset; None when cancelled."""
    value, ok = QInputDialog.getInt(parent, _tr("Validation share"),
                                    _tr("Percent of images for validation (the rest train):"), 20, 1, 90)
    return value / 100 if ok else None


def choose_data_yaml(parent: QWidget | None, start: str) -> str:
    from PySide6.QtWidgets import QFileDialog

    path, _ = QFileDialog.getOpenFileName(parent, _tr("Open a data.yaml"), start, _tr("YAML files (*.yaml *.yml)"))
    return path


def choose_image_folder(parent: QWidget | None, start: str) -> str:
    from PySide6.QtWidgets import QFileDialog

    return QFileDialog.getExistingDirectory(parent, _tr("Folder of images and labels"), start)


def confirm_fix(parent: QWidget | None, summary: str, before: str, after: str) -> bool:
    """Preview a one-click fix: what changes (before → after) and where the backup goes."""
    box = QMessageBox(QMessageBox.Icon.Question, _tr("Apply this fix?"), summary,
                      QMessageBox.StandardButton.Apply | QMessageBox.StandardButton.Cancel, parent)
    if before or after:
        box.setDetailedText(_tr("Before:\n{before}\n\nAfter:\n{after}").format(before=before[:4000],
                                                                                after=after[:4000]))
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    return box.exec() == QMessageBox.StandardButton.Apply


def confirm_remove_key(parent: QWidget, key: str) -> bool:
    """Clearing an optional key in the form: remove it from the file (``test: ''`` would mean nothing)."""
    return ask_yes(parent, _tr("Remove {key}?").format(key=key), _tr(
        "Remove the '{key}' key from data.yaml? Without it the dataset simply has no {key} split; an empty "
        "'{key}:' value would not say that.").format(key=key), default_yes=True)


def ask_class_names(parent: QWidget | None, suggested: list[str], note: str) -> list[str] | None:
    """The class names of a new dataset, one a line (id 0 first); ``note`` says what the labels hold.

    Asked when the folder has no ``classes.txt``: names are the user's, never invented from the ids found."""
    from PySide6.QtWidgets import QLabel

    dialog = QInputDialog(parent)
    dialog.setWindowTitle(_tr("Class names"))
    dialog.setOption(QInputDialog.InputDialogOption.UsePlainTextEditForTextInput)
    dialog.setLabelText(_tr("{note}\n\nOne class name a line; the first line is id 0:").format(note=note))
    dialog.setTextValue("\n".join(suggested))
    for label in dialog.findChildren(QLabel):
        label.setWordWrap(True)  # the note is a paragraph: a window as wide as the screen otherwise
        label.setMaximumWidth(540)  # CJK text wraps anywhere, so its width hint is the whole line
    dialog.resize(560, 380)
    if dialog.exec() != QInputDialog.DialogCode.Accepted:
        return None
    names = [line.strip() for line in dialog.textValue().splitlines() if line.strip()]
    return names or None
