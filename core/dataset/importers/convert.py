"""Each image read once (size, EXIF orientation, a perceptual hash) and each box put where yolov5 sees it.

Why read the images at all: a VOC ``<size>`` or COCO ``width`` can be wrong (the real size wins and the
difference is reported), and a JPEG with an EXIF orientation is trained on rotated (``geometry``). Which
grid a box is on: the user's choice, else the declared size when it tells (sides swapped or not), else the
format's habit (``SourceDataset.default_grid``). Boxes are clipped to the picture (counted); a box with no
area left is dropped with its reason. Pillow reads headers only; the hash decodes a reduced draft.
"""

from __future__ import annotations

import io
import math
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
from PIL import Image, UnidentifiedImageError

from core.dataset.importers.geometry import (SWAPS_SIDES, clip_box, clip_point, from_yolo, orient_box,
                                             orient_point, oriented_size, to_yolo)
from core.dataset.importers.model import Skipped, SourceBox, SourceImage
from core.i18n import tr, tr_n

#: Smallest box side kept, in pixels of the oriented picture: below it a box is a click, not an object.
MIN_BOX_PX = 1.0


@dataclass
class ImageRead:
    width: int  # stored grid
    height: int
    orientation: int
    dhash: int | None
    format: str = ""  # Pillow's decoded format ("JPEG", "PNG" …): what the bytes are, whatever the name says


@dataclass
class ConvertedImage:
    source: SourceImage
    width: int  # oriented picture, as yolov5 trains on it
    height: int
    rows: list[tuple[str, list[float]]] = field(default_factory=list)  # class, normalised box or polygon
    dhash: int | None = None
    rotated: bool = False  # boxes were moved with the EXIF orientation
    format: str = ""  # Pillow's decoded format (``ImageRead.format``)


@dataclass
class ConvertOptions:
    grid: str = "auto"  # "auto" (declared size, then the format's habit), "stored" or "oriented"
    segments: bool = False  # polygons kept as yolov5 segments (else their bounding box)
    difficult: bool = False  # VOC objects marked difficult kept (yolov5's VOC.yaml leaves them out)
    crowd: bool = False  # COCO iscrowd regions kept


def dhash(im: Image.Image) -> int:
    """A 64-bit difference hash: near-identical frames differ in a few bits (Krawetz's dHash)."""
    im.draft("L", (64, 64))
    small = im.convert("L").resize((9, 8), Image.Resampling.BILINEAR)
    px = np.asarray(small, dtype=np.int16)
    bits = 0
    for bit in (px[:, :-1] > px[:, 1:]).ravel():
        bits = (bits << 1) | int(bit)
    return bits


def read_image(image: SourceImage, want_hash: bool = True) -> ImageRead:
    """Stored size, orientation and hash; raises OSError/UnidentifiedImageError for an unreadable image."""
    handle = io.BytesIO(image.embedded) if image.path is None and image.embedded else image.path
    with Image.open(handle) as im:  # type: ignore[arg-type]
        width, height = im.size
        try:
            orientation = int(im.getexif().get(0x0112, 1))
        except Exception:  # noqa: BLE001 - a broken EXIF block: cv2 ignores it too
            orientation = 1
        return ImageRead(width, height, orientation if 1 <= orientation <= 8 else 1,
                         dhash(im) if want_hash else None, str(im.format or ""))


def _grid(image: SourceImage, read: ImageRead, options: ConvertOptions, default_grid: str) -> str:
    if image.normalized:
        return "oriented"
    if options.grid in ("stored", "oriented"):
        return options.grid
    if read.orientation in SWAPS_SIDES and image.declared_size is not None:
        if image.declared_size == (read.width, read.height):
            return "stored"
        if image.declared_size == (read.height, read.width):
            return "oriented"
    return default_grid


