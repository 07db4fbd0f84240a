"""The Predict page's live view: the latest frame, small, with its boxes at the floor, a few times a second.

The page must not drown in events (a 30 fps video is 30 frames a second; the GUI thread decodes each one it
gets), so the worker sends at most ``fps`` ``preview`` events a second: the frame scaled to ``max_side`` as a
base64 JPEG, and its boxes down to ``core.predict.boxes.FLOOR_CONF`` in the original's pixels, which the page
filters with its sliders. Frames in between are dropped from the preview (not from the outputs); the last one
held back is sent at the end (``flush``), so a single image or a short folder always shows.
"""

from __future__ import annotations

import base64
import time
from typing import Any, Callable

import numpy as np

from core.predict.plan import PREVIEW_FPS, PREVIEW_MAX_SIDE as MAX_SIDE
from core.worker.job import JobContext

JPEG_QUALITY = 80


def encode(image: np.ndarray, max_side: int = MAX_SIDE) -> str:
    """The BGR frame scaled to fit ``max_side``, as a base64 JPEG."""
    import cv2

    height, width = image.shape[:2]
    scale = min(1.0, max_side / max(height, width))
    if scale < 1.0:
        image = cv2.resize(image, (max(1, round(width * scale)), max(1, round(height * scale))),
                           interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    return base64.b64encode(data.tobytes()).decode("ascii") if ok else ""


class Preview:
    """Sends at most ``fps`` ``preview`` events a second (``clock`` injectable: tests never wait)."""

    def __init__(self, ctx: JobContext, fps: float = PREVIEW_FPS, max_side: int = MAX_SIDE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.ctx, self.interval, self.max_side, self.clock = ctx, 1.0 / max(fps, 0.1), max_side, clock
        self.last = float("-inf")
        self.pending: tuple[np.ndarray, dict[str, Any]] | None = None
        self.sent = 0

    def offer(self, image: np.ndarray, fields: dict[str, Any]) -> None:
        now = self.clock()
        if now - self.last >= self.interval:
            self.last = now
            self._send(image, fields)
        else:
            self.pending = (image, fields)

    def flush(self) -> None:
        if self.pending is not None:
            self._send(*self.pending)

    def _send(self, image: np.ndarray, fields: dict[str, Any]) -> None:
        self.pending = None
        self.sent += 1
        self.ctx.emit("preview", jpeg=encode(image, self.max_side), **fields)
