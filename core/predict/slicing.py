"""Sliced inference (``--slice``): a large image cut into overlapping tiles, each predicted at the model's
size, the boxes merged back — small objects stay big enough for the model to see.

The usual answer to small objects in large images (SAHI, Akyon et al. 2022, ``sahi/slicing.py``
``get_slice_bboxes``; its defaults: 0.2 overlap, a whole-image pass too — ``perform_standard_pred=True`` — so
large objects that no tile holds whole are still found). Tiles are ``size`` square, stepping by
``size * (1 - overlap)``, the last row and column moved back to end at the image's edge (as SAHI does); an image
no larger than a tile is one tile. Boxes from all tiles and the whole image are merged by class-wise NMS
(``core.predict.boxes.nms``) at the job's IoU. Its cost is the tiles: each is one more model call, so the
job reports tiles per image and the time per image next to the whole-image pass's alone.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from core.i18n import tr
from core.predict.boxes import Box, nms

#: ``--slice`` and ``--slice-overlap`` (and the Predict page's tile size and overlap), declared here once.
SLICE_DEFAULT = 640
OVERLAP_DEFAULT = 0.2
SLICE_MIN, SLICE_MAX = 64, 8192
OVERLAP_MAX = 0.9

Tile = tuple[int, int, int, int]  # x1, y1, x2, y2 in the image's pixels


def slice_problem(size: int, overlap: float) -> str:
    """"" when the tile size and overlap are usable, else what is wrong (the CLI's and the page's words)."""
    if not SLICE_MIN <= size <= SLICE_MAX:
        return tr("The tile size {size} is not between {low} and {high} pixels.", size=size, low=SLICE_MIN,
                  high=SLICE_MAX)
    if not 0.0 <= overlap <= OVERLAP_MAX:
        return tr("The tile overlap {overlap} is not between 0 and {high}.", overlap=overlap, high=OVERLAP_MAX)
    return ""


def _starts(length: int, size: int, step: int) -> list[int]:
    if length <= size:
        return [0]
    starts = list(range(0, length - size, step))
    starts.append(length - size)  # the last tile ends at the edge
    return sorted(set(starts))


def tiles(width: int, height: int, size: int, overlap: float = OVERLAP_DEFAULT) -> list[Tile]:
    """The tiles covering a ``width`` × ``height`` image, row by row."""
    step = max(1, int(size * (1 - overlap)))
    return [(x, y, min(x + size, width), min(y + size, height))
            for y in _starts(height, size, step) for x in _starts(width, size, step)]


def shift(boxes: Iterable[Box], tile: Tile) -> list[list[float]]:
    """A tile's boxes (in the tile's pixels) in the image's pixels."""
    x0, y0 = tile[0], tile[1]
    return [[b[0] + x0, b[1] + y0, b[2] + x0, b[3] + y0, b[4], b[5]] for b in boxes]


def merge(parts: Sequence[tuple[Tile, Sequence[Box]]], iou_thres: float, conf_thres: float = 0.0) -> list[list[float]]:
    """The boxes of every tile (and of the whole image, as the tile that is the image), in image pixels, merged by
    class-wise NMS: an object two tiles both saw is one box."""
    every = [box for tile, boxes in parts for box in shift(boxes, tile)]
    return nms(every, iou_thres, conf_thres)


def slice_cost_words(summary: dict[str, float]) -> str:
    """The cost line of a sliced job's ``done`` ``slice`` summary (the CLI prints it, the page shows it)."""
    return tr("Sliced into {size}-pixel tiles ({overlap:.0%} overlap): {tiles} tiles per image, {ms:.0f} ms per "
              "image against {whole:.0f} ms for the whole image alone.", size=int(summary.get("size", 0)),
              overlap=float(summary.get("overlap", 0)), tiles=f"{float(summary.get('tiles_per_image', 0)):g}",
              ms=float(summary.get("ms_per_image", 0)), whole=float(summary.get("whole_ms_per_image", 0)))
