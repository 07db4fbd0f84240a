"""One import from start to end, shared by ``yolostudio dataset import`` and the ``dataset_import`` job.

``analyse`` reads the source and every image (the preview: what it found, what it cannot convert and why,
the classes with counts and names spelled two ways) without writing anything; ``run_import`` analyses,
applies the class map, splits and writes. Both report progress ``(phase, done, total)`` and stop when
``cancelled()`` says so.
"""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from core.dataset.importers.classes import ClassMap, output_names, spelling_variants
from core.dataset.importers.convert import (READ_ERRORS, ConvertedImage, ConvertOptions, convert_image, read_image,
                                            unreadable)
from core.dataset.importers.coco import source_root
from core.dataset.importers.detect import read_source
from core.dataset.importers.model import NOTE_REASONS, ImportSourceError, Skipped, SourceDataset
from core.dataset.importers.splitter import SPLITS, SplitItem, split_items
from core.dataset.importers.writer import ImportCancelled, ImportWriteError, check_output, place, write_dataset
from core.i18n import tr

#: (phase, done, total): phase "reading" (images read) or "writing" (images written).
Progress = Callable[[str, int, int], None]
Cancelled = Callable[[], bool]
READ_THREADS = 4  # Pillow releases the GIL while it decodes; more threads than this only queue on the disk


@dataclass
class ImportOptions:
    fmt: str = "auto"
    ratios: tuple[float, float, float] = (0.8, 0.2, 0.0)
    seed: int = 0
    classes: ClassMap = field(default_factory=ClassMap)
    merge_variants: bool = False
    link: str = "auto"
    convert: ConvertOptions = field(default_factory=ConvertOptions)


@dataclass
class Analysis:
    source: SourceDataset
    images: list[ConvertedImage]
    skipped: list[Skipped]
    counts: Counter[str]
    class_counts: Counter[str]  # boxes per source class, before the class map

    def seen_order(self) -> list[str]:
        """The source classes in the order their boxes first appear (the written order's tie-break)."""
        return list(dict.fromkeys(name for image in self.images for name, _ in image.rows))

    def preview_json(self) -> dict[str, Any]:
        lost = [s for s in self.skipped if s.reason not in NOTE_REASONS]
        notes = [s for s in self.skipped if s.reason in NOTE_REASONS]
        return {
            "format": self.source.format, "source": str(self.source.root), "images": len(self.images),
            "annotations": self.source.annotations, "backgrounds": self.counts["background"],
            "classes": dict(sorted(self.class_counts.items(), key=lambda kv: (-kv[1], kv[0]))),
            "class_order": self.source.class_order, "seen_order": self.seen_order(),
            "variants": spelling_variants(self.class_counts),
            "existing_split": dict(Counter(i.source.split for i in self.images if i.source.split)),
            "counts": dict(self.counts), "skipped": [s.to_json() for s in lost],
            "notes": [s.to_json() for s in notes],
            "skipped_by_reason": dict(Counter(s.reason for s in lost)),
        }


def analyse(source: Path, options: ImportOptions, progress: Progress | None = None,
            cancelled: Cancelled | None = None, want_hash: bool = True) -> Analysis:
    """Read the annotations and every image; nothing is written. Raises ImportCancelled."""
    data = read_source(source, options.fmt)
    skipped = list(data.skipped)
    counts: Counter[str] = Counter()
    converted: list[ConvertedImage] = []
    total = len(data.images)
    with ThreadPoolExecutor(READ_THREADS) as pool:
        reads = pool.map(lambda im: _try_read(im, want_hash), data.images)
        for done, (image, read) in enumerate(zip(data.images, reads)):
            if cancelled is not None and cancelled():
                pool.shutdown(cancel_futures=True)
                raise ImportCancelled()
            if isinstance(read, Exception):
                counts["unreadable_image"] += 1
                skipped.append(unreadable(image, read))
            else:
                converted.append(convert_image(image, read, options.convert, data.default_grid, skipped, counts))
            if progress is not None and (done % 50 == 0 or done + 1 == total):
                progress("reading", done + 1, total)
    class_counts: Counter[str] = Counter(name for image in converted for name, _ in image.rows)
    return Analysis(data, converted, skipped, counts, class_counts)


def _try_read(image, want_hash: bool):
    try:
        return read_image(image, want_hash)
    except READ_ERRORS as exc:
        return exc


@dataclass
class ImportResult:
    out: Path
    data_yaml: Path
    report: dict[str, Any]


