"""COCO JSON (CVAT, Label Studio, Roboflow): one or several annotation files, boxes ``[x, y, w, h]`` in pixels.

Read with pycocotools (the COCO project's own reader: its index, and its RLE decoder for masks), whose
loading messages are kept off stdout (a worker's stdout is the event stream). Category ids need not be
contiguous (they map to names in id order); an annotation with only a segmentation gets the polygon's or
mask's bounding box; ``iscrowd`` regions are reported and left out unless kept. Several files (``train``,
``val`` …) keep their split; images may sit in subfolders (``file_name`` with a path).
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from core.dataset.importers.geometry import polygon_box
from core.dataset.importers.locate import ImageIndex, walk_files
from core.dataset.importers.model import Skipped, SourceBox, SourceDataset, SourceImage
from core.i18n import tr

SPLIT_WORDS = (("train", "train"), ("valid", "val"), ("val", "val"), ("test", "test"))


def is_coco(document: object) -> bool:
    return isinstance(document, dict) and isinstance(document.get("images"), list) and isinstance(
        document.get("annotations"), list)


def coco_files(source: Path) -> list[Path]:
    """The COCO annotation files: ``source`` itself, or every COCO JSON under the folder."""
    if source.is_file():
        return [source]
    found = []
    for path in walk_files(source, (".json",)):
        try:
            with path.open("rb") as handle:
                head = handle.read(65536)
        except OSError:
            continue
        if b'"images"' in head or b'"annotations"' in head or b'"categories"' in head:
            try:
                if is_coco(json.loads(path.read_text(encoding="utf-8-sig"))):
                    found.append(path)
            except (OSError, ValueError):
                continue
    return found


def split_of(path: Path) -> str | None:
    """``instances_val2017.json`` → val; ``train/_annotations.coco.json`` → train; else None."""
    for text in (path.stem.lower(), path.parent.name.lower()):
        for word, split in SPLIT_WORDS:
            if word in text:
                return split
    return None


def _load(path: Path):  # -> pycocotools.coco.COCO
    from pycocotools.coco import COCO  # noqa: PLC0415 - only the COCO reader needs it

    document = json.loads(path.read_text(encoding="utf-8-sig"))
    coco = COCO()
    coco.dataset = document
    with contextlib.redirect_stdout(io.StringIO()):  # "creating index..." would corrupt the event stream
        coco.createIndex()
    return coco


def _mask_box(coco, ann: dict) -> tuple[float, float, float, float] | None:
    from pycocotools import mask as mask_utils  # noqa: PLC0415

    try:
        rle = coco.annToRLE(ann)
        x, y, w, h = (float(v) for v in mask_utils.toBbox(rle))
    except Exception:  # noqa: BLE001 - a damaged mask is reported as such, not raised
        return None
    return (x, y, x + w, y + h) if w > 0 and h > 0 else None


def _polygons(ann: dict) -> list[list[tuple[float, float]]]:
    seg = ann.get("segmentation")
    if not isinstance(seg, list):
        return []
    polygons = []
    for flat in seg:
        if isinstance(flat, list) and len(flat) >= 6:
            polygons.append([(float(flat[i]), float(flat[i + 1])) for i in range(0, len(flat) - 1, 2)])
    return polygons


def source_root(source: Path) -> Path:
    """The folder an import reads: the source folder, or the folder of a COCO file (its parent when that is
    ``annotations/``: CVAT's and COCO's own layout put ``images/`` beside it)."""
    if not source.is_file():
        return source
    return source.parent.parent if source.parent.name.lower() == "annotations" else source.parent


def read_coco(source: Path, index: ImageIndex | None = None) -> SourceDataset:
    source = Path(source)
    root = source_root(source)
    index = index or ImageIndex(root)
    data = SourceDataset("coco", root)
    files = coco_files(source)
    several = len(files) > 1
    for path in files:
        try:
            coco = _load(path)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            data.skipped.append(Skipped(str(path), "unreadable_annotation", tr("not a readable COCO file: {error}",
                                                                              error=exc)))
            continue
        categories = {c["id"]: str(c.get("name", c["id"])) for c in coco.dataset.get("categories", [])
                      if isinstance(c, dict) and "id" in c}
        for cat_id in sorted(categories):
            if categories[cat_id] not in data.class_order:
                data.class_order.append(categories[cat_id])
        split = split_of(path) if several else None  # one file: its name says nothing about a split
        for image_id in sorted(coco.imgs, key=str):
            info = coco.imgs[image_id]
            name = str(info.get("file_name") or "")
            image = (index.find(name, path.parent) or index.find(f"images/{name}", path.parent)
                     or index.find(f"images/{name}"))
            if image is None:
                data.skipped.append(Skipped(str(path), "missing_image", tr(
                    "image {id} ({name}) is not in the source folder", id=image_id, name=name)))
                continue
            try:
                declared = (int(info["width"]), int(info["height"]))
            except (KeyError, TypeError, ValueError):
                declared = None
            item = SourceImage(image, str(path), declared_size=declared, grid="auto", split=split)
            for ann in coco.imgToAnns.get(image_id, []):
                where = tr("image {image}, annotation {id}", image=name, id=ann.get("id", "?"))
                cat = categories.get(ann.get("category_id"))
                if cat is None:
                    data.skipped.append(Skipped(str(path), "unknown_category", tr(
                        "{where}: category {id} is not among the file's categories", where=where,
                        id=ann.get("category_id"))))
                    continue
                crowd = bool(ann.get("iscrowd"))
                polygons = _polygons(ann)
                bbox = ann.get("bbox")
                box = None
                if isinstance(bbox, list) and len(bbox) == 4 and float(bbox[2]) > 0 and float(bbox[3]) > 0:
                    x, y, w, h = (float(v) for v in bbox)
                    box = (x, y, x + w, y + h)
                elif polygons:
                    box = polygon_box([p for poly in polygons for p in poly])
                elif ann.get("segmentation"):
                    box = _mask_box(coco, ann)
                if box is None:
                    data.skipped.append(Skipped(str(path), "no_geometry", tr(
                        "{where} ({name}): neither a box nor a segmentation with an area", where=where, name=cat)))
                    continue
                points = polygons[0] if len(polygons) == 1 else None  # a several-part mask keeps its box
                item.boxes.append(SourceBox(cat, *box, points=points, crowd=crowd, where=where))
            data.images.append(item)
    if not files:
        data.skipped.append(Skipped(str(source), "unreadable_annotation", tr("no COCO annotation file found")))
    return data
