"""Where a box lands on the picture yolov5 trains on: EXIF rotation, clipping, normalisation.

yolov5 7.0.14 reads images with cv2, which applies the JPEG's EXIF orientation (all eight values;
``load_image`` → ``cv2.imread``), while its label check uses ``exif_size`` (only 6 and 8 swap the sides).
Labels are normalised, so what matters is the decoded picture: a box drawn on the stored pixel grid must
be moved the way the pixels move. The mapping below is PIL's ``ImageOps.exif_transpose`` (the same
transpose cv2 applies), checked against yolov5's own loader in ``tests/core/test_import_exif.py``.
"""

from __future__ import annotations

#: EXIF orientations whose picture is the stored grid turned a quarter (width and height swap).
SWAPS_SIDES = (5, 6, 7, 8)


def oriented_size(width: int, height: int, orientation: int) -> tuple[int, int]:
    """The picture's (width, height) after its EXIF orientation."""
    return (height, width) if orientation in SWAPS_SIDES else (width, height)


def orient_point(x: float, y: float, width: int, height: int, orientation: int) -> tuple[float, float]:
    """A point on the stored grid (``width`` × ``height``) → the same point on the oriented picture.

    Continuous coordinates (0..width), so a box's corners map to the box's corners."""
    w, h = float(width), float(height)
    return {
        1: (x, y),
        2: (w - x, y),  # mirrored left-right
        3: (w - x, h - y),  # turned 180°
        4: (x, h - y),  # mirrored top-bottom
        5: (y, x),  # transposed
        6: (h - y, x),  # turned 90° clockwise to show
        7: (h - y, w - x),  # transversed
        8: (y, w - x),  # turned 90° counter-clockwise to show
    }.get(orientation, (x, y))


def orient_box(box: tuple[float, float, float, float], width: int, height: int,
               orientation: int) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) on the stored grid → the box on the oriented picture (still x0 < x1, y0 < y1)."""
    ax, ay = orient_point(box[0], box[1], width, height, orientation)
    bx, by = orient_point(box[2], box[3], width, height, orientation)
    return min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)


def clip_box(box: tuple[float, float, float, float], width: int, height: int
             ) -> tuple[tuple[float, float, float, float], bool]:
    """The box cut to the picture, and whether anything was cut."""
    x0, y0, x1, y1 = box
    clipped = (min(max(x0, 0.0), width), min(max(y0, 0.0), height),
               min(max(x1, 0.0), width), min(max(y1, 0.0), height))
    return clipped, clipped != (x0, y0, x1, y1)


def clip_point(x: float, y: float, width: int, height: int) -> tuple[tuple[float, float], bool]:
    cx, cy = min(max(x, 0.0), width), min(max(y, 0.0), height)
    return (cx, cy), (cx, cy) != (x, y)


def to_yolo(box: tuple[float, float, float, float], width: int, height: int) -> tuple[float, float, float, float]:
    """Pixels (x0, y0, x1, y1) → yolov5's normalised (x centre, y centre, width, height)."""
    x0, y0, x1, y1 = box
    return (x0 + x1) / 2 / width, (y0 + y1) / 2 / height, (x1 - x0) / width, (y1 - y0) / height


def from_yolo(xywh: tuple[float, float, float, float], width: int, height: int
              ) -> tuple[float, float, float, float]:
    """yolov5's normalised (x centre, y centre, width, height) → pixels (x0, y0, x1, y1)."""
    x, y, w, h = xywh
    return (x - w / 2) * width, (y - h / 2) * height, (x + w / 2) * width, (y + h / 2) * height


def polygon_box(points: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)
