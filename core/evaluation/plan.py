"""What an evaluation runs on and with: the weights, the data, the settings — and its key in the store.

The defaults are the ones training's own final validation used (yolov5 ``train.py``: ``val.run`` on
``best.pt`` with the run's ``imgsz``, ``batch_size * 2``, ``conf_thres=0.001``, ``iou_thres=0.60``, its
``single_cls``; ``val.py``'s ``max_det=300``), so an evaluation of a run's best weights on its val split
gives training's last numbers. ``build_evaluate_spec`` is the worker spec for ``python -m core.worker
evaluate``; a pure function.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from core.evaluation.fingerprint import dataset_fingerprint, split_images, weights_hash
from core.evaluation.store import evaluation_folder, evaluation_key
from core.run.files import CONFIG_FILE
from core.run.folder import RunFolder
from core.stored_file import read_regular_bytes

#: val.py's defaults (``run(conf_thres=0.001, iou_thres=0.6, max_det=300)``), which train.py's final validation keeps.
CONF_DEFAULT = 0.001
IOU_DEFAULT = 0.6
MAX_DET = 300
SPLITS = ("val", "test")


@dataclass(frozen=True)
class EvaluateSettings:
    split: str = "val"
    imgsz: int = 640
    batch: int = 32  # val.py's default; a run's is its training batch * 2, as train.py validates
    conf: float = CONF_DEFAULT
    iou: float = IOU_DEFAULT
    max_det: int = MAX_DET
    single_cls: bool = False

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def run_of(weights: Path) -> Path | None:
    """The run folder of ``<run>/weights/x.pt`` (one with its ``config.json``), else None."""
    parent = Path(weights).resolve().parent
    if parent.name == "weights" and (parent.parent / CONFIG_FILE).is_file():
        return parent.parent
    return None


def run_training_config(run_dir: Path | None) -> dict[str, Any]:
    """The run's training settings from its config.json ({} when absent or unreadable)."""
    if run_dir is None:
        return {}
    try:
        config = json.loads(read_regular_bytes(Path(run_dir) / CONFIG_FILE))["spec"]["config"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return config if isinstance(config, dict) else {}


def run_world_size(run_dir: Path | None) -> int:
    """How many processes trained the run (DDP: nodes × processes per node; 1 otherwise)."""
    from core.runs.store import run_topology

    if run_dir is None:
        return 1
    try:
        spec = json.loads(read_regular_bytes(Path(run_dir) / CONFIG_FILE)).get("spec")
    except (OSError, ValueError, AttributeError):
        return 1
    topology = run_topology(spec)
    return topology["nnodes"] * topology["nproc_per_node"]


def run_weights(run_dir: Path) -> Path | None:
    """The weights an evaluation of a run uses: best.pt (what training validated last), else last.pt."""
    folder = RunFolder(Path(run_dir))  # the run folder's layout has one owner
    return folder.best_weights() or folder.last_weights()


def default_settings(run_config: dict[str, Any], *, split: str = "val", imgsz: int | None = None,
                     conf: float | None = None, iou: float | None = None, world_size: int = 1) -> EvaluateSettings:
    """The run's own validation settings, with the user's overrides (train.py validates with
    ``batch_size // WORLD_SIZE * 2``)."""
    batch = int(run_config.get("batch") or 16) // max(1, world_size) * 2 if run_config else 32
    return EvaluateSettings(split=split, imgsz=int(imgsz or run_config.get("imgsz") or 640), batch=max(1, batch),
                            conf=CONF_DEFAULT if conf is None else float(conf),
                            iou=IOU_DEFAULT if iou is None else float(iou),
                            single_cls=bool(run_config.get("single_cls", False)))


def store_root(weights: Path) -> Path:
    """Where a weights file's evaluations live: its run folder, else beside it (``<stem>_evaluations``'s parent)."""
    run = run_of(weights)
    return run if run is not None else Path(weights).resolve().parent / f"{Path(weights).stem}_eval"


@dataclass(frozen=True)
class EvaluatePlan:
    weights: Path
    data: Path
    settings: EvaluateSettings
    images: list[str]
    weights_sha256: str
    dataset_fingerprint: str
    key: str
    folder: Path


def plan_evaluation(weights: Path, data: Path, settings: EvaluateSettings) -> EvaluatePlan:
    """Hash the inputs and name the store folder (reads the weights once and stats the split's files)."""
    weights, data = Path(weights).resolve(), Path(data).resolve()
    images = split_images(data, settings.split)
    w_hash = weights_hash(weights)
    fingerprint = dataset_fingerprint(data, settings.split, images)
    key = evaluation_key(settings.to_json(), w_hash, fingerprint)
    return EvaluatePlan(weights, data, settings, images, w_hash, fingerprint, key,
                        evaluation_folder(store_root(weights), key))


def build_evaluate_spec(plan: EvaluatePlan, workspace: Path, *, trusted: bool = False,
                        device: str = "") -> dict[str, Any]:
    """The worker spec: everything the evaluate job needs, nothing it must guess."""
    return {
        "job": "evaluate",
        "workspace": str(workspace),
        "weights": str(plan.weights),
        "data": str(plan.data),
        "settings": plan.settings.to_json(),
        "device": device,
        "store": str(plan.folder),
        "key": plan.key,
        "weights_sha256": plan.weights_sha256,
        "dataset_fingerprint": plan.dataset_fingerprint,
        "trusted_weights": [str(plan.weights)] if trusted else [],
        "created": time.time(),
    }
