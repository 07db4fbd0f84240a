"""The training stack as a worker job sees it: its versions and its CUDA devices (the ``hello`` event).

Shared by every job that imports torch; called only after the job's stack is imported.
"""

from __future__ import annotations

import sys
from typing import Any


def versions() -> dict[str, Any]:
    import numpy
    import torch
    import torchvision
    import yolov5

    try:
        import cv2

        cv_version = cv2.__version__
    except ImportError:
        cv_version = None
    return {
        "python": sys.version.split()[0],
        "torch": torch.__version__,
        "torchvision": torchvision.__version__,
        "yolov5": yolov5.__version__,
        "numpy": numpy.__version__,
        "opencv": cv_version,
        "cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None,
    }


def devices() -> list[dict[str, Any]]:
    import torch

    if not torch.cuda.is_available():
        return []
    out = []
    for i in range(torch.cuda.device_count()):
        props = torch.cuda.get_device_properties(i)
        out.append({"index": i, "name": props.name, "capability": f"{props.major}.{props.minor}",
                    "memory_gb": props.total_memory / 1024**3})
    return out
