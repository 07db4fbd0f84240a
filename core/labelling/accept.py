"""A queue's accepted images and labels written into a dataset: the only way a proposal enters one.

What goes in (``records.goes_in``): a person's yes (accepted, edited, drawn) always; the model's untouched box
at or above the threshold (the queue's, or ``threshold`` here: ``label accept --conf``); a rejected box or image
never. An image nobody reviewed with no box at the threshold stays in the queue (an empty label would teach
"nothing here" where the model may have missed everything); a reviewed image with no box goes in as background.

Where: a folder named for the queue in the split's folder (``train: images/train`` →
``images/train/<queue>/<id>``, label by yolov5's own rule, ``core.dataset.files.label_path_for``): yolov5 searches
a folder split recursively, new pictures never meet the dataset's own names (a camera's ``IMG_0001.jpg`` twice),
and what a queue added stays together; a ``.txt`` list split gets the image under ``images/<split>/<queue>/``
beside the list and a line appended to it. Classes are mapped by name to the dataset's ``names``; a box whose class
the dataset lacks refuses the whole accept before anything is written (``AcceptRefused``, naming the classes).

Order of writes, so a killed accept leaves nothing wrong: the provenance sidecar first (a record of a line not
written yet matches no line), then per image its label, then the image (an image without its label would train
as background; a label without its image is reported by the check and completed by the next accept), then the
list line and the queue's ``added`` line. An image already at its target with the same bytes and label is the
same image: recorded as added, not written twice; another file there is left alone and the image is skipped.
The dataset check then judges the dataset, and its findings about the added files are the report's.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from core.atomic import atomic_write_text, atomic_writer
from core.dataset.data_yaml import read_data_yaml
from core.dataset.files import label_path_for, yolov5_split_path
from core.findings import Finding
from core.i18n import tr
from core.labelling.provenance import LineOrigin, origin_of_box, record_labels
from core.labelling.records import REVIEWED, TO_REVIEW, Box, ImageItem, goes_in, yolo_row
from core.labelling.store import Queue, record_added


class AcceptRefused(ValueError):
    """Nothing was written: the words say why and what to do."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message, self.hint = message, hint


@dataclass
class Added:
    id: str
    image: str
    label: str
    boxes: int


@dataclass
class AcceptReport:
    dataset: str
    split: str
    threshold: float
    added: list[Added] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (id, why)
    findings: list[Finding] = field(default_factory=list)  # the dataset check's, about the added files

    def to_dict(self) -> dict:
        return {"dataset": self.dataset, "split": self.split, "threshold": self.threshold,
                "added": [a.__dict__ for a in self.added],
                "skipped": [{"id": i, "reason": why} for i, why in self.skipped],
                "findings": [{"code": f.code, "severity": str(f.severity), "file": f.file, "line": f.line,
                              "message": f.message} for f in self.findings]}


@dataclass
class _Target:
    folder: Path  # where the images go
    list_file: Path | None  # a .txt split: the list to append to


def _target(data_yaml: Path, split: str) -> tuple[_Target, list[str], Path]:
    judged = read_data_yaml(data_yaml)
    if judged.spec is None or not judged.trainable:
        reason = judged.errors[0].message if judged.errors else ""
        raise AcceptRefused(tr("{path} cannot be read as a dataset: {reason}", path=data_yaml, reason=reason),
                            tr("Fix it first (yolostudio dataset check {path}).", path=data_yaml))
    spec = judged.spec
    entry = spec.splits.get(split)
    if entry is None:
        raise AcceptRefused(tr("{path} has no '{split}' split.", path=data_yaml, split=split),
                            tr("Choose one it has with --split ({splits}).", splits=", ".join(spec.splits)))
    paths = [yolov5_split_path(p) for p in entry.paths]
    folder = next((p for p in paths if p.is_dir()), None)
    if folder is not None:
        return _Target(folder, None), spec.names, spec.root
    listed = next((p for p in paths if p.is_file()), None)
    if listed is None:
        raise AcceptRefused(tr("{split}: {path} does not exist.", split=split, path=paths[0]),
                            tr("Create the folder, or point '{split}' at the folder of its images.", split=split))
    return _Target(listed.parent / "images" / split, listed), spec.names, spec.root


def _chosen(queue: Queue, threshold: float, image_ids: list[str] | None) -> tuple[
        list[tuple[ImageItem, list[Box]]], list[tuple[str, str]]]:
    chosen, skipped = [], []
    ids = None if image_ids is None else set(image_ids)
    for item in queue.ordered():
        if ids is not None and item.id not in ids:
            continue
        if item.state not in (TO_REVIEW, REVIEWED):
            if ids is not None:
                skipped.append((item.id, tr("it is {state}", state=item.state)))
            continue
        boxes = [b for b in item.boxes if goes_in(b, threshold)]
        if not boxes and item.state == TO_REVIEW:
            skipped.append((item.id, tr("no box at confidence {conf:.2f} and nobody reviewed it: left in the "
                                        "queue", conf=threshold)))
            continue
        chosen.append((item, boxes))
    return chosen, skipped


