"""Pascal VOC XML (LabelImg, CVAT's VOC export): one ``.xml`` per image, boxes in pixels.

Parsed with defusedxml (no entity expansion, no external entities, no DTD fetch: a billion-laughs or an
``<!ENTITY … SYSTEM "file:///etc/passwd">`` file is refused with its name, never expanded). Coordinates
are taken as the tools write them: continuous pixel positions from the top-left corner (LabelImg writes
``int(x)`` of its drawn corner, clamped to at least 1; CVAT writes floats), converted as LabelImg's own
VOC→YOLO writer does (``yolo_io.py``: centre ``(xmin + xmax) / 2``, width ``xmax - xmin``). yolov5's
``data/VOC.yaml`` subtracts one pixel for the 1-based devkit files of the original VOC challenge, which
no labelling tool writes today. LabelImg draws on the stored pixel
grid (Qt reads the JPEG without its EXIF rotation), so the grid is "stored" unless ``<size>`` says the
oriented one. An existing ``ImageSets/Main/{train,val,test}.txt`` is the source's split; without one, a
top folder named ``train``, ``valid``/``val`` or ``test`` is (Roboflow's VOC export: ``train/``, ``valid/``,
``test/``, each with its pictures and XML side by side).

What the exporters write (``tests/fixtures/export_corpus.py`` builds each case): Label Studio's converter
writes ``<filename>`` as the base name of the task's image path (``label_studio_converter/converter.py``
0.0.60.dev, ``convert_to_voc``: ``image_name = os.path.basename(image_path)``), which has no extension when
the task's file had none, beside ``<folder>images</folder>``: such a name is matched by stem. Datumaro/CVAT
write ``SegmentationClass/`` and ``SegmentationObject/`` PNGs beside ``JPEGImages/`` (``locate.MASK_FOLDERS``).
A ``<size>`` that is not a finite number is refused with the file's name (``values``).
"""

from __future__ import annotations

from pathlib import Path
from xml.etree.ElementTree import Element, ParseError

import defusedxml
from defusedxml.ElementTree import parse as safe_parse

from core.dataset.importers.locate import ImageIndex, walk_files
from core.dataset.importers.model import Skipped, SourceBox, SourceDataset, SourceImage
from core.dataset.importers.tidy import report_masks
from core.dataset.importers.values import size as declared_side
from core.dataset.images import is_image_name
from core.i18n import tr

SPLIT_NAMES = ("train", "val", "test")
SPLIT_FOLDERS = {"train": "train", "valid": "val", "val": "val", "test": "test"}


def looks_like_voc(root: Path) -> bool:
    for xml in walk_files(root, (".xml",))[:20]:
        try:
            head = xml.read_bytes()[:4096]
        except OSError:
            continue
        if b"<annotation" in head:
            return True
    return False


def _text(node: Element | None, tag: str, default: str = "") -> str:
    found = node.find(tag) if node is not None else None
    return (found.text or "").strip() if found is not None and found.text else default


def _number(node: Element, tag: str) -> float:
    return float(_text(node, tag))


def _existing_split(root: Path) -> dict[str, str]:
    """image stem → split, from the devkit's ``ImageSets/Main`` lists when the source has them."""
    split: dict[str, str] = {}
    for folder in (root / "ImageSets" / "Main", root / "ImageSets"):
        for name in SPLIT_NAMES:
            listing = folder / f"{name}.txt"
            if listing.is_file():
                for line in listing.read_text(encoding="utf-8-sig", errors="replace").splitlines():
                    if line.split():
                        split.setdefault(line.split()[0], name)
        if split:
            return split
    return split


def _folder_split(path: Path, root: Path) -> str | None:
    """The split a top folder named exactly ``train``/``valid``/``val``/``test`` gives ``path``, else None."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:  # not under the source's own path (never, as walked; kept safe)
        return None
    return SPLIT_FOLDERS.get(parts[0].lower()) if len(parts) > 1 else None


def read_voc(root: Path, index: ImageIndex | None = None) -> SourceDataset:
    root = Path(root)
    index = index or ImageIndex(root)
    data = SourceDataset("voc", root, default_grid="stored")
    splits = _existing_split(root)
    used: set[Path] = set()
    for xml in walk_files(root, (".xml",)):
        try:
            tree = safe_parse(str(xml), forbid_dtd=True)
        except defusedxml.DefusedXmlException as exc:
            data.skipped.append(Skipped(str(xml), "unreadable_annotation", tr(
                "refused: the XML declares entities or a DTD ({what}), which a VOC file never needs",
                what=type(exc).__name__)))
            continue
        except (ParseError, OSError, ValueError) as exc:
            data.skipped.append(Skipped(str(xml), "unreadable_annotation", tr("not readable XML: {error}",
                                                                             error=exc)))
            continue
        ann = tree.getroot()
        if ann.tag != "annotation":
            continue  # some other XML in the tree (a tool's settings); not an annotation
        filename = _text(ann, "filename")
        image = index.find(filename, xml.parent) if filename else None
        if image is None:
            image = index.find(_text(ann, "path"), xml.parent) or index.find_stem(xml)
        if image is None and filename:
            image = index.find(f"JPEGImages/{filename}") or index.find(f"../JPEGImages/{filename}", xml.parent)
        if image is None and filename and not is_image_name(filename.replace("\\", "/").rsplit("/", 1)[-1]):
            image = index.find_named_stem(filename, xml.parent)
        if image is None:
            data.skipped.append(Skipped(str(xml), "missing_image", tr(
                "its image {name} is not in the source folder", name=filename or xml.stem)))
            continue
        used.add(image)
        size = ann.find("size")
        w = declared_side(_text(size, "width") or None, xml, "<size><width>")
        h = declared_side(_text(size, "height") or None, xml, "<size><height>")
        declared = (w, h) if w and h else None
        item = SourceImage(image, str(xml), declared_size=declared, grid="auto",
                           split=splits.get(image.stem) if splits else _folder_split(xml, root))
        for number, obj in enumerate(ann.findall("object"), 1):
            where = tr("object {n}", n=number)
            name = _text(obj, "name")
            box = obj.find("bndbox")
            if box is None:
                shape = "polygon" if obj.find("polygon") is not None else tr("no bndbox")
                data.skipped.append(Skipped(str(xml), "no_geometry", tr(
                    "{where} ({name}): {shape} has no box to convert", where=where, name=name, shape=shape)))
                continue
            try:
                x0, y0, x1, y1 = (_number(box, t) for t in ("xmin", "ymin", "xmax", "ymax"))
            except ValueError:
                data.skipped.append(Skipped(str(xml), "no_geometry", tr(
                    "{where} ({name}): a corner is not a number", where=where, name=name)))
                continue
            difficult = _text(obj, "difficult", "0") in ("1", "true", "True")
            item.boxes.append(SourceBox(name, x0, y0, x1, y1, difficult=difficult, where=where))
        data.images.append(item)
    for image in index.images:
        if image not in used:
            split = splits.get(image.stem) if splits else _folder_split(image, root)
            data.images.append(SourceImage(image, "", split=split))  # a background
    report_masks(data, index)
    return data
