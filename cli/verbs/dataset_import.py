"""``yolostudio dataset import SRC --out DIR``: a VOC, LabelMe, COCO or YOLO export as a YOLO dataset that
trains (``core.dataset.importers``), then checked with the validator. Part of the ``dataset`` verb
(``cli/verbs/dataset.py`` adds the parser); this module registers no verb of its own.

``--dry-run`` shows what would be imported and what cannot be, writing nothing. Progress goes to stderr on a
terminal. Exit codes: 0 written and checked clean, 1 written but the check found errors, 2 usage (the
source unreadable, the output not empty, cancelled by Ctrl+C: then nothing is left under the output).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import signal
import sys
import threading
from collections import defaultdict
from pathlib import Path
from typing import Iterator

from cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from cli.progress_line import ProgressLine
from cli.render import Output, shown_event
from core.dataset.importers.classes import ClassMap, parse_pairs
from core.dataset.importers.convert import ConvertOptions
from core.dataset.importers.detect import FORMATS, ImportSourceError
from core.dataset.importers.model import REASONS
from core.dataset.importers.plan import ImportOptions, analyse, run_import
from core.dataset.importers.writer import ImportCancelled, ImportWriteError
from core.dataset.validate import validate_dataset
from core.i18n import N_, tr

EXAMPLES_PER_REASON = 5


def add_import_parser(verbs: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = verbs.add_parser("import", help=tr("convert a Pascal VOC, LabelMe, COCO or YOLO export into a YOLO dataset "
                                           "with train/val splits that do not leak"))
    p.add_argument("source", metavar="SRC", help=tr("the export's folder, or a COCO .json file"))
    p.add_argument("--out", required=True, metavar="DIR", help=tr("the new dataset's folder (new or empty)"))
    p.add_argument("--format", choices=("auto", *FORMATS), default="auto", help=tr("the source's format "
                                                                                  "(default: detected)"))
    p.add_argument("--split", default="0.8,0.2,0", metavar="TRAIN,VAL,TEST",
                   help=tr("shares of train, val and test (default: 0.8,0.2,0); a split the source has is kept"))
    p.add_argument("--seed", type=int, default=0, help=tr("seed of the split (same seed, same split)"))
    p.add_argument("--classes", default=None, metavar="A,B,…", help=tr("the classes to keep, in this order "
                                                                       "(others are left out)"))
    p.add_argument("--rename", action="append", default=[], metavar="OLD=NEW",
                   help=tr("rename a class; two classes renamed to one name are merged (repeatable)"))
    p.add_argument("--drop", action="append", default=[], metavar="NAME", help=tr("leave a class out (repeatable)"))
    p.add_argument("--merge-variants", action="store_true", help=tr("merge classes spelled two ways (Cat, cat, "
                                                                     "'cat ') into the commonest spelling"))
    p.add_argument("--polygons", choices=("bbox", "segments"), default="bbox",
                   help=tr("polygons as their bounding box (default) or kept as yolov5 segments"))
    p.add_argument("--difficult", action="store_true", help=tr("keep VOC objects marked difficult (left out by "
                                                                "default, as yolov5's VOC conversion does)"))
    p.add_argument("--crowd", action="store_true", help=tr("keep COCO crowd regions (iscrowd)"))
    p.add_argument("--exif-grid", choices=("auto", "stored", "oriented"), default="auto",
                   help=tr("for JPEGs with an EXIF orientation: were the boxes drawn on the stored pixels or on the "
                           "turned picture (default: from the annotation's size, else the tool's habit)"))
    links = p.add_mutually_exclusive_group()
    links.add_argument("--copy", dest="link", action="store_const", const="copy", default="auto",
                       help=tr("copy the images (default: hard links when on the same file system)"))
    links.add_argument("--link", dest="link", action="store_const", const="link",
                       help=tr("hard-link the images; fail if that is not possible"))
    p.add_argument("--dry-run", action="store_true", help=tr("show what would be imported; write nothing"))
    p.add_argument("--json", action="store_true", help=tr("print the report as JSON"))
    p.set_defaults(handler=cmd_dataset_import)


def parse_ratios(text: str) -> tuple[float, float, float]:
    """``0.8,0.2,0`` (or ``80,20``) → shares; ValueError for anything else."""
    parts = [float(v) for v in text.split(",") if v.strip()]
    if not 2 <= len(parts) <= 3 or any(v < 0 for v in parts) or parts[0] <= 0:
        raise ValueError(text)
    return (parts[0], parts[1], parts[2] if len(parts) == 3 else 0.0)


def options_from(args: argparse.Namespace) -> ImportOptions:
    """The import's options from the command line; ValueError(message) for a bad value."""
    try:
        ratios = parse_ratios(args.split)
    except ValueError:
        raise ValueError(tr("--split {value}: give two or three shares, train first and above 0, e.g. 0.8,0.2,0",
                            value=args.split)) from None
    try:
        rename = parse_pairs(args.rename)
    except ValueError as exc:
        raise ValueError(tr("--rename {value}: write OLD=NEW", value=exc.args[0])) from None
    only = [c.strip() for c in args.classes.split(",") if c.strip()] if args.classes else None
    return ImportOptions(
        fmt=args.format, ratios=ratios, seed=args.seed, classes=ClassMap(rename, set(args.drop), only),
        merge_variants=args.merge_variants, link=args.link,
        convert=ConvertOptions(grid=args.exif_grid, segments=args.polygons == "segments", difficult=args.difficult,
                               crowd=args.crowd))


