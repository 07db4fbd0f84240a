"""Where an export goes, which images verify it, and the worker spec that runs it — pure functions.

Layout: weights from a run (``runs/<run>/weights/best.pt``) export into ``runs/<run>/exports/``;
weights from anywhere else export beside themselves into ``<stem>_exports/``. Each format gets its own
folder ``<stem>-<format>/`` holding the file and its ``export.json`` report, so a report always sits
beside the one file it describes and a new export of the same weights replaces the old one whole.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


from core.export.options import SUFFIXES, ExportOptions
from core.run.folder import WEIGHTS_DIR, RunFolder

REPORT_NAME = "export.json"
UNVERIFIED_TAG = "unverified"


def run_dir_of(weights: Path) -> Path | None:
    """The run folder a checkpoint belongs to (``<run>/weights/x.pt`` with ``<run>/config.json``)."""
    parent = weights.resolve().parent
    if parent.name == WEIGHTS_DIR and RunFolder(parent.parent).config.is_file():
        return parent.parent
    return None


def export_root(weights: Path) -> Path:
    run = run_dir_of(weights)
    return RunFolder(run).exports if run is not None else weights.resolve().parent / f"{weights.stem}_exports"


def format_dir(weights: Path, fmt: str) -> Path:
    return export_root(weights) / f"{weights.stem}-{fmt}"


def final_path(weights: Path, fmt: str, *, verified: bool = True) -> Path:
    """``best.onnx`` when verified; ``best.unverified.onnx`` otherwise, so nothing mistakes it for proven."""
    name = weights.stem + ("" if verified else f".{UNVERIFIED_TAG}") + SUFFIXES[fmt]
    return format_dir(weights, fmt) / name


def run_dataset(weights: Path) -> str:
    """The data.yaml a run trained on, or "" (weights not from a run, or no such setting)."""
    run = run_dir_of(weights)
    if run is None:
        return ""
    try:
        config = json.loads(RunFolder(run).config.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    return str(config.get("spec", {}).get("config", {}).get("data", ""))


def run_imgsz(weights: Path, default: int = 640) -> int:
    """The image size a run trained at (exports default to it), or ``default``."""
    run = run_dir_of(weights)
    if run is None:
        return default
    try:
        config = json.loads(RunFolder(run).config.read_text(encoding="utf-8"))
        return int(config["spec"]["config"].get("imgsz") or default)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return default


def build_export_spec(options: ExportOptions, workspace: Path, *, trusted: bool = False,
                      verify_images: int = 16, latency_runs: int = 20) -> dict[str, Any]:
    """The worker spec for ``python -m core.worker export``: everything it needs, nothing it must guess."""
    weights = Path(options.weights).expanduser().resolve()
    opts = options.to_dict()
    opts["weights"] = str(weights)
    if not opts["data"]:
        opts["data"] = run_dataset(weights)
    return {
        "job": "export",
        "workspace": str(workspace),
        "options": opts,
        "outputs": {fmt: str(final_path(weights, fmt)) for fmt in options.formats},
        "trusted_weights": [str(weights)] if trusted else [],
        "verify_images": verify_images,
        "latency_runs": latency_runs,
    }


def build_predict_spec(model: Path, images: list[Path], workspace: Path, *, imgsz: int, conf: float = 0.001,
                       iou: float = 0.45, trusted: bool = False) -> dict[str, Any]:
    """The worker spec for "Try it": run an exported (or .pt) model on images, return every box ≥ conf."""
    return {"job": "predict", "workspace": str(workspace), "model": str(Path(model).resolve()),
            "images": [str(p) for p in images], "imgsz": imgsz, "conf": conf, "iou": iou,
            "trusted_weights": [str(Path(model).resolve())] if trusted else []}


def find_reports(folder: Path) -> list[dict[str, Any]]:
    """Every ``export.json`` under a run (or export root), newest first; unreadable ones are skipped."""
    root = folder / "exports" if (folder / "exports").is_dir() else folder
    reports = []
    for path in root.glob(f"*/{REPORT_NAME}"):
        try:
            report = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(report, dict):
            report["report_path"] = str(path)
            reports.append(report)
    return sorted(reports, key=lambda r: r.get("created") or 0, reverse=True)


def cli_summary(report: dict[str, Any]) -> dict[str, Any]:
    """One export in the CLI's ``--json`` shape (issue 6): format, path, bytes, verified, latency_ms."""
    verified = report.get("verified") or {}
    latency = report.get("latency_ms") or {}
    return {"format": report.get("format"), "path": report.get("path"), "bytes": report.get("bytes"),
            "verified": {"max_abs_diff": verified.get("max_abs_diff"), "nms_agreement": verified.get("nms_agreement"),
                         "ok": bool(verified.get("ok"))},
            "latency_ms": {"torch": latency.get("torch"), "exported": latency.get("exported")},
            **({"int8": report["int8"]} if report.get("int8") else {})}
