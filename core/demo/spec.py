"""What the demo dataset is: its classes, splits and generation spec — numpy-free, so the module that owns the
folder (``core.demo.dataset``) and the one that draws the pictures (``core.demo.images``, numpy and Pillow)
both import it and neither imports the other's side."""

from __future__ import annotations

from dataclasses import dataclass

DEMO_CLASSES = ("circle", "square", "triangle")
SPLITS = ("train", "val")


@dataclass(frozen=True)
class DemoSpec:
    """What to generate. The defaults are tuned for yolov5n at imgsz 128 on a CPU: about a second to build,
    a few seconds per epoch, and enough optimiser steps (yolov5 accumulates to a nominal batch of 64)
    for mAP to climb visibly within ten epochs from scratch."""

    n_train: int = 768
    n_val: int = 64
    image_size: int = 128
    seed: int = 0