def convert_image(image: SourceImage, read: ImageRead, options: ConvertOptions, default_grid: str,
                  skipped: list[Skipped], counts: Counter[str]) -> ConvertedImage:
    """The image's rows for yolov5; what was changed goes into ``counts``, what was lost into ``skipped``."""
    ow, oh = oriented_size(read.width, read.height, read.orientation)
    grid = _grid(image, read, options, default_grid)
    rotate = grid == "stored" and read.orientation != 1
    out = ConvertedImage(image, ow, oh, dhash=read.dhash, rotated=rotate and bool(image.boxes), format=read.format)
    if image.declared_size is not None and image.declared_size not in ((ow, oh), (read.width, read.height)):
        counts["size_mismatch"] += 1
        skipped.append(Skipped(image.annotation, "size_mismatch", tr(
            "the annotation says {dw}×{dh} px, the image is {w}×{h} px: the image's size is used",
            dw=image.declared_size[0], dh=image.declared_size[1], w=ow, h=oh)))
    polygons_here = options.segments and any(b.points for b in image.boxes)
    for box in image.boxes:
        if box.difficult and not options.difficult:
            counts["difficult"] += 1
            continue
        if box.crowd and not options.crowd:
            counts["crowd"] += 1
            skipped.append(Skipped(image.annotation, "crowd", tr(
                "{where} ({name}): a crowd region (iscrowd), left out", where=box.where, name=box.label)))
            continue
        row = _row(box, image, read, rotate, ow, oh, polygons_here, skipped, counts)
        if row is not None:
            out.rows.append((box.label, row))
    if rotate and out.rows:
        counts["exif_rotated"] += 1
    if not image.boxes:
        counts["background"] += 1
    return out


def _row(box: SourceBox, image: SourceImage, read: ImageRead, rotate: bool, ow: int, oh: int,
         polygon: bool, skipped: list[Skipped], counts: Counter[str]) -> list[float] | None:
    corners = (box.x0, box.y0, box.x1, box.y1)
    flat_points = [v for p in box.points or () for v in p]
    if not all(math.isfinite(v) for v in (*corners, *flat_points)):  # a VOC ``<xmin>nan</xmin>``
        counts["no_geometry"] += 1
        skipped.append(Skipped(image.annotation, "no_geometry", tr(
            "{where} ({name}): a corner is {value}, not a position: the box is left out", where=box.where,
            name=box.label, value=next(repr(v) for v in (*corners, *flat_points) if not math.isfinite(v)))))
        return None
    if image.normalized:
        corners = from_yolo(((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2, box.x1 - box.x0, box.y1 - box.y0), ow, oh)
    if rotate:
        corners = orient_box(corners, read.width, read.height, read.orientation)
    corners = (min(corners[0], corners[2]), min(corners[1], corners[3]),
               max(corners[0], corners[2]), max(corners[1], corners[3]))
    area_before = (corners[2] - corners[0]) * (corners[3] - corners[1])
    clipped, was_clipped = clip_box(corners, ow, oh)
    if clipped[2] - clipped[0] < MIN_BOX_PX or clipped[3] - clipped[1] < MIN_BOX_PX:
        reason = "outside_image" if area_before > 0 and was_clipped else "zero_size"
        counts[reason] += 1
        words = (tr("{where} ({name}): the box lies outside the image", where=box.where, name=box.label)
                 if reason == "outside_image" else
                 tr("{where} ({name}): the box has no size ({w:.1f}×{h:.1f} px)", where=box.where, name=box.label,
                    w=corners[2] - corners[0], h=corners[3] - corners[1]))
        skipped.append(Skipped(image.annotation, reason, words))
        return None
    if was_clipped:
        counts["clipped"] += 1
    if not polygon:
        return list(to_yolo(clipped, ow, oh))
    points = box.points or [(corners[0], corners[1]), (corners[2], corners[1]), (corners[2], corners[3]),
                            (corners[0], corners[3])]
    flat: list[float] = []
    for x, y in points:
        if rotate and box.points:
            x, y = orient_point(x, y, read.width, read.height, read.orientation)
        (x, y), _ = clip_point(x, y, ow, oh)
        flat += [x / ow, y / oh]
    return flat


def unreadable(image: SourceImage, exc: Exception) -> Skipped:
    """The loss of an unreadable image, named by its file (or, when embedded, by the JSON holding it)."""
    if image.path is None:
        return Skipped(image.annotation or image.embedded_name, "unreadable_image", tr_n(
            "the picture embedded in this file (imageData) cannot be decoded as an image; its {n} box is left out",
            "the picture embedded in this file (imageData) cannot be decoded as an image; its {n} boxes are "
            "left out", len(image.boxes)))
    error = (tr("not a picture Pillow can decode") if isinstance(exc, UnidentifiedImageError)
             else getattr(exc, "strerror", None) or str(exc))
    return Skipped(str(image.path), "unreadable_image", tr(
        "the image cannot be read ({error}); its {n} boxes are left out", error=error, n=len(image.boxes)))


READ_ERRORS = (OSError, UnidentifiedImageError, ValueError, Image.DecompressionBombError)


def image_name(image: SourceImage) -> str:
    return image.path.name if image.path is not None else image.embedded_name
