"""The Predict page's calls into core, one ``CoreOp`` each (``gui.operations``): off the GUI thread.

Which models a run offers (its ``.pt`` and every export its reports name: ``core.export.plan``), and the
prediction's door — the source checked (``core.predict.source``: a missing file, an empty folder refused before a
worker starts), the new output folder chosen (``core.predict.plan.default_out``), the spec built and the door's
preflight run (it may hash a ``.pt`` to decide its trust). The page only starts these and shows what comes back;
predicting itself is the worker's ``predict`` job, started on ``gui.job_runner.JobRunner`` with this door.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject

from core.evaluation.plan import run_of
from core.export.plan import export_root, find_reports, run_imgsz
from core.export.render import format_name
from core.predict.plan import build_source_spec, default_out
from core.predict.source import check, classify
from core.usecases.predict import PredictSourceDoor
from gui.operations import CoreOp


def _tr(text: str) -> str:
    return QCoreApplication.translate("PredictOperations", text)


@dataclass(frozen=True)
class ModelChoice:
    """One entry of the model list: a run's ``.pt`` or one of its exports."""

    label: str
    path: str
    imgsz: int


def run_models(weights: list[Path]) -> list[ModelChoice]:
    """Each run's weights, then the exports made of them (newest first), each with the size it runs at."""
    out: list[ModelChoice] = []
    for pt in weights:
        run = run_of(pt)
        name = run.name if run is not None else pt.parent.name
        imgsz = run_imgsz(pt)
        out.append(ModelChoice(f"{name} — {pt.name}", str(pt), imgsz))
        for report in find_reports(export_root(pt)):
            path = report.get("path")
            if not path or not Path(path).exists() or Path(report.get("weights", "")) != pt:
                continue
            size = int((report.get("options") or {}).get("imgsz") or imgsz)
            out.append(ModelChoice(f"{name} — {format_name(report.get('format'))} ({Path(path).name})", str(path),
                                   size))
    return out


@dataclass(frozen=True)
class PredictRequest:
    """What the page's form says: the model, the source text, and the options."""

    model: str
    source: str
    imgsz: int
    conf: float
    iou: float
    slice_size: int = 0
    slice_overlap: float = 0.2
    trust_weights: bool = False


def prepare(request: PredictRequest, workspace: Path) -> PredictSourceDoor:
    """The prediction's door, its preflight run; ``core.predict.source.SourceError`` for a source that is not
    there (its message and hint are the page's words)."""
    source = classify(request.source)
    check(source)
    model = Path(request.model)
    out = default_out(workspace, run_of(model) if model.is_file() and model.suffix == ".pt" else
                      _run_of_export(model))
    spec = build_source_spec(model, source, workspace, out, imgsz=request.imgsz, conf=request.conf,
                             iou=request.iou, slice_size=request.slice_size, slice_overlap=request.slice_overlap,
                             live=True)
    door = PredictSourceDoor(spec, workspace, trust_weights=request.trust_weights)
    door.preflight()
    return door


def _run_of_export(model: Path) -> Path | None:
    """The run an export lives in (``<run>/exports/<fmt>/best.onnx``), else None."""
    for parent in Path(model).resolve().parents:
        if parent.name == "exports":
            return parent.parent if (parent.parent / "weights").is_dir() else None
    return None


def run_models_op(parent: QObject, weights: list[Path]) -> CoreOp[list[ModelChoice]]:
    return CoreOp(parent, lambda: run_models(weights), what=_tr("Listing the runs' models"))


def prepare_op(parent: QObject, request: PredictRequest, workspace: Path) -> CoreOp[PredictSourceDoor]:
    return CoreOp(parent, lambda: prepare(request, workspace), what=_tr("Preparing the prediction"))
