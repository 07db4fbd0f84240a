"""The whole dataset check: the data.yaml, every split's files, each image and label, and what only shows
across files (orphans, train/val leaks, duplicates, unused classes) — plus the statistics.

``validate_dataset`` is the one entry point the page and ``yolostudio dataset check`` share. It is a plain
function: it reports through ``progress(done, total)``, checks ``cancelled()``, and returns a ``Report``
whose findings each name a file and, for labels, a line.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Sequence
from itertools import chain, islice
from operator import eq
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from core.dataset.cache import ScanCache
from core.dataset.crossfile import leaks_and_duplicates, orphans, shared_labels
from core.dataset.data_yaml import judge_document
from core.dataset.dirs import FolderMemo
from core.dataset.files import SplitFiles, WalkLimits, label_path_for, list_split, yolov5_split_path
from core.dataset.findings import ERROR, RULES_VERSION, finding, finding_json, sort_findings
from core.dataset.records import ImageRecord, ImageRecords
from core.dataset.scan import SEARCHING, ScanStats, findings_from, scan_images
from core.dataset.spec import DatasetSpec
from core.dataset.stats import dataset_stats
from core.dataset.table import HAS_LABEL, ScanTable
from core.dataset.yaml_doc import YamlDocument, load_document
from core.findings import Finding, has_errors
from core.i18n import tr

__all__ = ["ImageRecord", "Report", "cache_file_for", "validate_dataset"]
Progress = Callable[[int, int], None]
Cancelled = Callable[[], bool]


@dataclass
class Report:
    yaml_file: str
    names: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    images: Sequence[ImageRecord] = field(default_factory=ImageRecords)
    scan: ScanStats = field(default_factory=ScanStats)

    @property
    def ok(self) -> bool:
        return not has_errors(self.findings)

    def to_json(self) -> dict[str, Any]:
        return {"findings": [{k: v for k, v in finding_json(f).items() if k != "column"} for f in self.findings],
                "stats": self.stats}


def cache_file_for(cache_dir: Path, yaml_file: Path) -> Path:
    """The scan cache of ``yaml_file``: per rules version and per language, since it keeps the findings' words
    (a check in Chinese after one in English would otherwise show the English messages)."""
    from core.i18n import language

    digest = hashlib.blake2b(str(Path(yaml_file).absolute()).encode("utf-8"), digest_size=8).hexdigest()
    return Path(cache_dir) / f"{digest}.r{RULES_VERSION}.{language()}.table"


def validate_dataset(yaml_file: Path, *, progress: Progress | None = None, cancelled: Cancelled | None = None,
                     cache_dir: Path | None = None, workers: int | None = None,
                     doc: YamlDocument | None = None) -> Report:
    """Check the dataset of ``yaml_file`` (or of ``doc``, its unsaved text). Raises ``ScanCancelled``."""
    yaml_file = Path(yaml_file).absolute()
    started = time.monotonic()
    if doc is None:
        doc = load_document(yaml_file)
    report = Report(str(yaml_file))
    judged = judge_document(doc, yaml_file)
    findings: list[Finding] = list(judged.findings)
    spec = judged.spec
    report.names = spec.names
    cache_file = cache_file_for(cache_dir, yaml_file) if cache_dir is not None else None
    memo = FolderMemo(cache_file.with_suffix(".dirs.json") if cache_file is not None else None)
    split_files: dict[str, SplitFiles] = {}
    limits = WalkLimits(cancelled=cancelled,
                        progress=(lambda folders: progress(folders, SEARCHING)) if progress is not None else None)
    for name, split in spec.splits.items():
        files = list_split(split, str(yaml_file), memo, limits)
        split_files[name] = files
        findings += files.findings
        if not files.images and not files.missing:
            findings.append(finding("split-empty", yaml_file, tr(
                "{split} holds no images yolov5 can read. {consequence}", split=name, consequence=tr(
                    "yolov5 stops with 'No images found'.") if name != "test" else tr(
                    "Training does not read it, but validating on the test split fails with 'No images "
                    "found'.")), split.line, severity="error" if name != "test" else "warning"))
    images = _union([files.images for files in split_files.values()])
    table, report.scan = scan_images(images, ScanCache(cache_file), progress, cancelled, workers)
    members = _members(images, split_files)
    per_image = _per_image_findings(table, len(spec.names), members.get("train"))
    for own in per_image.values():
        findings += own
    findings += orphans(split_files, table, memo)
    findings += shared_labels(table)
    findings += _yolov5_caches(spec, split_files, table, members, memo, cache_file)
    memo.save()
    findings += leaks_and_duplicates(table, members)
    findings += _train_without_labels(table, members, per_image, spec, yaml_file)
    problems = {i: sorted({f.code for f in own if f.severity != "info"}) for i, own in per_image.items()}
    report.images = ImageRecords(table, members, {i: codes for i, codes in problems.items() if codes})
    report.stats = dataset_stats(spec.names, table, members)
    findings += _unused_classes(spec, report.stats, doc, yaml_file)
    report.stats["scan"] = {"files": report.scan.total, "from_cache": report.scan.from_cache,
                            "read": report.scan.read, "seconds": round(time.monotonic() - started, 3)}
    report.findings = sort_findings(findings)
    report.stats["findings"] = dict(Counter(str(f.severity) for f in report.findings))
    return report


def _union(lists: list[list[str]]) -> list[str]:
    """Sorted unique images of all splits. Each list is sorted, so sorting their concatenation is a merge of
    runs, and duplicates (an image in two splits) sit side by side."""
    merged = sorted(chain.from_iterable(lists))
    if any(map(eq, merged, islice(merged, 1, None))):
        merged = list(dict.fromkeys(merged))
    return merged


def _members(images: list[str], split_files: dict[str, SplitFiles]) -> dict[str, np.ndarray]:
    """Per split, the table positions of its images, in the split's own order (usually one block of them)."""
    out: dict[str, np.ndarray] = {}
    index: dict[str, int] | None = None
    for name, files in split_files.items():
        start = bisect_left(images, files.images[0]) if files.images else 0
        if images[start:start + len(files.images)] == files.images:
            out[name] = np.arange(start, start + len(files.images), dtype=np.int64)
            continue
        if index is None:
            index = {path: i for i, path in enumerate(images)}
        out[name] = np.fromiter((index[p] for p in files.images), dtype=np.int64, count=len(files.images))
    return out


