"""Is this file a YOLOv5 detection checkpoint — and the one its name promises? Loaded in a worker only.

A file enters the weights store only after this says yes (``core/worker/weights_job.py``). It unpickles
the file fully (a YOLOv5 checkpoint holds the model object), which is why it runs only on bytes that came
from the official release over HTTPS, or that the user confirmed they trust (an import).

What "the expected architecture" means for an official checkpoint (``core.weights.catalog``):
- a detection model whose last layer is yolov5's ``Detect``, with 80 classes (COCO);
- the layer types, depth and width multiples of the pinned yolov5 package's own model YAML
  (``models/yolov5s.yaml``; P6: ``models/hub/yolov5s6.yaml``), and its number of output layers (3, or 4 for P6);
- the published parameter count (README v7.0, rounded to 0.1 M) within ``PARAMS_TOLERANCE``.
Official checkpoints pickle their classes as ``models.yolo.*`` (the repository's layout, importable once
``yolov5.models.yolo`` is imported), so classes are compared by name, not identity.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from core.i18n import tr
from core.model_catalog import yolov5_package_dir
from core.weights.catalog import Checkpoint

COCO_CLASSES = 80
#: The README rounds to 0.1 M, and its rounding is not consistent (yolov5l: 46,563,709 parameters is
#: listed as 46.5): allow 0.15 M or 1 %, whichever is larger. Neighbouring models differ far more.
PARAMS_TOLERANCE = (0.15, 0.01)


class CheckpointMismatch(ValueError):
    """The file is not a YOLOv5 detection checkpoint, or not the one expected; the words say which."""


def package_yaml(checkpoint: Checkpoint) -> dict[str, Any]:
    """The pinned yolov5 package's YAML for ``checkpoint`` (P5 under models/, P6 under models/hub/)."""
    package = yolov5_package_dir()
    if package is None:
        raise CheckpointMismatch(tr("The yolov5 package is not installed, so {name} cannot be checked.",
                                    name=checkpoint.file_name))
    for folder in ("models", "models/hub"):
        path = package / folder / checkpoint.yaml_name
        if path.is_file():
            return yaml.safe_load(path.read_text(encoding="utf-8"))
    raise CheckpointMismatch(tr("The yolov5 package has no {yaml}.", yaml=checkpoint.yaml_name))


def layer_types(model_yaml: dict[str, Any]) -> list[str]:
    """The module name of every layer, backbone then head (``Conv``, ``C3``, ``SPPF``, … ``Detect``)."""
    return [str(row[2]) for row in [*model_yaml.get("backbone", []), *model_yaml.get("head", [])]]


def load_checkpoint(path: Path) -> Any:
    """The model inside a YOLOv5 checkpoint file (its EMA when it has one)."""
    import torch

    import yolov5.models.yolo  # noqa: F401 - puts the package on sys.path as 'models', as official files expect

    try:
        # weights_only=False on purpose: the caller vouches for these bytes (official HTTPS, or confirmed).
        ckpt = torch.load(path, map_location="cpu", weights_only=False)
    except Exception as exc:  # noqa: BLE001 - any failure to unpickle means "not a checkpoint"
        raise CheckpointMismatch(tr("{name} is not a PyTorch checkpoint that loads here ({kind}: {reason}).",
                                    name=path.name, kind=type(exc).__name__, reason=exc)) from exc
    model = (ckpt.get("ema") or ckpt.get("model")) if isinstance(ckpt, dict) else None
    if model is None or not isinstance(getattr(model, "yaml", None), dict) or not hasattr(model, "model"):
        raise CheckpointMismatch(tr("{name} is not a YOLOv5 checkpoint (no YOLOv5 model inside).", name=path.name))
    return model


def describe_model(model: Any) -> dict[str, Any]:
    """Plain facts about a loaded YOLOv5 model (what the store's manifest keeps)."""
    head = model.model[-1]
    return {
        "task": "detect" if type(head).__name__ == "Detect" else type(head).__name__,
        "classes": int(getattr(head, "nc", getattr(model, "nc", 0)) or 0),
        "detect_layers": int(getattr(head, "nl", 0) or 0),
        "params": int(sum(p.numel() for p in model.parameters())),
        "depth_multiple": model.yaml.get("depth_multiple"),
        "width_multiple": model.yaml.get("width_multiple"),
        "layers": layer_types(model.yaml),
        "stride": int(max(model.stride.tolist())) if hasattr(model, "stride") else None,
    }


def check_checkpoint(path: Path, expected: Checkpoint | None) -> dict[str, Any]:
    """Load ``path`` and check it; the facts found (minus the layer list). ``expected``: the official
    checkpoint its name promises (None for an import under another name: any YOLOv5 detection model)."""
    facts = describe_model(load_checkpoint(path))
    if facts["task"] != "detect":
        raise CheckpointMismatch(tr("{name} is a YOLOv5 {task} model, not a detection model.", name=path.name,
                                    task=facts["task"]))
    if expected is not None:
        _compare(path.name, facts, expected)
    facts.pop("layers")
    return facts


def _compare(name: str, facts: dict[str, Any], expected: Checkpoint) -> None:
    reference = package_yaml(expected)
    differences = []
    if facts["classes"] != COCO_CLASSES:
        differences.append(tr("{got} classes instead of COCO's {want}", got=facts["classes"], want=COCO_CLASSES))
    if facts["detect_layers"] != expected.detect_layers:
        differences.append(tr("{got} output layers instead of {want}", got=facts["detect_layers"],
                              want=expected.detect_layers))
    for key in ("depth_multiple", "width_multiple"):
        if facts[key] != reference.get(key):
            differences.append(tr("{key} {got} instead of {want}", key=key, got=facts[key], want=reference.get(key)))
    if facts["layers"] != layer_types(reference):
        differences.append(tr("its layers differ from {yaml}", yaml=expected.yaml_name))
    params_m = facts["params"] / 1e6
    allowed = max(PARAMS_TOLERANCE[0], expected.params_m * PARAMS_TOLERANCE[1])
    if abs(params_m - expected.params_m) > allowed:
        differences.append(tr("{got:.2f} M parameters instead of the published {want} M", got=params_m,
                              want=expected.params_m))
    if differences:
        raise CheckpointMismatch(tr("{name} is not the official {model} checkpoint: {differences}.", name=name,
                                    model=expected.name, differences="; ".join(differences)))
