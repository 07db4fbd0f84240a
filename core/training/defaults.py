"""The defaults that follow the dataset, in one table both faces use: the demo trains in minutes at its own size.

Why: the demo dataset (``core.demo``) is drawn at 128 px and learnt within tens of epochs from scratch, so it
trains at ``imgsz`` 128 for 30 epochs; any other dataset gets yolov5's own defaults (``TrainConfig``'s:
``imgsz`` 640, 100 epochs — yolov5 7.0.14 ``train.py``'s ``--img 640`` and ``--epochs 100``). The Train page
sets these when a dataset is chosen (unless the user typed the value) and ``yolostudio train`` applies them
to options given neither on the line nor in a ``--config`` file, so the same inputs start the same run from
either face.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.demo.spec import demo_data_yaml
from core.training.options import TrainConfig

#: The demo's values: 128 px is the size its pictures are drawn at (``core.demo.spec.DemoSpec.image_size``).
DEMO_DEFAULTS: dict[str, Any] = {"epochs": 30, "imgsz": 128}
#: Every other dataset's: the options' own defaults (one source: ``TrainConfig``).
OTHER_DEFAULTS: dict[str, Any] = {name: getattr(TrainConfig(), name) for name in DEMO_DEFAULTS}
#: The options whose default follows the dataset.
DATASET_DEFAULTED = tuple(DEMO_DEFAULTS)


def is_demo_data(data: str | Path | None, workspace: Path) -> bool:
    """``data`` names the workspace's demo data.yaml."""
    if not data:
        return False
    try:
        return Path(str(data)).expanduser().resolve() == demo_data_yaml(workspace)
    except OSError:
        return False


def dataset_defaults(data: str | Path | None, workspace: Path) -> dict[str, Any]:
    """The defaults of the options that follow the dataset, for a run on ``data``."""
    return dict(DEMO_DEFAULTS if is_demo_data(data, workspace) else OTHER_DEFAULTS)
