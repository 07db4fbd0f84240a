"""YOLO folders: LabelImg's YOLO mode (images with ``.txt`` beside them and a ``classes.txt``), make-sense's
YOLO zip unpacked beside the pictures with its ``labels.txt`` and Ultralytics/Roboflow exports with a
``data.yaml`` (``train/images``, ``valid/images`` …).

make-sense keeps the class names in ``labels.txt``, one a line: its own YOLO import refuses labels without it
("For YOLO labels to be loaded correctly, labels.txt file is required", SkalskiP/make-sense
``src/logic/import/yolo/YOLOErrors.ts``, commit 17995bd). It is read only when there is no ``classes.txt``
and no picture named ``labels`` whose label file it would be.

Pairing and label parsing are the validator's own (``core.dataset.files.label_path_for`` is yolov5's
``img2label_paths``; ``core.dataset.labels`` reads rows as yolov5 does), so a re-import changes nothing
yolov5 would read differently. Rows are normalised to the oriented picture, as yolov5 reads them.
"""

from __future__ import annotations

import os
from pathlib import Path

from core.dataset.data_yaml import read_data_yaml
from core.dataset.files import label_path_for, list_split
from core.dataset.importers.locate import inside, walk_files
from core.dataset.importers.model import Skipped, SourceBox, SourceDataset, SourceImage
from core.dataset.images import is_image_name
from core.dataset.labels import parse_label_bytes
from core.dataset.split import classes_txt_names, discover
from core.i18n import tr

YAML_NAMES = ("data.yaml", "data.yml", "dataset.yaml")


def data_yaml_in(root: Path) -> Path | None:
    for name in YAML_NAMES:
        if (root / name).is_file():
            return root / name
    return None


def looks_like_yolo(root: Path) -> bool:
    if data_yaml_in(root) is not None or (root / "classes.txt").is_file():
        return True
    return any(os.path.isfile(label_path_for(str(p))) for p in walk_files(root)[:200] if is_image_name(p.name))


def _boxes(label: str | None, names: list[str], data: SourceDataset) -> list[SourceBox]:
    if label is None or not os.path.isfile(label):
        return []
    if os.path.islink(label) and not inside(label, os.path.realpath(data.root)):
        return []  # a link out of the source: reported by ``tidy`` with every other one
    try:
        raw = Path(label).read_bytes()
    except OSError as exc:
        data.skipped.append(Skipped(label, "unreadable_annotation", str(exc)))
        return []
    parsed = parse_label_bytes(raw, label)
    for f in parsed.findings:
        if f.severity == "error":
            data.skipped.append(Skipped(label, "unreadable_annotation", f"{f.line or ''} {f.message}".strip()))
    boxes = []
    for line, cls, x, y, w, h in parsed.rows:
        index = int(cls)
        name = names[index] if 0 <= index < len(names) else f"class{index}"
        boxes.append(SourceBox(name, x - w / 2, y - h / 2, x + w / 2, y + h / 2,
                               where=tr("line {n}", n=line)))
    return boxes


def _makesense_names(root: Path) -> list[str]:
    """The names in make-sense's ``labels.txt`` unless it is the label file of a picture called ``labels``."""
    listing = root / "labels.txt"
    if not listing.is_file() or any(is_image_name(p.name) for p in root.glob("labels.*")):
        return []
    text = listing.read_text(encoding="utf-8-sig", errors="replace")
    return [n.strip() for n in text.splitlines() if n.strip()]


def read_yolo(root: Path) -> SourceDataset:
    root = Path(root)
    data = SourceDataset("yolo", root, default_grid="oriented")
    yaml_path = data_yaml_in(root)
    if yaml_path is not None:
        judged = read_data_yaml(yaml_path)
        if judged.spec is None or not judged.trainable:
            reasons = "; ".join(f.message for f in judged.errors)
            data.skipped.append(Skipped(str(yaml_path), "unreadable_annotation", reasons))
            return data
        data.class_order = list(judged.spec.names)
        for split_name, split in judged.spec.splits.items():
            for image in list_split(split, str(yaml_path)).images:
                item = SourceImage(Path(image), label_path_for(image), grid="oriented", normalized=True,
                                   split=split_name)
                item.boxes = _boxes(label_path_for(image), data.class_order, data)
                data.images.append(item)
        return data
    data.class_order = classes_txt_names(root) or _makesense_names(root)  # classes.txt as "New from folders"
    for image, label in discover(root):
        item = SourceImage(Path(image), label or "", grid="oriented", normalized=True)
        item.boxes = _boxes(label, data.class_order, data)
        data.images.append(item)
    return data
