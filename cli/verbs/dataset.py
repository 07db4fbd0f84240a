"""``yolostudio dataset check DATA.yaml [--json]``: the dataset validator from a terminal;
``yolostudio dataset prepare DATA.yaml --imgsz N``: a copy resized to the training size (``core.dataset.prepare``);
``yolostudio dataset import SRC --out DIR``: another tool's export as a YOLO dataset (``cli/verbs/dataset_import.py``).

Human output groups findings by severity and code (long lists are cut to a few examples per code with
a count of the rest; ``--json`` always has them all). Progress goes to stderr, only on a terminal.
Exit codes: 0 no errors, 1 errors found, 2 usage error (file missing, cancelled by Ctrl+C).
"""

from __future__ import annotations

import argparse
import io
import sys
from collections import defaultdict
from pathlib import Path

from cli.common import EXIT_FAILED as EXIT_ERRORS
from cli.common import EXIT_OK, EXIT_USAGE, existing_file
from cli.progress_line import ProgressLine
from cli.registry import Verb, register
from cli.render import Output, shown
from cli.verbs.dataset_import import add_import_parser
from core.dataset.prepare import (FORMATS, PrepareCancelled, PrepareError, PrepareResult, default_out_dir,
                                  prepare_dataset)
from core.dataset.scan import SEARCHING, Eta, ScanCancelled
from core.dataset.validate import Report, validate_dataset
from core.findings import Finding
from core.i18n import tr
from core.workspace import app_cache_dir

EXAMPLES_PER_CODE = 5


def add_arguments(dataset: argparse.ArgumentParser) -> None:
    verbs = dataset.add_subparsers(dest="dataset_verb", metavar="ACTION", required=True)
    check = verbs.add_parser("check", help=tr("validate DATA.yaml and every image and label it names"))
    check.add_argument("data", help=tr("the dataset's data.yaml"))
    check.add_argument("--json", action="store_true", help=tr("print findings and statistics as JSON"))
    check.add_argument("--workers", type=int, default=None, help=tr("processes to use (default: all cores)"))
    check.add_argument("--no-cache", action="store_true", help=tr("read every file again"))
    check.set_defaults(handler=cmd_dataset_check)
    prepare = verbs.add_parser("prepare", help=tr("write a copy resized to the training size (faster loading), "
                                                  "with a data.yaml to train on"))
    prepare.add_argument("data", help=tr("the dataset's data.yaml"))
    prepare.add_argument("--imgsz", type=int, default=640, help=tr("the training image size: the copy's long "
                                                                   "side (default: 640)"))
    prepare.add_argument("--out", default=None, help=tr("where to write the copy (default: the workspace's cache)"))
    prepare.add_argument("--format", choices=FORMATS, default="jpg", help=tr("image format of the copy "
                                                                           "(default: jpg)"))
    prepare.add_argument("--workers", type=int, default=None, help=tr("threads to use (default: all cores)"))
    prepare.add_argument("--json", action="store_true", help=tr("print the result as JSON"))
    prepare.set_defaults(handler=cmd_dataset_prepare)
    add_import_parser(verbs)