def cmd_dataset_import(args: argparse.Namespace, workspace: Path | None) -> int:
    out = Output(args.json)
    try:
        options = options_from(args)
    except ValueError as exc:
        out.error(str(exc))
        return EXIT_USAGE
    line = ProgressLine(tty=None if not args.json else False)  # the one progress line (cli/progress_line.py)
    words = {"reading": tr("Reading"), "writing": tr("Writing")}

    def progress(phase: str, done: int, total: int) -> None:
        line.show(tr("{phase} {done}/{total} images", phase=words.get(phase, phase), done=done, total=total))

    source = Path(args.source).expanduser()
    try:
        with _terminate_cancels():
            if args.dry_run:
                report = analyse(source, options, progress, want_hash=False).preview_json()
            else:
                report = run_import(source, Path(args.out), options, progress).report
    except (ImportSourceError, ImportWriteError) as exc:
        line.clear()
        out.error(str(exc))
        return EXIT_USAGE
    except (ImportCancelled, KeyboardInterrupt):
        print(tr("\nCancelled; nothing was written under {path}.", path=args.out), file=sys.stderr)
        return EXIT_USAGE
    line.clear()
    code = EXIT_OK
    if not args.dry_run:
        check = validate_dataset(Path(report["data_yaml"]))
        counts = check.stats.get("findings", {})
        report["check"] = {"ok": check.ok, "errors": counts.get("error", 0), "warnings": counts.get("warning", 0)}
        code = EXIT_OK if check.ok else EXIT_FAILED
    out.result(report, lambda: import_text(shown_event(report), args.dry_run))  # names from files: escaped
    return code


@contextlib.contextmanager
def _terminate_cancels() -> Iterator[None]:
    """SIGTERM during the import cancels it like Ctrl+C, so the writer removes its temporary folder (a SIGKILL
    cannot be caught: the next import into that parent removes what it left, ``writer.clean_leftovers``)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGTERM"):
        yield
        return

    def cancel(signum: int, frame: object) -> None:
        raise ImportCancelled()

    before = signal.signal(signal.SIGTERM, cancel)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


_CHANGED = {
    "clipped": N_("{n} boxes cut to the image's edge"),
    "exif_rotated": N_("{n} images' boxes turned with their EXIF orientation"),
    "size_mismatch": N_("{n} annotations whose stated image size is not the image's (the image's is used)"),
    "background": N_("{n} images without objects (kept as backgrounds)"),
    "difficult": N_("{n} VOC objects marked difficult left out (--difficult keeps them)"),
}


def import_text(report: dict, dry_run: bool) -> str:
    text = io.StringIO()
    head = (tr("Found ({fmt}) in {source}: {images} images, {boxes} annotations.", fmt=report["format"],
               source=report["source"], images=report["images"], boxes=report["annotations"]) if dry_run else
            tr("Imported ({fmt}) {source} → {out}: {images} images, {boxes} boxes, {nc} classes.",
               fmt=report["format"], source=report["source"], out=report["out"], images=report["images"],
               boxes=report["boxes"], nc=len(report["names"])))
    print(head, file=text)
    classes = report["classes"] if dry_run else report["out_classes"]
    print(tr("  classes: {list}", list=", ".join(f"{name} {n}" for name, n in classes.items()) or "-"), file=text)
    for group in report["variants"]:
        print(tr("  spelled several ways: {names} (merge: --merge-variants or --rename)",
                 names=" / ".join(repr(n) for n in group)), file=text)
    if not dry_run:
        s = report["splits"]
        print(tr("  train {train} · val {val} · test {test}; {grouped} near-identical frames kept together, {kept} "
                 "images in the source's own split", train=s["train"], val=s["val"], test=s["test"],
                 grouped=report["grouped_images"], kept=report["kept_from_source"]), file=text)
        print(tr("  images: {linked} hard-linked, {copied} copied", linked=report["linked"], copied=report["copied"]),
              file=text)
    elif report["existing_split"]:
        print(tr("  the source's own split (kept): {split}", split=", ".join(
            f"{k} {v}" for k, v in report["existing_split"].items())), file=text)
    for key, words in _CHANGED.items():
        if report["counts"].get(key):
            print("  " + tr(words, n=report["counts"][key]), file=text)
    by_reason: dict[str, list[dict]] = defaultdict(list)
    for item in report["skipped"]:
        by_reason[item["reason"]].append(item)
    if by_reason:
        print(tr("Not converted ({n}):", n=len(report["skipped"])), file=text)
    for reason in sorted(by_reason, key=lambda r: REASONS.index(r) if r in REASONS else 99):
        items = by_reason[reason]
        print(f"  {reason} ({len(items)})", file=text)
        for item in items[:EXAMPLES_PER_REASON]:
            print(f"    {item['file']}: {item['message']}", file=text)
        if len(items) > EXAMPLES_PER_REASON:
            print(tr("    … and {n} more (--json lists them all)", n=len(items) - EXAMPLES_PER_REASON), file=text)
    notes: dict[str, list[dict]] = defaultdict(list)
    for item in report.get("notes", []):
        if item["reason"] not in _CHANGED:  # counted above
            notes[item["reason"]].append(item)
    if notes:
        print(tr("Notes (nothing kept was changed):"), file=text)
    for reason, items in notes.items():
        print(f"  {reason} ({len(items)})", file=text)
        for item in items[:EXAMPLES_PER_REASON]:
            print(f"    {item['file']}: {item['message']}", file=text)
    if not dry_run:
        check = report["check"]
        print(tr("Dataset check: OK ({w} warnings).", w=check["warnings"]) if check["ok"] else
              tr("Dataset check: {e} errors — yolostudio dataset check {path} lists them.", e=check["errors"],
                 path=report["data_yaml"]), file=text)
        print(tr("Train with: yolostudio train {path}", path=report["data_yaml"]), file=text)
    return text.getvalue().rstrip("\n")
