"""COCO JSON (CVAT, Label Studio, Roboflow): one or several annotation files, boxes ``[x, y, w, h]`` in pixels.

Read with pycocotools (the COCO project's own reader: its index, and its RLE decoder for masks), whose
loading messages are kept off stdout (a worker's stdout is the event stream). Category ids need not be
contiguous (they map to names in id order); an annotation with only a segmentation gets the polygon's or
mask's bounding box; ``iscrowd`` regions are reported and left out unless kept. Several files (``train``,
``val`` …) keep their split; images may sit in subfolders (``file_name`` with a path).

What the exporters write (``tests/fixtures/export_corpus.py`` builds each case): Label Studio's converter
(``label_studio_converter/converter.py`` 0.0.60.dev, ``convert_to_coco``) writes ``width``/``height`` as
``None`` for an image it could not open and ints from 0 for category ids; Datumaro numbers categories from 1;
X-AnyLabeling (``label_converter.py`` ``custom_to_coco``, commit 13bad91) writes ``bbox: []`` for a shape it
does not convert (a rotation, or a polygon in rectangle mode): reported as having no geometry.
An annotation whose ``image_id`` names no image is reported (its boxes have no picture). A value no tool
writes — a size of ``1e999``, a ``bbox`` or polygon of strings or nulls, category ids mixing numbers and
text, JSON nested 200,000 deep — refuses the file with its name and the value (``values``).
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from core.dataset.importers.geometry import polygon_box
from core.dataset.importers.locate import ImageIndex, walk_files
from core.dataset.importers.model import ImportSourceError, Skipped, SourceBox, SourceDataset, SourceImage
from core.dataset.importers.tidy import report_masks
from core.dataset.importers.values import bad_value, load_json, number, size as declared_side
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
                if is_coco(load_json(path)):
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

    document = load_json(path)
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


def _polygons(ann: dict, path: Path, where: str) -> list[list[tuple[float, float]]]:
    """The polygons of a ``segmentation`` list (an RLE dict is a mask: ``_mask_box``)."""
    seg = ann.get("segmentation")
    if not isinstance(seg, list):
        return []
    polygons = []
    what = tr("{where}: segmentation", where=where)
    for flat in seg:
        if not isinstance(flat, list):
            raise bad_value(path, what, flat)
        values = [number(v, path, what, allow_nan=True) for v in flat]
        if len(values) >= 6:
            polygons.append([(values[i], values[i + 1]) for i in range(0, len(values) - 1, 2)])
    return polygons


def _bbox(ann: dict, path: Path, where: str) -> tuple[float, float, float, float] | None:
    """``[x, y, w, h]`` as corners; None when absent (``null``, or X-AnyLabeling's ``[]``) or without area; else
    ``bad_value``."""
    bbox = ann.get("bbox")
    if bbox is None or bbox == []:
        return None
    what = tr("{where}: bbox", where=where)
    if not isinstance(bbox, list) or len(bbox) != 4:
        raise bad_value(path, what, bbox)
    x, y, w, h = (number(v, path, what, allow_nan=True) for v in bbox)
    if not (w > 0 and h > 0):
        return None  # nan or no area: the segmentation may still tell, else reported as no geometry
    return (x, y, x + w, y + h)


def _categories(coco, path: Path) -> dict:
    """Category id → name; ids mixing numbers and text (no tool writes both) refuse the file."""
    categories = {}
    for c in coco.dataset.get("categories", []):
        if isinstance(c, dict) and "id" in c:
            try:
                categories[c["id"]] = str(c.get("name", c["id"]))
            except TypeError:  # an unhashable id (a list)
                raise bad_value(path, tr("a category id"), c["id"]) from None
    kinds = {isinstance(k, str) for k in categories}
    if len(kinds) > 1:
        text = next(k for k in categories if isinstance(k, str))
        num = next(k for k in categories if not isinstance(k, str))
        raise ImportSourceError(tr(
            "{file}: category ids mix numbers and text ({number} and {text}); COCO ids are numbers. Fix the "
            "ids in that file, then import again.", file=path, number=repr(num), text=repr(text)))
    return categories


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
        categories = _categories(coco, path)
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
            w = declared_side(info.get("width"), path, tr("image {id}: width", id=image_id))
            h = declared_side(info.get("height"), path, tr("image {id}: height", id=image_id))
            declared = (w, h) if w and h else None
            item = SourceImage(image, str(path), declared_size=declared, grid="auto", split=split)
            for ann in coco.imgToAnns.get(image_id, []):
                where = tr("image {image}, annotation {id}", image=name, id=ann.get("id", "?"))
                try:
                    cat = categories.get(ann.get("category_id"))
                except TypeError:  # an unhashable id
                    cat = None
                if cat is None:
                    data.skipped.append(Skipped(str(path), "unknown_category", tr(
                        "{where}: category {id} is not among the file's categories", where=where,
                        id=ann.get("category_id"))))
                    continue
                crowd = bool(ann.get("iscrowd"))
                polygons = _polygons(ann, path, where)
                box = _bbox(ann, path, where)
                if box is None and polygons:
                    box = polygon_box([p for poly in polygons for p in poly])
                elif box is None and ann.get("segmentation"):
                    box = _mask_box(coco, ann)
                if box is None:
                    data.skipped.append(Skipped(str(path), "no_geometry", tr(
                        "{where} ({name}): neither a box nor a segmentation with an area", where=where, name=cat)))
                    continue
                points = polygons[0] if len(polygons) == 1 else None  # a several-part mask keeps its box
                item.boxes.append(SourceBox(cat, *box, points=points, crowd=crowd, where=where))
            data.images.append(item)
        _orphans(coco, path, data)
    if not files:
        data.skipped.append(Skipped(str(source), "unreadable_annotation", tr("no COCO annotation file found")))
    report_masks(data, index)
    return data


def _orphans(coco, path: Path, data: SourceDataset) -> None:
    """Annotations whose ``image_id`` names no image of the file: their boxes have no picture."""
    for ann in coco.dataset.get("annotations", []):
        if isinstance(ann, dict) and ann.get("image_id") not in coco.imgs:
            data.skipped.append(Skipped(str(path), "missing_image", tr(
                "annotation {id}: its image_id {image} is not among the file's images", id=ann.get("id", "?"),
                image=repr(ann.get("image_id")))))
