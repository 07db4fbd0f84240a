"""The GPUs a training worker lets CUDA see, so ``--device 1`` trains on GPU 1 and not on GPU 0.

yolov5's ``select_device`` picks GPUs by setting ``CUDA_VISIBLE_DEVICES=<device>`` and then always trains on
``cuda:0`` (under DDP, ``cuda:LOCAL_RANK``) — which works only if CUDA starts *after* that assignment: CUDA
reads the variable once, when the driver initialises (CUDA Programming Guide, "CUDA Environment
Variables"), and the worker initialises it before yolov5 runs (its ``hello`` lists the devices with
``torch.cuda.is_available()`` / ``get_device_properties``). So the training job sets the variable itself,
before anything imports torch: the chosen indices, counted — like the environment check's ``--device``
advice — among the GPUs the user's own ``CUDA_VISIBLE_DEVICES`` already shows (its entries, picked by index).
yolov5's later assignment is then a no-op, and ``cuda:0`` is the GPU that was asked for.
"""

from __future__ import annotations

import os
from typing import Any, MutableMapping

VARIABLE = "CUDA_VISIBLE_DEVICES"


def visible_for_device(device: str, current: str | None) -> str | None:
    """The ``CUDA_VISIBLE_DEVICES`` that makes yolov5's ``--device`` (``"1"``, ``"0,2"``) the GPUs it names,
    given the variable's value now (None: unset). None: leave it alone — the CPU, yolov5's default GPU (an
    empty device), or a device yolov5's own check must refuse with its own words."""
    text = str(device).strip().lower().replace("cuda:", "")
    entries = [e.strip() for e in text.split(",") if e.strip()]
    if not entries or not all(e.isdigit() for e in entries):
        return None
    if current is None:
        return ",".join(str(int(e)) for e in entries)
    shown = [e.strip() for e in current.split(",") if e.strip()]
    if any(int(e) >= len(shown) for e in entries):
        return None
    return ",".join(shown[int(e)] for e in entries)


def restrict_to_device(spec: dict[str, Any], environ: MutableMapping[str, str] | None = None) -> str | None:
    """Set ``CUDA_VISIBLE_DEVICES`` for a training spec's device (the value set, or None), before CUDA starts."""
    env = os.environ if environ is None else environ
    value = visible_for_device(str(spec.get("config", {}).get("device", "")), env.get(VARIABLE))
    if value is not None:
        env[VARIABLE] = value
    return value