def _per_image_findings(table: ScanTable, nc: int, train: np.ndarray | None) -> dict[int, list[Finding]]:
    """Each image's own findings by table position, in position order: what its image and label checks
    found, class ids ≥ ``nc`` (judged here, so a cached parse survives a class-list edit) and a missing
    label. Only images with findings are visited, so a clean dataset costs a few array passes."""
    own: dict[int, list[Finding]] = defaultdict(list)
    for source in (table.image_findings, table.label_findings):
        for i in sorted(bisect_left(table.paths, path) for path in source):  # few: no path -> index dict
            own[i] += findings_from(source[table.paths[i]])
    if nc:
        in_train = np.zeros(len(table), dtype=bool)
        if train is not None:
            in_train[train] = True
        for r in np.flatnonzero(table.rows[:, 1] >= nc).tolist():
            i, (line, cls) = int(table.owner[r]), table.rows[r, :2].tolist()
            # yolov5 7.0.14 train.py checks only the training labels, once, before the first epoch
            # (``assert mlc < nc, f'Label class {mlc} exceeds nc={nc} ...'``); val.py indexes ``names[c]``
            # for every class it scored, so a validation label with such a class fails there instead.
            consequence = tr(
                "yolov5's scan accepts it, then training aborts at start ('Label class {cls} exceeds nc={nc}').",
                cls=int(cls), nc=nc) if in_train[i] else tr(
                "yolov5 checks only training labels against nc, so validation scores a class that does not "
                "exist and fails when it looks up its name.")
            own[i].append(finding("label-class-range", table.labels[i], tr(
                "Class id {cls} but the dataset has {nc} classes (0–{top}). {consequence}",
                cls=_fmt_class(cls), nc=nc, top=nc - 1, consequence=consequence), int(line)))
    for i in np.flatnonzero((table.flags & HAS_LABEL) == 0).tolist():
        if table.paths[i] not in table.image_findings and table.paths[i] not in table.label_findings:
            own[i].append(finding("label-missing", table.paths[i], tr(
                "No label file ({label}). yolov5 trains on it as a background image (no objects); fine if "
                "that is meant.", label=table.labels[i])))
    return {i: own[i] for i in sorted(own)}


def _yolov5_caches(spec: DatasetSpec, split_files: dict[str, SplitFiles], table: ScanTable,
                   members: dict[str, np.ndarray], memo: FolderMemo, cache_file: Path | None) -> list[Finding]:
    """yolov5's own ``*.cache`` of each split, judged against the labels as this check read them. The verdict
    is remembered while the cache file (size, mtime, inode) and every file of the split (the scan's stat
    keys) are unchanged, so a re-check does not unpickle and compare it again; after an edit, the cache's
    contents come from a pickle-free snapshot (``yolo_cache_snapshot``) and are compared in array passes."""
    from core.dataset.yolo_cache import cache_findings, cache_path
    from core.dataset.yolo_cache_snapshot import contents_of

    out: list[Finding] = []
    for name, split in spec.splits.items():
        files, idx = split_files.get(name), members.get(name)
        if files is None or not files.images or not split.paths or idx is None:
            continue
        cache = cache_path(yolov5_split_path(split.paths[-1]), label_path_for(files.images[0]))
        try:
            st = os.stat(cache)
        except OSError:
            continue  # no cache: yolov5 scans the files
        keys = table.keys[idx]
        fingerprint = "\0".join(map(str, (cache, st.st_size, st.st_mtime_ns, st.st_ino, table.paths_id,
                                           hashlib.blake2b(keys.tobytes(), digest_size=16).hexdigest())))
        remembered = memo.recall(f"yolov5-cache-{name}", fingerprint)
        if remembered is None:
            current, current_many = _rows_now(table, files.images, idx)
            snapshot = cache_file.with_suffix(f".yolov5-{name}.npz") if cache_file is not None else None
            found = cache_findings(cache, files.images, current, int(keys[:, [0, 2]].clip(0).sum()), current_many,
                                   contents_of(cache, snapshot), [table.labels[i] for i in idx.tolist()])
            remembered = [json.dumps(finding_json(f), ensure_ascii=False) for f in found]
            memo.keep(f"yolov5-cache-{name}", fingerprint, [], remembered)
        out += [finding(d["code"], d["file"], d["message"], d["line"], severity=d["severity"])
                for d in map(json.loads, remembered)]
    return out


