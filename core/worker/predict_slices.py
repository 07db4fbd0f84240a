"""One frame predicted whole and tile by tile, the boxes merged (``--slice``; ``core.predict.slicing`` plans the
tiles and merges). Each tile goes through the same letterbox and ``predict_item`` as a whole frame, so a tile's
boxes are what the model says of that crop; the whole-image pass is timed alone, so the cost of slicing is
reported beside what the frame would have cost without it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from core.predict.slicing import merge, tiles
from core.worker.export_verify import Runner, prepare_array
from core.worker.predict_job import predict_item


@dataclass
class SliceCost:
    """What slicing cost so far: frames, tiles, and milliseconds sliced (whole pass included) and whole alone."""

    size: int
    overlap: float
    frames: int = 0
    tiles: int = 0
    sliced_ms: float = 0.0
    whole_ms: float = 0.0
    last: dict[str, float] = field(default_factory=dict)

    def add(self, n_tiles: int, sliced_ms: float, whole_ms: float) -> None:
        self.frames += 1
        self.tiles += n_tiles
        self.sliced_ms += sliced_ms
        self.whole_ms += whole_ms
        self.last = {"tiles": n_tiles, "sliced_ms": round(sliced_ms, 1), "whole_ms": round(whole_ms, 1)}

    def summary(self) -> dict[str, float]:
        """Per image or frame, averaged: the ``done`` event's ``slice`` (the CLI's and the page's cost line)."""
        n = max(1, self.frames)
        return {"size": self.size, "overlap": self.overlap, "frames": self.frames,
                "tiles_per_image": round(self.tiles / n, 1), "ms_per_image": round(self.sliced_ms / n, 1),
                "whole_ms_per_image": round(self.whole_ms / n, 1)}


def predict_sliced(run: Runner, image: np.ndarray, source: Path, *, batch: int, imgsz: int, stride: int,
                   conf: float, iou: float, cost: SliceCost) -> tuple[list[list[float]], float]:
    """The frame's merged boxes ``[x1, y1, x2, y2, conf, cls]`` in its pixels, and the model's ms (all calls)."""
    started = time.perf_counter()
    whole, ms = predict_item(run, prepare_array(image, source, imgsz, stride), batch, conf, iou)
    whole_ms = (time.perf_counter() - started) * 1000
    height, width = image.shape[:2]
    parts = [((0, 0, width, height), whole)]
    planned = tiles(width, height, cost.size, cost.overlap)
    if planned != [(0, 0, width, height)]:  # an image no larger than a tile is the whole pass alone
        for tile in planned:
            crop = np.ascontiguousarray(image[tile[1]:tile[3], tile[0]:tile[2]])
            boxes, tile_ms = predict_item(run, prepare_array(crop, source, imgsz, stride), batch, conf, iou)
            parts.append((tile, boxes))
            ms += tile_ms
    merged = [[round(v, 1) for v in b[:4]] + [b[4], int(b[5])] for b in merge(parts, iou)]
    cost.add(len(parts) - 1, (time.perf_counter() - started) * 1000, whole_ms)
    return merged, ms
