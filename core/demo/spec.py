"""What the demo dataset is: its classes, splits and generation spec — numpy-free, so the module that owns the
folder (``core.demo.dataset``) and the one that draws the pictures (``core.demo.images``, numpy and Pillow)
both import it and neither imports the other's side."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DEMO_CLASSES = ("circle", "square", "triangle")
SPLITS = ("train", "val")
DEMO_DIR = "demo"  # under the workspace: ``<workspace>/demo/data.yaml``


def demo_data_yaml(workspace: Path) -> Path:
    """Where the demo dataset's data.yaml is (made or not) in ``workspace``: both faces know the demo by it."""
    return (Path(workspace) / DEMO_DIR / "data.yaml").resolve()


@dataclass(frozen=True)
class DemoSpec:
    """What to generate. The defaults are tuned for yolov5n at imgsz 128 on a CPU: about a second to build,
    a few seconds per epoch, and enough optimiser steps (yolov5 accumulates to a nominal batch of 64)
    for mAP to climb visibly within ten epochs from scratch."""

    n_train: int = 768
    n_val: int = 64
    image_size: int = 128
    seed: int = 0
    #: Object extent as a share of the image side (low, high). The default suits yolov5n at imgsz 128; a
    #: small-objects set (e.g. ``(0.04, 0.1)`` with more objects) is what benchmarks of small-object quality
    #: train on (bench/gpu_augment.py ``--small-objects``).
    object_size: tuple[float, float] = (0.2, 0.5)
    max_objects: int = 4  # per image
