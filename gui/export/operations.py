"""The Export page's calls into core, one ``CoreOp`` each (``gui.operations``): off the GUI thread.

What the machine can export (``core.export.facts``: PyTorch, TensorRT, onnxsim looked up), what a chosen
weights file's run says (its image size, its dataset, its earlier export reports: ``core.export.plan``), a run's
reports, whether a .pt needs the user's word (``core.trust``: the workspace's records), the export job's spec,
and the validation images "Try it" runs on (``core.dataset.split_images``) all read the disk; the page
only starts these and shows what comes back. Exporting and "Try it" themselves are worker jobs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject

from core.dataset.split_images import split_images
from core.export.facts import ExportFacts, gather_export_facts
from core.export.options import ExportOptions
from core.export.plan import export_root, find_reports, run_dataset, run_imgsz
from core.trust import confirmed_entry, needs_trust
from core.usecases.export import ExportDoor
from gui.operations import CoreOp

TRY_IMAGES = 16


def _tr(text: str) -> str:
    return QCoreApplication.translate("ExportOperations", text)


@dataclass
class WeightsInfo:
    """What the page shows for a chosen weights file, read in one go."""

    weights: str
    imgsz: int
    dataset: str  # the data.yaml its run trained on ("" when not from a run)
    reports: list[dict[str, Any]] = field(default_factory=list)  # its earlier exports, newest first


def weights_info(weights: Path, default_imgsz: int) -> WeightsInfo:
    reports = [r for r in find_reports(export_root(weights)) if Path(r.get("weights", "")) == weights]
    return WeightsInfo(str(weights), run_imgsz(weights, default_imgsz), run_dataset(weights), reports)


def validation_images(data: str, weights: Path, limit: int = TRY_IMAGES) -> list[Path]:
    """Up to ``limit`` validation images of ``data`` (else of the dataset the weights' run trained on)."""
    data = data or run_dataset(weights)
    return split_images(data, limit=limit).images if data else []


def export_facts_op(parent: QObject) -> CoreOp[ExportFacts]:
    return CoreOp(parent, gather_export_facts, what=_tr("Checking which export formats this machine can do"))


def weights_info_op(parent: QObject, weights: Path, default_imgsz: int) -> CoreOp[WeightsInfo]:
    return CoreOp(parent, lambda: weights_info(weights, default_imgsz),
                  what=_tr("Reading the run of {name}").format(name=weights.name))


def run_reports_op(parent: QObject, run_dir: Path) -> CoreOp[list[dict[str, Any]]]:
    return CoreOp(parent, lambda: find_reports(run_dir), what=_tr("Reading the export reports of {name}").format(
        name=run_dir.name))


def validation_images_op(parent: QObject, data: str, weights: Path) -> CoreOp[list[Path]]:
    return CoreOp(parent, lambda: validation_images(data, weights), what=_tr("Finding the validation images"))


def trust_op(parent: QObject, path: Path, workspace: Path, confirmed: set[str]) -> CoreOp[bool]:
    """True when loading ``path`` needs the user's confirmation first (``core.trust.needs_trust``)."""
    return CoreOp(parent, lambda: needs_trust(path, workspace, confirmed), what=_tr("Checking where {name} comes from")
                  .format(name=path.name))


def export_spec(options: ExportOptions, workspace: Path, confirmed: set[str]) -> ExportDoor | None:
    """The export's door, its pre-flight passed (its job built); None while the weights still need the user's
    confirmation. A file the user confirmed is the user's grant: the door puts it in the spec's trusted list."""
    door = ExportDoor(options, workspace, trust_weights=confirmed_entry(options.weights) in confirmed)
    if door.asks_grant:
        return None
    door.spec()  # raises Refused (words) for a refusal no grant lifts: a weights-store file that changed
    return door


def export_spec_op(parent: QObject, options: ExportOptions, workspace: Path,
                   confirmed: set[str]) -> CoreOp[ExportDoor | None]:
    return CoreOp(parent, lambda: export_spec(options, workspace, set(confirmed)), what=_tr("Preparing the export"))
