"""Evaluations kept in the run folder: ``<run>/evaluations/<key>/`` holds one evaluation's files.

``result.json``: what the CLI's ``--json`` prints and the Evaluate view shows (settings, the weights' hash,
the dataset fingerprint, metrics, per-class table, confusion matrix, curves, errors); ``images.json``: every
image's labels and predictions (native pixels), for the Errors browser to draw. The key is a hash of the
settings, the weights' SHA-256 and the dataset's fingerprint (``core.evaluation.fingerprint``): the same
evaluation on the same inputs finds its folder and is read back instead of run again.

``evaluations_dir`` is the one place that names the folder (a run folder's layout has one owner; point it
there when it exists). Files are written atomically, ``result.json`` last, so a folder without it is an
evaluation that did not finish and is ignored.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from core.atomic import atomic_write_text
from core.evaluation.stored_result import check_result
from core.run.folder import RunFolder
from core.stored_file import read_regular_bytes

RESULT_FILE = "result.json"
IMAGES_FILE = "images.json"
#: Bumped when what an evaluation computes changes, so older results are not taken for new ones.
STORE_VERSION = 2  # 2: label scores calibrated per class (core/worker/label_scores.py)


def evaluations_dir(run_dir: Path) -> Path:
    """The run's folder of evaluations (the run folder's layout is ``RunFolder``'s)."""
    return RunFolder(run_dir).evaluations


def evaluation_key(settings: dict[str, Any], weights_sha256: str, dataset_fingerprint: str) -> str:
    """A short stable key of everything the result depends on."""
    blob = json.dumps({"v": STORE_VERSION, "settings": settings, "weights": weights_sha256,
                       "dataset": dataset_fingerprint}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def evaluation_folder(run_dir: Path, key: str) -> Path:
    return evaluations_dir(run_dir) / key


def save_evaluation(folder: Path, result: dict[str, Any], images: list[dict[str, Any]]) -> Path:
    """Write one evaluation (images first, the result last: its presence marks a finished one)."""
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write_text(folder / IMAGES_FILE, json.dumps(images), backup=False)
    atomic_write_text(folder / RESULT_FILE, json.dumps(result, indent=1), backup=False)
    return folder / RESULT_FILE


def _read_json(path: Path) -> Any:
    """The file's JSON, or None when it is missing, not a regular file (a FIFO never blocks the reader:
    ``core.stored_file``) or not JSON."""
    try:
        return json.loads(read_regular_bytes(path).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None


def load_evaluation(folder: Path) -> dict[str, Any] | None:
    """The stored result, or None when there is none (or it cannot be read: it is then run again).

    A result whose values no reader can use raises ``StoredEvaluationError`` (``core.evaluation.stored_result``),
    which names the file, the key and the value."""
    result = _read_json(Path(folder) / RESULT_FILE)
    return check_result(result, Path(folder) / RESULT_FILE) if isinstance(result, dict) else None


def load_images(folder: Path) -> list[dict[str, Any]]:
    images = _read_json(Path(folder) / IMAGES_FILE)
    return images if isinstance(images, list) else []


def list_evaluations(run_dir: Path) -> list[dict[str, Any]]:
    """The run's finished evaluations, newest first (each result with its ``store`` path); a damaged one raises
    ``StoredEvaluationError`` as ``load_evaluation`` does."""
    root = evaluations_dir(run_dir)
    out = []
    for folder in sorted(root.iterdir()) if root.is_dir() else []:
        result = load_evaluation(folder)
        if result is not None:
            out.append({**result, "store": str(folder / RESULT_FILE)})
    return sorted(out, key=lambda r: float(r.get("created") or 0), reverse=True)
