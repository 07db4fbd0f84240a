"""The whole dataset check: the data.yaml, every split's files, each image and label, and what only shows
across files (orphans, train/val leaks, duplicates, unused classes) — plus the statistics.

``validate_dataset`` is the one entry point the page and ``yolostudio dataset check`` share. It is a plain
function: it reports through ``progress(done, total)``, checks ``cancelled()``, and returns a ``Report``
whose findings each name a file and, for labels, a line.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from core.dataset.files import SplitFiles, label_path_for, list_split
from core.dataset.findings import Finding, finding, has_errors, sort_findings
from core.dataset.scan import ScanCache, ScanStats, findings_from, scan_pairs
from core.dataset.spec import DatasetSpec, read_spec
from core.dataset.yaml_doc import YamlDocument, load_document
from core.i18n import tr

Progress = Callable[[int, int], None]
Cancelled = Callable[[], bool]
ORPHAN_IGNORE = {"classes.txt", "notes.txt", "readme.txt", "predefined_classes.txt"}


@dataclass
class ImageRecord:
    path: str
    split: str
    label: str
    label_exists: bool
    width: int
    height: int
    boxes: list[tuple[int, float, float, float, float]] = field(default_factory=list)  # class, x, y, w, h
    problems: list[str] = field(default_factory=list)  # codes of error/warning findings about this image


@dataclass
class Report:
    yaml_file: str
    names: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    images: list[ImageRecord] = field(default_factory=list)
    scan: ScanStats = field(default_factory=ScanStats)

    @property
    def ok(self) -> bool:
        return not has_errors(self.findings)

    def to_json(self) -> dict[str, Any]:
        return {"findings": [{k: v for k, v in f.to_json().items() if k != "column"} for f in self.findings],
                "stats": self.stats}


def cache_file_for(cache_dir: Path, yaml_file: Path) -> Path:
    digest = hashlib.blake2b(str(Path(yaml_file).absolute()).encode("utf-8"), digest_size=8).hexdigest()
    return Path(cache_dir) / f"{digest}.json"


def validate_dataset(yaml_file: Path, *, progress: Progress | None = None, cancelled: Cancelled | None = None,
                     cache_dir: Path | None = None, workers: int | None = None,
                     doc: YamlDocument | None = None) -> Report:
    """Check the dataset of ``yaml_file`` (or of ``doc``, its unsaved text). Raises ``ScanCancelled``."""
    yaml_file = Path(yaml_file).absolute()
    started = time.monotonic()
    if doc is None:
        doc = load_document(yaml_file)
    report = Report(str(yaml_file))
    findings: list[Finding] = list(doc.findings)
    spec = read_spec(doc, yaml_file)
    findings += spec.findings
    report.names = spec.names
    split_files: dict[str, SplitFiles] = {}
    for name, split in spec.splits.items():
        files = list_split(split, str(yaml_file))
        split_files[name] = files
        findings += files.findings
        if not files.images and not any(f.code == "split-path-missing" and f.severity == "error"
                                         for f in files.findings):
            findings.append(finding("split-empty", yaml_file, tr(
                "{split} holds no images yolov5 can read. yolov5 stops with 'No images found'.", split=name),
                split.line, severity="error" if name != "test" else "warning"))
    pairs = {image: label_path_for(image) for files in split_files.values() for image in files.images}
    cache = ScanCache(cache_file_for(cache_dir, yaml_file) if cache_dir is not None else None)
    results, report.scan = scan_pairs(sorted(pairs.items()), cache, progress, cancelled, workers)
    cache.save(keep=set(pairs))
    nc = len(spec.names)
    per_image: dict[str, list[Finding]] = defaultdict(list)
    for image, result in results.items():
        label = pairs[image]
        own = findings_from(result["if"]) + findings_from(result["lf"])
        if result["lbl"] and spec.names:
            for line, cls, *_ in result["rows"]:
                if cls >= nc:
                    own.append(finding("label-class-range", label, tr(
                        "Class id {cls} but the dataset has {nc} classes (0–{top}). yolov5's scan accepts it, "
                        "then training aborts at start ('Label class {cls} exceeds nc={nc}').",
                        cls=int(cls), nc=nc, top=nc - 1), line))
        elif not result["lbl"] and not result["if"]:
            own.append(finding("label-missing", image, tr(
                "No label file ({label}). yolov5 trains on it as a background image (no objects); fine if "
                "that is meant.", label=label)))
        per_image[image] = own
        findings += own
    findings += _orphans(split_files, set(pairs.values()))
    findings += _leaks_and_duplicates(split_files, results)
    report.images = _records(split_files, results, pairs, per_image, nc)
    report.stats = _stats(spec, split_files, report.images)
    findings += _unused_classes(spec, report.stats, doc, yaml_file)
    report.stats["scan"] = {"files": report.scan.total, "from_cache": report.scan.from_cache,
                            "read": report.scan.read, "seconds": round(time.monotonic() - started, 3)}
    report.findings = sort_findings(findings)
    report.stats["findings"] = dict(Counter(f.severity for f in report.findings))
    return report


def _orphans(split_files: dict[str, SplitFiles], expected: set[str]) -> list[Finding]:
    lists = {p for files in split_files.values() for p in files.list_files}
    candidates: set[str] = set()
    for files in split_files.values():
        for folder in files.label_dirs:
            try:
                candidates |= {e.path for e in os.scandir(folder) if e.name.endswith(".txt") and e.is_file()}
            except OSError:
                continue
        for folder in files.recursive_label_dirs:
            for dirpath, _, names in os.walk(folder):
                candidates |= {os.path.join(dirpath, n) for n in names if n.endswith(".txt")}
    out = []
    for path in sorted(candidates - expected - lists):
        if os.path.basename(path).lower() in ORPHAN_IGNORE:
            continue
        out.append(finding("label-orphan", path, tr(
            "A label file without an image (yolov5's pairing: same name under images/ instead of labels/). "
            "yolov5 ignores it silently; was its image renamed or deleted? Move it aside (one-click fix).")))
    return out


def _leaks_and_duplicates(split_files: dict[str, SplitFiles], results: dict[str, dict]) -> list[Finding]:
    """Same content (hash) in train and val is a leak; elsewhere a duplicate. ``realpath`` (an lstat per path
    component) runs only inside groups of identical content, which keeps a re-check of 20,000 images fast."""
    out: list[Finding] = []
    by_hash: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for name, files in split_files.items():
        for image in files.images:
            digest = results.get(image, {}).get("hash")
            if digest:
                by_hash[digest].append((name, image))
    train = set(split_files["train"].images) if "train" in split_files else set()
    for image in split_files["val"].images if "val" in split_files else []:
        digest = results.get(image, {}).get("hash")
        twins = [p for s, p in by_hash.get(digest, []) if s == "train"] if digest else []
        if image in train or any(os.path.realpath(t) == os.path.realpath(image) for t in twins):
            out.append(finding("train-val-leak", image, tr(
                "The same file is in train and val, so validation scores are inflated. yolov5 never reports "
                "this; remove it from val (one-click fix).")))
        elif twins:
            out.append(finding("train-val-leak", image, tr(
                "Identical content to the training image {twin}, so validation scores are inflated. yolov5 "
                "never reports this; remove it from val (one-click fix).", twin=twins[0])))
    for members in by_hash.values():
        if len(members) < 2:
            continue
        real = {os.path.realpath(p) for _, p in members}
        splits = {s for s, _ in members}
        if len(real) < 2 or (splits == {"train", "val"} and len(members) == 2):
            continue  # one file listed twice, or a pair already reported as a leak
        first_split, first = members[0]
        first_real = os.path.realpath(first)
        for split, image in members[1:]:
            if os.path.realpath(image) == first_real or {split, first_split} == {"train", "val"}:
                continue
            out.append(finding("image-duplicate", image, tr(
                "Identical content to {other} under another name; it counts twice in {split}. yolov5 never "
                "reports duplicates.", other=first, split=split)))
    return out


def _records(split_files: dict[str, SplitFiles], results: dict[str, dict], pairs: dict[str, str],
             per_image: dict[str, list[Finding]], nc: int) -> list[ImageRecord]:
    records = []
    for name, files in split_files.items():
        for image in files.images:
            result = results.get(image)
            if result is None:
                continue
            records.append(ImageRecord(
                image, name, pairs[image], bool(result["lbl"]), result["w"], result["h"],
                [(int(r[1]), r[2], r[3], r[4], r[5]) for r in result["rows"]],
                sorted({f.code for f in per_image.get(image, []) if f.severity != "info"})))
    return records


def _stats(spec: DatasetSpec, split_files: dict[str, SplitFiles], records: list[ImageRecord]) -> dict[str, Any]:
    nc = len(spec.names)
    splits: dict[str, Any] = {}
    sizes: Counter[str] = Counter()
    areas: list[float] = []
    aspects: list[float] = []
    for name in split_files:
        mine = [r for r in records if r.split == name]
        per_class = [0] * nc
        for record in mine:
            sizes[f"{record.width}x{record.height}"] += 1
            for cls, _, _, w, h in record.boxes:
                if 0 <= cls < nc:
                    per_class[cls] += 1
                if w > 0 and h > 0:
                    areas.append(w * h)
                    aspects.append(w / h)
        splits[name] = {"images": len(mine), "labelled": sum(1 for r in mine if r.label_exists and r.boxes),
                        "backgrounds": sum(1 for r in mine if not r.boxes), "instances": sum(per_class),
                        "per_class": per_class}
    return {"classes": spec.names, "nc": nc, "splits": splits,
            "image_sizes": dict(sizes.most_common(10)),
            "box_area": _quantiles(areas), "box_aspect": _quantiles(aspects)}


def _quantiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)
    pick = lambda q: round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 5)  # noqa: E731
    return {"min": round(ordered[0], 5), "p10": pick(0.1), "median": pick(0.5), "p90": pick(0.9),
            "max": round(ordered[-1], 5)}


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