def run_import(source: Path, out: Path, options: ImportOptions, progress: Progress | None = None,
               cancelled: Cancelled | None = None) -> ImportResult:
    """Analyse, map classes, split and write the dataset into ``out`` (which must be new or empty)."""
    out = Path(out).expanduser().absolute()
    check_output(out)  # before the long read: a clash is said at once
    root = source_root(Path(source).expanduser().absolute())
    real_out, real_root = out.resolve(), root.resolve()  # ``a/../src/new`` and a link to the source are inside
    if real_out == real_root or real_root in real_out.parents:
        raise ImportWriteError(tr("{out} is inside the source {source}: the import never writes into the source. "
                                  "Pick a folder outside it.", out=out, source=root))
    analysis = analyse(source, options, progress, cancelled)
    if not analysis.images:
        raise ImportSourceError(tr(
            "{source}: no image could be converted ({n} problems, e.g. {example}). Nothing was written. Check "
            "that the images are in the folder with the annotations (--dry-run lists every problem).",
            source=root, n=len(analysis.skipped),
            example=(f"{analysis.skipped[0].file}: {analysis.skipped[0].message}" if analysis.skipped
                     else tr("no pictures found"))))
    class_map = (options.classes.with_variants_merged(analysis.class_counts) if options.merge_variants
                 else options.classes)
    seen_sources = analysis.seen_order()
    dropped: Counter[str] = Counter()
    for image in analysis.images:
        kept = []
        for name, values in image.rows:
            target = class_map.target(name)
            if target is None:
                dropped[name] += 1
            else:
                kept.append((target, values))
        image.rows = kept
    names = output_names(class_map, analysis.source.class_order, seen_sources)
    for name, n in sorted(dropped.items()):
        analysis.skipped.append(Skipped(name, "dropped_class", tr("class {name}: {n} boxes left out as asked",
                                                                  name=name, n=n)))
    placed_items = [SplitItem(str(i), str(im.source.path or im.source.embedded_name),
                              frozenset(name for name, _ in im.rows), im.dhash, im.source.split)
                    for i, im in enumerate(analysis.images)]
    split = split_items(placed_items, options.ratios, options.seed)
    placed = place([(im, split.assignment[str(i)]) for i, im in enumerate(analysis.images)])
    report = analysis.preview_json()
    out_classes: Counter[str] = Counter(name for im in analysis.images for name, _ in im.rows)
    report.update({
        "out": str(out), "names": names, "out_classes": {n: out_classes[n] for n in names},
        "boxes": sum(out_classes.values()), "dropped": dict(dropped),
        "splits": {s: sum(1 for p in placed if p.split == s) for s in SPLITS},
        "split_classes": {s: dict(Counter(n for p in placed if p.split == s for n, _ in p.image.rows))
                          for s in SPLITS},
        "groups": split.groups, "grouped_images": split.grouped_images,
        "kept_from_source": split.kept_from_source, "seed": options.seed, "ratios": list(options.ratios),
    })

    def written(done: int, total: int) -> None:
        if progress is not None and (done % 50 == 0 or done == total):
            progress("writing", done, total)

    linked, copied = write_dataset(out, placed, names, report, options.link, written, cancelled)
    report.update({"linked": linked, "copied": copied, "data_yaml": str(out / "data.yaml")})
    return ImportResult(out, out / "data.yaml", report)


def options_to_json(options: ImportOptions) -> dict[str, Any]:
    """The options as plain JSON, for a worker job's spec (``options_from_json`` reads them back)."""
    cm, co = options.classes, options.convert
    return {"fmt": options.fmt, "ratios": list(options.ratios), "seed": options.seed,
            "rename": dict(cm.rename), "drop": sorted(cm.drop), "only": cm.only,
            "merge_variants": options.merge_variants, "link": options.link,
            "grid": co.grid, "segments": co.segments, "difficult": co.difficult, "crowd": co.crowd}


def options_from_json(data: dict[str, Any]) -> ImportOptions:
    ratios = tuple(float(v) for v in data.get("ratios", (0.8, 0.2, 0.0)))
    return ImportOptions(
        fmt=str(data.get("fmt", "auto")), ratios=(ratios + (0.0, 0.0, 0.0))[:3],  # type: ignore[arg-type]
        seed=int(data.get("seed", 0)),
        classes=ClassMap(dict(data.get("rename") or {}), set(data.get("drop") or ()), data.get("only")),
        merge_variants=bool(data.get("merge_variants")), link=str(data.get("link", "auto")),
        convert=ConvertOptions(grid=str(data.get("grid", "auto")), segments=bool(data.get("segments")),
                               difficult=bool(data.get("difficult")), crowd=bool(data.get("crowd"))))
