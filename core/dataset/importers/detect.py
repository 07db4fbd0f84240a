"""Which format a source is, and the reader for it.

A ``.json`` file is COCO. A folder is judged by what it holds, most specific first: COCO annotation files,
VOC ``<annotation>`` XML, LabelMe JSON, then YOLO (a data.yaml, a classes.txt, or ``.txt`` labels paired the
way yolov5 pairs them). The user can always name the format (``--format``); detection only picks a default.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from core.dataset.importers.coco import coco_files, read_coco
from core.dataset.importers.labelme import looks_like_labelme, read_labelme
from core.dataset.importers.model import ImportSourceError, SourceDataset
from core.dataset.importers.tidy import tidy
from core.dataset.importers.voc import looks_like_voc, read_voc
from core.dataset.importers.yolo import looks_like_yolo, read_yolo
from core.i18n import tr

FORMATS = ("voc", "labelme", "coco", "yolo")


READERS: dict[str, Callable[[Path], SourceDataset]] = {
    "voc": read_voc, "labelme": read_labelme, "coco": read_coco, "yolo": read_yolo}


def detect_format(source: Path) -> str:
    source = Path(source)
    if not source.exists():
        raise ImportSourceError(tr("{path} does not exist.", path=source))
    if source.is_file():
        if source.suffix.lower() == ".json":
            return "coco"
        raise ImportSourceError(tr("{path}: pick a folder, or a COCO .json file.", path=source))
    if coco_files(source):
        return "coco"
    if looks_like_voc(source):
        return "voc"
    if looks_like_labelme(source):
        return "labelme"
    if looks_like_yolo(source):
        return "yolo"
    raise ImportSourceError(tr(
        "{path}: no VOC .xml, LabelMe .json, COCO .json or YOLO labels found. Name the format with --format, "
        "or pick the folder the export was unpacked into.", path=source))


def read_source(source: Path, fmt: str = "auto") -> SourceDataset:
    """The source read by the named reader (``auto``: the detected one), tidied (``tidy``)."""
    source = Path(source).expanduser()
    fmt = detect_format(source) if fmt == "auto" else fmt
    if fmt not in READERS:
        raise ImportSourceError(tr("Unknown format {fmt}; one of: {formats}.", fmt=fmt, formats=", ".join(FORMATS)))
    if not source.exists():
        raise ImportSourceError(tr("{path} does not exist.", path=source))
    if source.is_file() and fmt != "coco":
        raise ImportSourceError(tr("{path}: the {fmt} format is read from a folder.", path=source, fmt=fmt))
    return tidy(READERS[fmt](source))  # held to the source, each picture once, labels stripped