def _same(path: Path, data: bytes | str) -> bool:
    try:
        return path.read_bytes() == (data.encode("utf-8") if isinstance(data, str) else data)
    except OSError:
        return False


def accept_into(queue: Queue, data_yaml: Path, *, split: str = "train", threshold: float | None = None,
                image_ids: list[str] | None = None, check_cache: Path | None = None,
                check: bool = True) -> AcceptReport:
    """Write ``queue``'s accepted images (all, or ``image_ids``) into ``data_yaml``'s ``split``; then run the
    dataset check (``check``; ``check_cache``: its cache folder) and keep its findings about the added files.
    Raises ``AcceptRefused`` (nothing written) for a dataset that cannot take them."""
    data_yaml = Path(data_yaml).expanduser().absolute()
    threshold = queue.header.threshold if threshold is None else float(threshold)
    target, names, root = _target(data_yaml, split)
    chosen, skipped = _chosen(queue, threshold, image_ids)
    index = {name: i for i, name in enumerate(names)}
    missing = sorted({b.cls for _, boxes in chosen for b in boxes if b.cls not in index})
    if missing:
        raise AcceptRefused(
            tr("The dataset {path} has no class {classes} (its classes: {names}); nothing was added.",
               path=data_yaml, classes=", ".join(repr(m) for m in missing), names=", ".join(names)),
            tr("Add the class to 'names' in the data.yaml (the Dataset page), or reject those boxes in the queue."))
    report = AcceptReport(str(data_yaml), split, threshold, skipped=skipped)
    plans = []
    for item, boxes in chosen:
        image = target.folder / queue.name / item.id
        label = Path(label_path_for(str(image)))
        rows = [yolo_row(b, index[b.cls], item.width, item.height) for b in boxes]
        text = "".join(row + "\n" for row in rows)
        source = Path(item.path)
        try:
            data = source.read_bytes()
        except OSError as exc:
            report.skipped.append((item.id, tr("cannot read {path}: {reason}", path=source, reason=exc.strerror)))
            continue
        if image.exists():
            ours = _same(image, data) and (_same(label, text) or (not rows and not label.exists()))
            if not ours:  # the dataset's own file, or its own labels for the same picture
                report.skipped.append((item.id, tr("{path} is in the dataset already; left alone", path=image)))
                continue
        elif label.exists() and not _same(label, text):
            report.skipped.append((item.id, tr("{path} exists already; left alone", path=label)))
            continue
        plans.append((item, boxes, image, label, rows, text, data))
    t = time.time()
    record_labels(root, {label: [LineOrigin(row, origin_of_box(b), b.conf, queue.header.run, queue.name, t)
                                 for row, b in zip(rows, boxes)] for _, boxes, _, label, rows, _, _ in plans})
    listed: list[str] = []
    for item, boxes, image, label, rows, text, data in plans:
        if not _same(label, text):
            atomic_write_text(label, text, backup=False)
        if not _same(image, data):
            with atomic_writer(image) as handle:
                handle.write(data)
            shutil.copystat(item.path, image)
        if target.list_file is not None:
            listed.append("./" + Path(os.path.relpath(image, target.list_file.parent)).as_posix())
        report.added.append(Added(item.id, str(image), str(label), len(rows)))
    if target.list_file is not None and listed:
        _append_list(target.list_file, listed)
    for added in report.added:
        record_added(queue, added.id, Path(added.image), data_yaml)
    if check and report.added:
        report.findings = check_added(data_yaml, report.added, check_cache)
    return report


def _append_list(list_file: Path, lines: list[str]) -> None:
    """Add image lines to a split's list file (atomically, ``.bak`` first) — each line once."""
    text = list_file.read_text(encoding="utf-8")
    have = {line.strip() for line in text.splitlines()}
    new = [line for line in lines if line not in have]
    if new:
        prefix = text if not text or text.endswith("\n") else text + "\n"
        atomic_write_text(list_file, prefix + "".join(line + "\n" for line in new))


def check_added(data_yaml: Path, added: list[Added], cache_dir: Path | None = None) -> list[Finding]:
    """The dataset check's findings about the added images and labels: they are judged like any others."""
    from core.dataset.validate import validate_dataset  # numpy and the scanners: only when checking

    files = {os.path.normcase(os.path.abspath(p)) for a in added for p in (a.image, a.label)}
    report = validate_dataset(data_yaml, cache_dir=cache_dir)
    return [f for f in report.findings if f.file and os.path.normcase(os.path.abspath(f.file)) in files]
