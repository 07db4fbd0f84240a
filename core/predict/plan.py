"""The worker spec of ``yolostudio predict`` and where its outputs go.

Defaults are yolov5's ``detect.py`` (conf 0.25, IoU 0.45, 640) and, like Ultralytics' ``runs/detect/predict``,
each prediction gets a new folder: under the run (``RUN/predict/<n>``) when a run's model is used, else under the
workspace's ``predict/``; an existing folder is never written into.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.predict.slicing import OVERLAP_DEFAULT
from core.predict.source import Source

CONF_DEFAULT = 0.25
IOU_DEFAULT = 0.45
#: The Predict page's live view: at most this many frames a second, scaled to fit this many pixels.
PREVIEW_FPS = 4.0
PREVIEW_MAX_SIDE = 960


def default_out(workspace: Path, run: Path | None) -> Path:
    """``predict``, ``predict2``, … under the run or the workspace: the first name not taken."""
    root = (run if run is not None else Path(workspace)) / "predict"
    n = 1
    while (root / (f"predict{n}" if n > 1 else "predict")).exists():
        n += 1
    return root / (f"predict{n}" if n > 1 else "predict")


def build_source_spec(model: Path, source: Source, workspace: Path, out: Path, *, imgsz: int,
                      conf: float = CONF_DEFAULT, iou: float = IOU_DEFAULT, save_images: bool = True,
                      save_labels: bool = True, trusted: bool = False, slice_size: int = 0,
                      slice_overlap: float = OVERLAP_DEFAULT, live: bool = False) -> dict[str, Any]:
    """The spec ``core/worker/predict_stream.py`` reads (the "Try it" job's kind, with a ``source``).

    ``slice_size`` > 0: sliced inference (``core.predict.slicing``); ``live``: the Predict page's preview events
    (``core/worker/predict_preview.py``) instead of one ``predictions`` event per frame."""
    model = Path(model).resolve()
    return {"job": "predict", "workspace": str(workspace), "model": str(model), "source": source.value,
            "source_kind": source.kind, "out": str(Path(out).resolve()), "imgsz": imgsz, "conf": conf, "iou": iou,
            "save_images": save_images, "save_labels": save_labels,
            "slice": {"size": int(slice_size), "overlap": float(slice_overlap)} if slice_size else None,
            "live": {"fps": PREVIEW_FPS, "max_side": PREVIEW_MAX_SIDE} if live else None,
            "trusted_weights": [str(model)] if trusted else []}
