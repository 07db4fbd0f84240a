"""Where the model definitions come from: the yolov5 package's own YAMLs, found without importing it.

The GUI process must never import yolov5 (seconds of start-up, cv2's Qt plugins), so the package is
located with ``importlib.util.find_spec``, which only reads the import system's metadata.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

BUILTIN_MODELS = ("yolov5n.yaml", "yolov5s.yaml", "yolov5m.yaml", "yolov5l.yaml", "yolov5x.yaml")
#: The model a run gets when none is chosen (the CLI, the Train form before anything is remembered, the wizard's
#: measurement): the smallest built-in, which trains on a CPU in minutes.
DEFAULT_MODEL = BUILTIN_MODELS[0]
BUILTIN_HYPS = ("hyp.scratch-low.yaml", "hyp.scratch-med.yaml", "hyp.scratch-high.yaml", "hyp.no-augmentation.yaml")


def yolov5_package_dir() -> Path | None:
    spec = importlib.util.find_spec("yolov5")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent


def builtin_model_path(name: str) -> Path | None:
    """The packaged YAML for ``yolov5n`` / ``yolov5n.yaml`` etc., or None when not a built-in."""
    base = name if name.endswith((".yaml", ".yml")) else f"{name}.yaml"
    if base not in BUILTIN_MODELS:
        return None
    pkg = yolov5_package_dir()
    return None if pkg is None else pkg / "models" / base


def builtin_hyp_path(name: str) -> Path | None:
    if name not in BUILTIN_HYPS:
        return None
    pkg = yolov5_package_dir()
    return None if pkg is None else pkg / "data" / "hyps" / name
