"""What every reader's result goes through before any image is read: each picture once, only the source's.

- **Held to the source.** A picture reached through a link that resolves outside the source is left out and
  reported (``outside_source``), as an annotation naming ``../../x.jpg`` already is; links that were never
  walked (a folder link, a link to ``/etc``) are reported too. A YOLO ``data.yaml`` may name image folders
  elsewhere on purpose: a picture whose path (unresolved) lies outside the source came from such a list and
  is the user's own choice.
- **The same pixels once.** One file reached by two spellings (LabelMe's ``imagePath: "..\\\\images\\\\x.jpg"``
  from ``annotations/x.json``, written by ``os.path.relpath`` on Windows: labelme ``_app.py``
  ``_resolve_stored_image_path``, commit 51e50e4), a link to a picture that is also there, or a byte-identical
  copy: training on one picture with its boxes and again as an unlabelled background is a contradictory signal.
  The annotated copy is kept; an unannotated copy is a note (``same_pixels``); a second annotation of the same
  pixels is a loss (``duplicate_image``) naming the one kept.
- **Labels stripped.** ``"bolt "`` and ``"bolt"`` are one class (no tool means the space); case variants stay
  apart and are offered as a merge (``classes.spelling_variants``).
"""

from __future__ import annotations

import hashlib
import os
from collections import defaultdict
from pathlib import Path

from core.dataset.importers.locate import ImageIndex, inside, outside_links
from core.dataset.importers.model import Skipped, SourceDataset, SourceImage
from core.i18n import tr, tr_n

_CHUNK = 1 << 20


def _digest(path: Path) -> str | None:
    sha = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            while chunk := handle.read(_CHUNK):
                sha.update(chunk)
    except OSError:
        return None
    return sha.hexdigest()


def _lexically_inside(path: Path, root: Path) -> bool:
    absolute = os.path.normpath(os.path.abspath(path))
    base = os.path.normpath(os.path.abspath(root))
    return absolute == base or absolute.startswith(base.rstrip(os.sep) + os.sep)


def _hold_to_source(data: SourceDataset) -> None:
    real_root = os.path.realpath(data.root)
    kept = []
    for image in data.images:
        if image.path is not None and _lexically_inside(image.path, data.root) and not inside(image.path, real_root):
            continue  # reported below with every other link out of the source
        kept.append(image)
    data.images = kept
    for link, target in outside_links(data.root):
        data.skipped.append(Skipped(str(link), "outside_source", tr(
            "a link to {target}, outside the source: left out (an import takes only the source's own files)",
            target=target)))


def _identity(image: SourceImage, by_size: dict[int, int]) -> str | None:
    """What makes two pictures the same pixels: the resolved file, or the content when sizes collide."""
    if image.path is None:
        return None
    try:
        size = image.path.stat().st_size
    except OSError:
        return None
    if by_size.get(size, 0) > 1:
        digest = _digest(image.path)
        if digest is not None:
            return f"sha256:{digest}"
    return f"file:{os.path.realpath(image.path)}"


def _once(data: SourceDataset) -> None:
    sizes: dict[str, int] = {}
    by_size: dict[int, int] = defaultdict(int)
    for image in data.images:
        if image.path is not None:
            real = os.path.realpath(image.path)
            if real not in sizes:
                try:
                    sizes[real] = image.path.stat().st_size
                except OSError:
                    continue
                by_size[sizes[real]] += 1
    first: dict[str, SourceImage] = {}
    order = sorted(range(len(data.images)), key=lambda i: not data.images[i].annotation)  # annotated first
    dropped: set[int] = set()
    for i in order:
        image = data.images[i]
        key = _identity(image, by_size)
        if key is None:
            continue
        kept = first.setdefault(key, image)
        if kept is image:
            continue
        dropped.add(i)
        if image.annotation:
            data.skipped.append(Skipped(image.annotation, "duplicate_image", tr_n(
                "its image {image} has the same pixels as {kept}, annotated by {other}: this annotation's {n} "
                "box is left out (one picture is imported once)",
                "its image {image} has the same pixels as {kept}, annotated by {other}: this annotation's {n} "
                "boxes are left out (one picture is imported once)", len(image.boxes), image=image.path,
                kept=kept.path, other=kept.annotation or "-")))
        else:
            data.skipped.append(Skipped(str(image.path), "same_pixels", tr(
                "the same pixels as {kept}: imported once, with its boxes", kept=kept.path)))
    data.images = [im for i, im in enumerate(data.images) if i not in dropped]


def _strip_labels(data: SourceDataset) -> None:
    for image in data.images:
        for box in image.boxes:
            box.label = box.label.strip()
    data.class_order = list(dict.fromkeys(name.strip() for name in data.class_order))


def report_masks(data: SourceDataset, index: ImageIndex) -> None:
    """One note per mask folder: a segmentation export's PNGs are not imported as photos."""
    folders: dict[Path, int] = defaultdict(int)
    for mask in index.masks:
        folders[mask.parent] += 1
    for folder, n in sorted(folders.items()):
        data.skipped.append(Skipped(str(folder), "segmentation_mask", tr_n(
            "{n} segmentation mask (a label map of a VOC segmentation export, not a photo): left out",
            "{n} segmentation masks (label maps of a VOC segmentation export, not photos): left out", n)))


def tidy(data: SourceDataset) -> SourceDataset:
    """The reader's result held to the source, each picture once, labels stripped (in place; returned)."""
    _hold_to_source(data)
    _once(data)
    _strip_labels(data)
    return data
