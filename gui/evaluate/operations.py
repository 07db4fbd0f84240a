"""The Evaluate window's and the Errors browser's calls into core, one small ``CoreOp`` each (``gui.operations``).

Why here: planning an evaluation hashes the weights, the stored result and its images.json are files, and
each label edit rewrites a label file; none of it may run on the GUI thread. The evaluation itself is a
worker job (``gui.job_runner``), not an operation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QObject

from core.evaluation.error_browse import RowBoxes, accept_edit, change_class_edit, delete_edit
from core.evaluation.error_list import write_image_list
from core.evaluation.label_edits import LabelEdit
from core.evaluation.request import RunEvaluation, plan_run_evaluation, presented
from core.evaluation.store import load_evaluation, load_images
from gui.operations import CoreOp


def _tr(text: str) -> str:
    return QCoreApplication.translate("EvaluateOperations", text)


def plan_evaluation(parent: QObject, run_dir: Path, workspace: Path) -> CoreOp[RunEvaluation]:
    """What evaluating this run means (its weights hashed, a stored result found if these inputs were judged)."""
    return CoreOp(parent, lambda: plan_run_evaluation(run_dir, workspace), what=_tr("Planning the evaluation"))


def read_evaluation(parent: QObject, folder: Path) -> CoreOp[dict[str, Any] | None]:
    """The result the evaluate worker stored in ``folder``; None when it stored none."""
    return CoreOp(parent, lambda: load_evaluation(folder), what=_tr("Reading the evaluation"))


def present_evaluation(parent: QObject, result: dict[str, Any], planned: RunEvaluation, run_dir: Path, *,
                       from_store: bool) -> CoreOp[dict[str, Any]]:
    """The result as the CLI presents it (store path, the prescription: it reads the evaluated images)."""
    return CoreOp(parent, lambda: presented(result, planned.plan, planned.config, run_dir, from_store=from_store),
                  what=_tr("Reading the evaluation"))


def read_evaluated_images(parent: QObject, folder: Path) -> CoreOp[list[dict[str, Any]]]:
    """Every image's boxes of the evaluation in ``folder`` (its images.json), for the Errors browser."""
    return CoreOp(parent, lambda: load_images(folder), what=_tr("Reading the evaluated images"))


#: The Errors browser's fixes, by the name its buttons use (``core.evaluation.error_browse`` builds each edit).
LABEL_EDITS = {"delete": delete_edit, "change_class": change_class_edit, "accept": accept_edit}


def apply_label_edit(parent: QObject, kind: str, row: dict[str, Any], boxes: RowBoxes) -> CoreOp[LabelEdit]:
    """Build the ``kind`` edit of ``row``'s label file (it reads the file) and apply it (atomic, a .bak beside it)."""
    make = LABEL_EDITS[kind]

    def call() -> LabelEdit:
        edit = make(row=row, boxes=boxes)
        edit.apply()
        return edit

    return CoreOp(parent, call, what=_tr("Editing {path}").format(path=row["image"]))


def undo_label_edit(parent: QObject, edit: LabelEdit) -> CoreOp[None]:
    """Put the label file back as it was before ``edit`` (refused when it changed since)."""
    return CoreOp(parent, edit.undo, what=_tr("Undoing the edit of {path}").format(path=edit.path))


def export_image_list(parent: QObject, rows: list[dict[str, Any]], path: Path) -> CoreOp[int]:
    """Write the listed rows' images, each once, likeliest label mistake first; the number written."""
    return CoreOp(parent, lambda: write_image_list(rows, path), what=_tr("Exporting the list"))


def decode_picture(parent: QObject, decoder: Callable[[str], tuple[bytes, int, int]],
                   path: str) -> CoreOp[tuple[bytes, int, int]]:
    """One image file decoded (and scaled) for the Errors browser: its bytes, width and height."""
    return CoreOp(parent, lambda: decoder(path), what=_tr("Drawing {name}").format(name=path))
