"""A held-out (k-fold) evaluation of a run's train split asked for by a front end: planned, keyed, estimated.

The CLI (``yolostudio evaluate RUN --split train --kfold 3``) and the app's Evaluate window ask the same:
which images (the run's train split, as the dataset check lists them), which folds (``core.evaluation.kfold``),
how many epochs per fold, what it will cost (the run's measured epochs), and whether these inputs were
evaluated before. The result is stored like any evaluation, under its own key: the settings plus the
k-fold choice, the identity of what the fold models are trained from (the run's settings and start weights)
and the train split's fingerprint. ``plan_kfold_evaluation`` stats every train image and hashes the start
weights: a front end with a GUI thread calls it in the background.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.dataset.data_yaml import read_data_yaml
from core.evaluation.fingerprint import dataset_fingerprint, split_images, weights_hash
from core.evaluation.kfold import (FOLD_SEED, KFOLD_DEFAULT, KfoldEstimate, assign_folds, estimate,
                                   fold_epochs)
from core.evaluation.plan import EvaluateSettings, default_settings, run_training_config, run_world_size
from core.evaluation.request import EvaluationRefused
from core.evaluation.store import evaluation_folder, evaluation_key, load_evaluation
from core.evaluation.words import no_images_words
from core.i18n import tr
from core.job.protocol import read_events
from core.run.files import CONFIG_FILE, EVENTS_FILE
from core.stored_file import read_regular_bytes

#: Settings of the run that do not change what a fold model learns (left out of the key).
_NOT_LEARNED = ("name", "device", "workers", "nproc_per_node", "nnodes", "node_rank", "rdzv_endpoint", "rdzv_id",
                "master_addr", "master_port", "noplots", "save_period", "cache")


@dataclass(frozen=True)
class KfoldPlan:
    run_dir: Path
    run_spec: dict[str, Any]  # the run's worker spec (config.json): what each fold trains with
    config: dict[str, Any]
    data: Path
    settings: EvaluateSettings  # split "train"; the run's own validation settings for the held-out predictions
    k: int
    epochs: int
    folds: list[list[str]]
    identity: str
    dataset_fingerprint: str
    key: str
    folder: Path
    estimate: KfoldEstimate
    stored: dict[str, Any] | None


def _run_spec(run_dir: Path) -> dict[str, Any]:
    try:
        spec = json.loads(read_regular_bytes(run_dir / CONFIG_FILE))["spec"]
    except (OSError, ValueError, KeyError, TypeError):
        spec = None
    if not isinstance(spec, dict) or not isinstance(spec.get("resolved"), dict):
        raise EvaluationRefused(tr("Run {run} has no readable {file}: its settings are not known.",
                                   run=run_dir.name, file=CONFIG_FILE),
                                tr("Held-out predictions train like the run; evaluate a run made by this app."))
    return spec


def fold_identity(run_spec: dict[str, Any]) -> str:
    """A hash of what the fold models learn from: the run's learning settings, its model and start weights."""
    config = {k: v for k, v in (run_spec.get("config") or {}).items() if k not in _NOT_LEARNED}
    resolved = run_spec.get("resolved") or {}
    start = str(resolved.get("weights") or "")
    blob = {"config": config, "cfg": str(resolved.get("cfg") or ""), "hyp": str(resolved.get("hyp") or ""),
            "weights": weights_hash(Path(start)) if start and Path(start).is_file() else start}
    return hashlib.sha256(json.dumps(blob, sort_keys=True, default=str).encode()).hexdigest()


def plan_kfold_evaluation(run_dir: Path, workspace: Path, *, k: int = KFOLD_DEFAULT, epochs: int | None = None,
                          imgsz: int | None = None, conf: float | None = None,
                          iou: float | None = None) -> KfoldPlan:
    """Plan held-out predictions for the run's train split; raises ``EvaluationRefused`` in words."""
    run_dir = Path(run_dir)
    spec = _run_spec(run_dir)
    config = run_training_config(run_dir)
    data = Path(str(config.get("data") or ""))
    if not config.get("data") or not data.is_file():
        raise EvaluationRefused(tr("The dataset of run {run} is not there: {path}", run=run_dir.name, path=data),
                                tr("Put the dataset back where the run trained from it."))
    images = split_images(data, "train")
    if not images:
        raise EvaluationRefused(*no_images_words(data, "train"))
    try:
        folds = assign_folds(images, k)
    except ValueError as exc:
        raise EvaluationRefused(str(exc), tr("Use fewer folds (--kfold 2), or add training images.")) from exc
    settings = default_settings(config, split="train", imgsz=imgsz, conf=conf, iou=iou,
                                world_size=run_world_size(run_dir))
    n_epochs = fold_epochs(config.get("epochs"), epochs)
    identity = fold_identity(spec)
    fingerprint = dataset_fingerprint(data, "train", images)
    key = evaluation_key({**settings.to_json(), "kfold": {"k": k, "epochs": n_epochs, "seed": FOLD_SEED}},
                         identity, fingerprint)
    folder = evaluation_folder(run_dir, key)
    cost = estimate(read_events(run_dir / EVENTS_FILE), k=k, epochs=n_epochs, run_name=run_dir.name)
    return KfoldPlan(run_dir, spec, config, data.resolve(), settings, k, n_epochs, folds, identity, fingerprint,
                     key, folder, cost, load_evaluation(folder))


def build_kfold_spec(plan: KfoldPlan, workspace: Path, *, device: str = "", trusted_weights: tuple[str, ...] = (),
                     trusted_model: bool = False) -> dict[str, Any]:
    """The ``evaluate_kfold`` worker spec. Trust is what the door decided now (``core.usecases.grants``: provenance,
    or the user's grant), never what the run's ``config.json`` claims: its ``trusted_*`` fields are dropped."""
    run_spec = {k: v for k, v in plan.run_spec.items() if k not in ("trusted_weights", "trusted_model")}
    return {
        "job": "evaluate_kfold",
        "workspace": str(workspace),
        "run_name": plan.run_dir.name,
        "run_spec": run_spec,
        "data": str(plan.data),
        "folds": plan.folds,
        "epochs": plan.epochs,
        "settings": plan.settings.to_json(),
        "device": _one_device(device or str(plan.config.get("device") or "")),
        "weights": str(plan.run_spec["resolved"].get("weights") or plan.run_spec["resolved"].get("cfg") or ""),
        "weights_sha256": plan.identity,
        "store": str(plan.folder),
        "key": plan.key,
        "identity": plan.identity,
        "dataset_fingerprint": plan.dataset_fingerprint,
        "trusted_weights": list(trusted_weights),
        "trusted_model": bool(trusted_model),
        "created": time.time(),
    }


def _one_device(device: str) -> str:
    """The first of a device list: a fold trains in one process (yolov5 would take "0,1" for DataParallel)."""
    return device.split(",")[0].strip()


def class_names(data: Path) -> list[str]:
    """The dataset's class names (the fold data.yaml files carry them)."""
    judged = read_data_yaml(data)
    return list(judged.spec.names) if judged.spec is not None else []