def cmd_dataset_check(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    out = Output(args.json)
    path = existing_file(out, args.data)
    if path is None:
        return EXIT_USAGE
    line = ProgressLine(tty=False if args.json else None)
    eta = Eta()

    def progress(done: int, total: int) -> None:
        if total == SEARCHING:
            line.show(tr("Searching the splits' folders: {n:,} so far", n=done))
        elif total:
            left = eta.update(done, total)
            when = tr(", about {s:.0f} s left", s=left) if left is not None else ""
            line.show(tr("Checking {done}/{total} files{when}", done=done, total=total, when=when))

    cache_dir = None if args.no_cache else app_cache_dir(workspace) / "dataset-check"
    try:
        report = validate_dataset(path, progress=progress, cache_dir=cache_dir, workers=args.workers)
    except (ScanCancelled, KeyboardInterrupt):
        line.keep()
        print(tr("Cancelled; files checked so far are cached."), file=sys.stderr)
        return EXIT_USAGE
    line.clear()
    out.result(report.to_json(), lambda: report_text(report))
    return EXIT_OK if report.ok else EXIT_ERRORS


def cmd_dataset_prepare(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    out = Output(args.json)
    path = existing_file(out, args.data)
    if path is None:
        return EXIT_USAGE
    out_dir = Path(args.out) if args.out else default_out_dir(app_cache_dir(workspace), path, args.imgsz, args.format)
    line = ProgressLine(tty=False if args.json else None)
    eta = Eta()

    def progress(done: int, total: int) -> None:
        if total:
            left = eta.update(done, total)
            when = tr(", about {s:.0f} s left", s=left) if left is not None else ""
            line.show(tr("Preparing {done}/{total} images{when}", done=done, total=total, when=when))

    try:
        result = prepare_dataset(path, args.imgsz, out_dir, fmt=args.format, workers=args.workers, progress=progress)
    except PrepareError as exc:
        out.error(str(exc))
        return EXIT_USAGE
    except (PrepareCancelled, KeyboardInterrupt):
        line.keep()
        print(tr("Stopped; the images finished so far are kept and the next run resumes."), file=sys.stderr)
        return EXIT_USAGE
    line.clear()
    out.result(result.to_json(), lambda: prepare_text(result, args.imgsz))
    return EXIT_OK


def prepare_text(result: PrepareResult, imgsz: int) -> str:
    if result.up_to_date:
        head = tr("Up to date: {n} images at {imgsz} px, nothing to do.", n=result.images, imgsz=imgsz)
    else:
        head = tr("Prepared {written} of {n} images at {imgsz} px ({resumed} kept from an earlier run).",
                  written=result.written, n=result.images, imgsz=imgsz, resumed=result.resumed)
    lines = [head]
    for image, reason in result.failed[:EXAMPLES_PER_CODE]:
        lines.append(tr("  copied as it is (unreadable): {image}: {reason}", image=shown(image), reason=shown(reason)))
    lines.append(tr("Train on: {path}", path=shown(result.data_yaml)))
    return "\n".join(lines)


def _where(f: Finding) -> str:
    return f"{f.file}:{f.line}" if f.line else f.file


def report_text(report: Report) -> str:
    out = io.StringIO()
    stats = report.stats
    print(tr("Dataset {path}", path=shown(report.yaml_file)), file=out)
    print(tr("  {n} classes: {names}", n=len(report.names), names=", ".join(map(shown, report.names[:20]))
             + (" …" if len(report.names) > 20 else "")), file=out)
    for name, split in stats.get("splits", {}).items():
        print(tr("  {split}: {images} images, {instances} objects, {bg} backgrounds",
                 split=name, images=split["images"], instances=split["instances"], bg=split["backgrounds"]), file=out)
    scan = stats.get("scan", {})
    print(tr("  checked {files} files in {s} s ({cached} unchanged since the last check)",
             files=scan.get("files", 0), s=scan.get("seconds", 0), cached=scan.get("from_cache", 0)), file=out)
    groups: dict[tuple[str, str], list[Finding]] = defaultdict(list)
    for f in report.findings:
        groups[(f.severity, f.code)].append(f)
    words = {"error": tr("error"), "warning": tr("warning"), "info": tr("info")}
    for (severity, code), items in groups.items():
        print("", file=out)
        print(tr("{level} {code} ({n})", level=words.get(severity, severity).upper(), code=code, n=len(items)), file=out)
        for f in items[:EXAMPLES_PER_CODE]:
            print(f"  {shown(_where(f))}: {shown(f.message)}", file=out)
        if len(items) > EXAMPLES_PER_CODE:
            print(tr("  … and {n} more (--json lists them all)", n=len(items) - EXAMPLES_PER_CODE), file=out)
    counts = stats.get("findings", {})
    print("", file=out)
    if report.ok:
        print(tr("OK: no errors ({w} warnings, {i} notes).", w=counts.get("warning", 0), i=counts.get("info", 0)),
              file=out)
    else:
        print(tr("{e} errors, {w} warnings, {i} notes. Fix the errors before training.",
                 e=counts.get("error", 0), w=counts.get("warning", 0), i=counts.get("info", 0)), file=out)
    return out.getvalue().rstrip("\n")


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    """``dataset ACTION``: each action's parser names its handler."""
    return int(args.handler(args, workspace))


register(Verb("dataset", tr("check a dataset's data.yaml, images and labels"), add_arguments, run, order=70))
