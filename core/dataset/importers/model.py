"""The common model every reader produces: images with their boxes in the source's own coordinates.

A reader does not open images; it says what the annotation file says (its declared size, which grid its
coordinates are on when the format tells) and lists every annotation it could not read with a reason, so
the preview can show what will be lost before anything is written. ``convert`` then reads the images.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Where a box's coordinates are: on the pixels as stored in the file ("stored": LabelImg draws on the
#: undecoded grid), on the picture as shown after its EXIF orientation ("oriented": LabelMe and most web
#: tools rotate first), or unknown ("auto": decided from the declared size when it tells).
GRIDS = ("stored", "oriented", "auto")


@dataclass
class SourceBox:
    label: str
    x0: float  # pixels of the grid the image's ``grid`` names (or 0..1 when the image is ``normalized``)
    y0: float
    x1: float
    y1: float
    points: list[tuple[float, float]] | None = None  # a polygon's corners, same coordinates
    difficult: bool = False
    crowd: bool = False
    where: str = ""  # the annotation's place in its file, for messages


@dataclass
class SourceImage:
    path: Path | None  # the image file (None when only embedded in the annotation)
    annotation: str  # the file the boxes came from ("" for an image with none)
    boxes: list[SourceBox] = field(default_factory=list)
    declared_size: tuple[int, int] | None = None  # (width, height) the annotation states
    grid: str = "auto"
    normalized: bool = False  # YOLO labels: 0..1 of the oriented image, centre and size
    split: str | None = None  # the split the source already put it in (COCO file, folder name)
    embedded: bytes | None = None  # LabelMe's imageData when the image file is not there
    embedded_name: str = ""


@dataclass(frozen=True)
class Skipped:
    """One annotation (or file) that cannot be converted, with a reason code and the words for it."""

    file: str
    reason: str  # a code from REASONS
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "reason": self.reason, "message": self.message}


#: Codes of what cannot be converted (``Skipped.reason``) and of what was changed (``Adjustments``).
REASONS = ("unreadable_annotation", "missing_image", "unreadable_image", "no_geometry", "unsupported_shape",
           "zero_size", "outside_image", "crowd", "dropped_class", "unknown_category", "duplicate_image",
           "outside_source", "size_mismatch", "segmentation_mask", "same_pixels")
#: Reasons that change nothing kept: reported as notes, not as losses (a mask PNG is not a photo; a second
#: copy of pixels already imported adds nothing).
NOTE_REASONS = ("size_mismatch", "segmentation_mask", "same_pixels")


class ImportSourceError(Exception):
    """The source cannot be read (or not as the format asked for, or a file in it holds a value no tool
    writes); the message names the file and the value and says what to do."""


@dataclass
class SourceDataset:
    format: str
    root: Path
    images: list[SourceImage] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    class_order: list[str] = field(default_factory=list)  # declared order (classes.txt, categories, names)
    default_grid: str = "oriented"  # the grid of an "auto" image whose declared size does not tell

    @property
    def annotations(self) -> int:
        return sum(len(image.boxes) for image in self.images)