def _rows_now(table: ScanTable, split_images: list[str], idx: np.ndarray) -> tuple[
        Callable[[str], np.ndarray | None], Callable[[list[str]], tuple[np.ndarray, np.ndarray, np.ndarray]]]:
    """The float32 rows yolov5 would read now for an image of the table; None where its scan drops the image
    (an image or label error of the per-file checks — not the class-count check, which its scan does not make)."""
    from core.dataset.yolo_cache import current_rows

    dropped = {image for source in (table.image_findings, table.label_findings) for image, rows in source.items()
               if any(row[1] == ERROR for row in rows)}

    def current(image: str) -> np.ndarray | None:
        i = bisect_left(table.paths, image)
        if i >= len(table.paths) or table.paths[i] != image:
            return current_rows(label_path_for(image))
        if image in dropped:
            return None
        start = int(table.starts[i])
        return table.rows[start:start + int(table.counts[i]), 1:6].astype(np.float32)

    def current_many(images: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if images == split_images:  # the usual case: yolov5 listed the split as this check did
            at, known = idx, np.ones(len(idx), dtype=bool)
        else:
            position = {path: i for i, path in enumerate(table.paths)}
            at = np.fromiter((position.get(image, 0) for image in images), dtype=np.int64, count=len(images))
            known = np.fromiter((image in position for image in images), dtype=bool, count=len(images))
        if dropped:
            known &= np.fromiter((image not in dropped for image in images), dtype=bool, count=len(images))
        if not len(table.paths):
            known[:] = False
        counts = np.where(known, table.counts[at] if len(table.paths) else 0, 0).astype(np.int64)
        rows = table.rows[table.row_index(at[known])][:, 1:6].astype(np.float32)
        return rows, counts, known

    return current, current_many


def _fmt_class(cls: float) -> str:
    return str(int(cls)) if cls == int(cls) else f"{cls:g}"


def _train_without_labels(table: ScanTable, members: dict[str, np.ndarray], per_image: dict[int, list[Finding]],
                          spec: DatasetSpec, yaml_file: Path) -> list[Finding]:
    """yolov5 refuses to train when no training image keeps a label: 'No labels found' when no label file
    was found, 'All labels empty' when they hold no usable row (``LoadImagesAndLabels``, augment=True).
    Images it drops (an error in the image or its label) keep nothing."""
    train = members.get("train")
    if train is None or not len(train):
        return []
    dropped = np.array([i for i, own in per_image.items() if any(f.severity == ERROR for f in own)], dtype=np.int64)
    kept = train[~np.isin(train, dropped)]
    if table.counts[kept].sum() > 0:
        return []
    found = bool(((table.flags[kept] & HAS_LABEL) != 0).any())
    reason = "All labels empty" if found else "No labels found"
    return [finding("split-no-labels", yaml_file, tr(
        "No training image has a usable label. yolov5 refuses to start ('{reason} … can not start training'); "
        "label some images, or check that the labels sit in a 'labels' folder beside 'images'.", reason=reason),
        spec.splits["train"].line if "train" in spec.splits else 0)]


def _unused_classes(spec: DatasetSpec, stats: dict[str, Any], doc: YamlDocument, yaml_file: Path) -> list[Finding]:
    splits = stats.get("splits", {})
    source = "train" if "train" in splits else next(iter(splits), None)
    if source is None or not splits[source]["images"]:
        return []
    counts = splits[source]["per_class"]
    line = doc.key_line("names")
    return [finding("class-no-instances", yaml_file, tr(
        "Class {id} '{name}' has no instances in {split}. The model cannot learn it; yolov5 never reports "
        "this. Label some images, or delete the class (ids after it shift).", id=i, name=n, split=source), line)
        for i, (n, c) in enumerate(zip(spec.names, counts)) if c == 0]
