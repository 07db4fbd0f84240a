"""LabelMe JSON: one ``.json`` per image with ``shapes`` (rectangles, polygons, circles) in pixels.

LabelMe applies the JPEG's EXIF orientation before showing an image (``labelme.utils.apply_exif_orientation``),
so its points are on the oriented picture unless ``imageWidth``/``imageHeight`` say the stored grid. The
image may be only inside the JSON (``imageData``, base64): it is written out. Polygons become their bounding
box, or yolov5 segments when the user keeps them; lines and points have no area and are reported.

``imagePath`` is what labelme stores: ``os.path.relpath(image, label_dir)`` (labelme ``_app.py``
``_resolve_stored_image_path``, commit 51e50e4), so Windows separators and ``..`` appear when the JSON was
saved to an output folder apart from the pictures; labelme itself reads it back with
``PureWindowsPath(imagePath).as_posix()`` (``_label_file.py`` ``read_label_file``). X-AnyLabeling writes the
same document with two differences (``label_file.py`` ``save``, commit 24d7856; ``shape.py``, commit
cb0c8c7): a rectangle is saved as its four corners, so its box is the corners' extent, and a ``rotation``
(a turned box, four corners) is read as the polygon it is. A JSON nested deeper than any tool writes, or a
size that is not a finite number, is refused with the file's name (``values``).
"""

from __future__ import annotations

import base64
import binascii
from pathlib import Path

from core.dataset.importers.geometry import polygon_box
from core.dataset.importers.locate import ImageIndex, walk_files
from core.dataset.importers.model import Skipped, SourceBox, SourceDataset, SourceImage
from core.dataset.importers.tidy import report_masks
from core.dataset.importers.values import load_json, size as declared_side
from core.dataset.images import is_image_name
from core.i18n import tr

AREA_SHAPES = ("rectangle", "polygon", "circle", "rotation")


def is_labelme(document: object) -> bool:
    return isinstance(document, dict) and isinstance(document.get("shapes"), list) and (
        "imagePath" in document or "imageData" in document)


def looks_like_labelme(root: Path) -> bool:
    for path in walk_files(root, (".json",))[:20]:
        try:
            if is_labelme(load_json(path)):
                return True
        except (OSError, ValueError):
            continue
    return False


def _points(shape: dict) -> list[tuple[float, float]]:
    return [(float(p[0]), float(p[1])) for p in shape.get("points") or []]


def _shape_box(shape: dict, where: str, name: str) -> tuple[SourceBox | None, str]:
    """The shape as a box (with its polygon when it is one), or None and why not."""
    kind = shape.get("shape_type") or "polygon"
    try:
        points = _points(shape)
    except (TypeError, ValueError, IndexError, KeyError, OverflowError):
        return None, tr("a point is not a pair of numbers")
    if kind not in AREA_SHAPES:
        return None, tr("a {shape} has no area to box", shape=kind)
    if kind == "rectangle" and len(points) >= 2:  # labelme's two corners, X-AnyLabeling's four
        return SourceBox(name, *polygon_box(points), where=where), ""
    if kind == "circle" and len(points) >= 2:
        (cx, cy), (px, py) = points[:2]
        r = ((px - cx) ** 2 + (py - cy) ** 2) ** 0.5
        return SourceBox(name, cx - r, cy - r, cx + r, cy + r, where=where), ""
    if kind in ("polygon", "rotation") and len(points) >= 3:
        return SourceBox(name, *polygon_box(points), points=points, where=where), ""
    return None, tr("a {shape} with {n} points", shape=kind, n=len(points))


def read_labelme(root: Path, index: ImageIndex | None = None) -> SourceDataset:
    root = Path(root)
    index = index or ImageIndex(root)
    data = SourceDataset("labelme", root)
    used: set[Path] = set()
    for path in walk_files(root, (".json",)):
        try:
            doc = load_json(path)
        except (OSError, ValueError) as exc:
            data.skipped.append(Skipped(str(path), "unreadable_annotation", tr("not readable JSON: {error}",
                                                                              error=exc)))
            continue
        if not is_labelme(doc):
            continue  # another JSON in the tree (a COCO file is read by its own reader)
        image_path = str(doc.get("imagePath") or "")
        image = index.find(image_path, path.parent) or index.find_stem(path)
        embedded = None
        if image is not None and not is_image_name(image.name) and doc.get("imageData"):
            image = None  # ``imagePath: notes.txt``: the picture is the embedded one
        if image is None and doc.get("imageData"):
            try:
                embedded = base64.b64decode(doc["imageData"], validate=False)
            except (binascii.Error, ValueError, TypeError):
                embedded = None
        if image is None and embedded is None:
            data.skipped.append(Skipped(str(path), "missing_image", tr(
                "its image {name} is not in the source folder and not embedded (imageData)",
                name=image_path or path.stem)))
            continue
        if image is not None:
            used.add(image)
        w = declared_side(doc.get("imageWidth"), path, "imageWidth")
        h = declared_side(doc.get("imageHeight"), path, "imageHeight")
        declared = (w, h) if w and h else None
        base = image_path.replace("\\", "/").rsplit("/", 1)[-1] or path.stem
        item = SourceImage(image, str(path), declared_size=declared, grid="auto", embedded=embedded,
                           embedded_name=base)
        for number, shape in enumerate(doc.get("shapes") or [], 1):
            if not isinstance(shape, dict):
                continue
            name = str(shape.get("label") or "")
            where = tr("shape {n}", n=number)
            box, why = _shape_box(shape, where, name)
            if box is None:
                data.skipped.append(Skipped(str(path), "unsupported_shape", tr(
                    "{where} ({name}): {why}", where=where, name=name, why=why)))
                continue
            item.boxes.append(box)
        data.images.append(item)
    for image in index.images:
        if image not in used:
            data.images.append(SourceImage(image, ""))
    report_masks(data, index)
    return data
