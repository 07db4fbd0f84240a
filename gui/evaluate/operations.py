"""Every way the Evaluate window and the Errors browser reach core: one small ``CoreOp`` per call (``gui.operations``).

Why here: planning an evaluation hashes the weights (a held-out one lists the train split and reads the run's
spec), the stored result and its images.json are files, the browser reads each image with its label file as
it is now, and each label edit rewrites a label file; none of it may run on the GUI thread. Each function
builds the operation — the core call off the GUI thread, with its words for a failure — and the page adds
what it does with the result. The evaluations themselves (``evaluate``, ``evaluate_kfold``) are worker jobs
(``gui.job_runner``), not operations.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QObject

from core.evaluation.error_browse import RowBoxes, accept_edit, change_class_edit, delete_edit
from core.evaluation.error_list import write_image_list
from core.evaluation.label_edits import LabelEdit, label_boxes
from core.evaluation.label_scope import DatasetLabels
from core.evaluation.request import Stored, presented
from core.evaluation.store import load_evaluation, load_images
from core.report.gather import Choice, write_report
from core.usecases.evaluate import EvaluateDoor, KfoldDoor
from gui.operations import CoreOp

Decoded = tuple[bytes, int, int]  # an image decoded for drawing: RGBA bytes, width, height


def _tr(text: str) -> str:
    return QCoreApplication.translate("EvaluateOperations", text)


def _preflighted(door: EvaluateDoor | KfoldDoor) -> EvaluateDoor | KfoldDoor:
    door.preflight()
    return door


def plan_evaluation(parent: QObject, run_dir: Path, workspace: Path) -> CoreOp[EvaluateDoor | KfoldDoor]:
    """What evaluating this run on val means (its weights hashed, a stored result found if these inputs were
    judged): the door (``core.usecases.evaluate``), its pre-flight done."""
    return CoreOp(parent, lambda: _preflighted(EvaluateDoor.for_run(run_dir, workspace)),
                  what=_tr("Planning the evaluation"))


def plan_held_out(parent: QObject, run_dir: Path, workspace: Path, k: int, *, trust_weights: bool = False,
                  trust_model: bool = False) -> CoreOp[EvaluateDoor | KfoldDoor]:
    """The run's held-out (k-fold) evaluation of its train split: the folds, the estimate from the run's epochs,
    a stored result found if these inputs were judged, and the trust of what its trainings load (the door;
    ``trust_*``: the user's grant, given in the window's confirm)."""
    return CoreOp(parent, lambda: _preflighted(KfoldDoor(run_dir, workspace, k=k, trust_weights=trust_weights,
                                                         trust_model=trust_model)),
                  what=_tr("Planning the held-out predictions"))


def read_evaluation(parent: QObject, folder: Path) -> CoreOp[dict[str, Any] | None]:
    """The result the evaluate (or evaluate_kfold) worker stored in ``folder``; None when it stored none."""
    return CoreOp(parent, lambda: load_evaluation(folder), what=_tr("Reading the evaluation"))


def present_evaluation(parent: QObject, result: dict[str, Any], plan: Stored, config: dict[str, Any],
                       run_dir: Path, *, from_store: bool) -> CoreOp[dict[str, Any]]:
    """The result as the CLI presents it (store path, the prescription: it reads the evaluated images)."""
    return CoreOp(parent, lambda: presented(result, plan, config, run_dir, from_store=from_store),
                  what=_tr("Reading the evaluation"))


def read_evaluated_images(parent: QObject, folder: Path) -> CoreOp[list[dict[str, Any]]]:
    """Every image's boxes of the evaluation in ``folder`` (its images.json), for the Errors browser."""
    return CoreOp(parent, lambda: load_images(folder), what=_tr("Reading the evaluated images"))


def read_image_and_labels(parent: QObject, decoder: Callable[[str], Decoded], image: str, width: int,
                          height: int, dataset: DatasetLabels) -> CoreOp[tuple[Decoded, list[list[float]]]]:
    """The image decoded for drawing and its label file as it is now (an edit since the evaluation shows); an image
    that is not the dataset's is refused in words before anything is read (``label_scope``)."""
    def call() -> tuple[Decoded, list[list[float]]]:
        labels = label_boxes(image, width, height, dataset=dataset)
        return decoder(image), labels

    return CoreOp(parent, call,
                  what=_tr("Drawing {name}").format(name=Path(image).name))


def label_scope(data: Path) -> DatasetLabels:
    """The label files the Errors browser may read and edit: ``data``'s (listed on first use, in an operation)."""
    return DatasetLabels(data)


#: The Errors browser's fixes, by the name its buttons use (``core.evaluation.error_browse`` builds each edit;
#: building one reads the label file to find the box).
LABEL_EDITS: dict[str, Callable[..., LabelEdit]] = {
    "delete": delete_edit, "change_class": change_class_edit, "accept": accept_edit}


def apply_label_edit(parent: QObject, kind: str, row: dict[str, Any], boxes: RowBoxes, dataset: DatasetLabels,
                     **options: Any) -> CoreOp[LabelEdit]:
    """Build the ``kind`` edit of ``row``'s label file — one of ``dataset``'s — (``options``: ``new_class`` for
    ``change_class``) and apply it (atomic, a .bak before the first overwrite)."""
    make = LABEL_EDITS[kind]

    def call() -> LabelEdit:
        edit = make(row=row, boxes=boxes, dataset=dataset, **options)
        edit.apply()
        return edit

    return CoreOp(parent, call, what=_tr("Editing the label of {path}").format(path=row["image"]))


def undo_label_edit(parent: QObject, edit: LabelEdit) -> CoreOp[None]:
    """Put the label file back as it was before ``edit`` (refused when it changed since)."""
    return CoreOp(parent, edit.undo, what=_tr("Undoing the edit of {path}").format(path=edit.path))


def export_image_list(parent: QObject, rows: list[dict[str, Any]], path: Path) -> CoreOp[int]:
    """Write the listed rows' images, each once, likeliest label mistake first; the number written."""
    return CoreOp(parent, lambda: write_image_list(rows, path), what=_tr("Exporting the list"))


def write_deployment_report(parent: QObject, run_dir: Path, language: str,
                            choice: Choice) -> CoreOp[tuple[Path, dict[str, Any]]]:
    """The run's deployment report written beside it (``core.report``: it reads the stored evaluation and
    export reports, hashes the weights and bootstraps the matches); (the page's path, its facts)."""
    return CoreOp(parent, lambda: write_report(run_dir, language=language, choice=choice),
                  what=_tr("Writing the deployment report"))
