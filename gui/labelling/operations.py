"""The box editor's core calls, each a ``CoreOp`` off the GUI thread: open an image's labels for editing
(``core.boxedit.session.EditSession`` reads the label file) and write them (atomic, ``.bak``)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import QCoreApplication, QObject

from core.boxedit.review import ReviewRow, by_need, folder_rows
from core.boxedit.session import Box, EditSession
from core.dataset.data_yaml import read_data_yaml
from core.evaluation.label_edits import LabelEdit
from gui.operations import CoreOp


def _tr(text: str) -> str:
    return QCoreApplication.translate("BoxEditor", text)


def open_session(parent: QObject, label: Path | str | Callable[[], Path], width: int, height: int,
                 proposals: list[Box] | None = None) -> CoreOp[EditSession]:
    """The label file of one image read for editing (with a model's ``proposals`` added, if any); ``label`` may be
    a call that finds it (``DatasetLabels.label_for`` lists the dataset on first use)."""
    def call() -> EditSession:
        return EditSession(label() if callable(label) else label, width, height, proposals)

    return CoreOp(parent, call, what=_tr("Reading the labels of {path}").format(
        path=label if not callable(label) else ""))


def save_session(parent: QObject, session: EditSession) -> CoreOp[LabelEdit | None]:
    """The session's boxes written when they changed (None when nothing was to write)."""
    return CoreOp(parent, session.save, what=_tr("Writing {path}").format(path=session.path))


def load_review(parent: QObject, read: Callable[[], list[ReviewRow]]) -> CoreOp[list[ReviewRow]]:
    """A review queue's rows read and ordered, most in need first (``core.boxedit.review.by_need``)."""
    return CoreOp(parent, lambda: by_need(read()), what=_tr("Reading the review queue"))


def folder_review(parent: QObject, folder: str) -> CoreOp[list[ReviewRow]]:
    """A folder's images as rows to label (``core.boxedit.review.folder_rows``), most in need first."""
    return CoreOp(parent, lambda: by_need(folder_rows(folder)), what=_tr("Listing the images of {folder}").format(
        folder=folder))


def class_names(parent: QObject, data_yaml: str) -> CoreOp[list[str]]:
    """The class names of a data.yaml ([] when it cannot be read: the editor then shows class numbers)."""
    def call() -> list[str]:
        spec = read_data_yaml(Path(data_yaml)).spec
        return list(spec.names) if spec is not None else []

    return CoreOp(parent, call, what=_tr("Reading the class names of {path}").format(path=data_yaml))
