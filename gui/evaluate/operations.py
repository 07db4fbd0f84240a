"""Every way the Evaluate window and the Errors browser reach core: one ``CoreOp`` per call (``gui.operations``).

Each function builds the operation — the core call off the GUI thread, with its words for a failure — and
the page adds what it does with the result. Reading an image and its label file, writing a label edit, its
undo, exporting the list, planning an evaluation (it hashes the weights) all touch the disk.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QObject

from core.evaluation.error_list import write_image_list
from core.evaluation.kfold_request import plan_kfold_evaluation
from core.evaluation.label_edits import LabelEdit, label_boxes
from core.evaluation.request import plan_run_evaluation
from gui.operations import CoreOp

Decoded = tuple[bytes, int, int]


def _tr(text: str) -> str:
    return QCoreApplication.translate("EvaluateOperations", text)


def read_image_and_labels(parent: QObject, decoder: Callable[[str], Decoded], image: str, width: int,
                          height: int) -> CoreOp[tuple[Decoded, list[list[float]]]]:
    """The image decoded for drawing and its label file as it is now (an edit since the evaluation shows)."""
    return CoreOp(parent, lambda: (decoder(image), label_boxes(image, width, height)),
                  what=_tr("Drawing {name}").format(name=Path(image).name))


def apply_label_edit(parent: QObject, make: Callable[[], LabelEdit], image: str) -> CoreOp[LabelEdit]:
    """Find the box in the label file and write the edit (atomic, a .bak before the first overwrite)."""

    def call() -> LabelEdit:
        edit = make()
        edit.apply()
        return edit

    return CoreOp(parent, call, what=_tr("Editing the label of {path}").format(path=image))


def undo_label_edit(parent: QObject, edit: LabelEdit) -> CoreOp[None]:
    return CoreOp(parent, edit.undo, what=_tr("Undoing the edit of {path}").format(path=edit.path))


def export_error_list(parent: QObject, rows: list[dict[str, Any]], path: Path) -> CoreOp[int]:
    return CoreOp(parent, lambda: write_image_list(rows, path), what=_tr("Exporting the list"))


def plan_evaluation(parent: QObject, run_dir: Path, workspace: Path, *, kfold: int = 0) -> CoreOp[Any]:
    """Plan the run's evaluation on val (``kfold`` 0: it hashes the weights and stats the split), or its
    held-out k-fold evaluation of the train split (the folds, the estimate from the run's epochs)."""
    if kfold:
        return CoreOp(parent, lambda: plan_kfold_evaluation(run_dir, workspace, k=kfold),
                      what=_tr("Planning the held-out predictions"))
    return CoreOp(parent, lambda: plan_run_evaluation(run_dir, workspace), what=_tr("Planning the evaluation"))
