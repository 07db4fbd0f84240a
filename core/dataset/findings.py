"""The dataset validator's codes: each one's default severity, and findings built from them.

A finding is the app's one record (``core.findings.Finding``), naming the file and, where it applies, the
line. Why a closed set of codes: the page filters and the CLI's ``--json`` consumers switch on them, and each
code has exactly one default severity so "exit 1 when there are errors" means the same everywhere.
"""

from __future__ import annotations

from typing import Any

from core.findings import Finding, Severity

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO
#: Bump when a per-file check's verdict or text changes: the scan cache is keyed by it, so results cached
#: under older rules are checked again instead of showing stale messages.
RULES_VERSION = 3

#: Every code the validator emits and its severity. Keep it the single list: tests walk it.
CODES: dict[str, str] = {
    # data.yaml itself
    "yaml-unreadable": ERROR,
    "yaml-syntax": ERROR,
    "yaml-too-large": ERROR,  # over a size, alias-expansion or nesting limit (core.dataset.yaml_doc)
    "yaml-encoding": ERROR,
    "yaml-not-mapping": ERROR,
    "yaml-duplicate-key": ERROR,
    "yaml-missing-key": ERROR,
    "names-invalid": ERROR,
    "names-nc-mismatch": ERROR,
    "names-duplicate": WARNING,
    "path-foreign": WARNING,  # an error when relative splits depend on it
    "path-relative": WARNING,
    "yaml-download": WARNING,  # yolov5's check_dataset would run it; the app never does (core.worker.code_guards)
    # splits
    "split-path-missing": ERROR,
    "split-empty": ERROR,
    "split-no-labels": ERROR,
    "split-symlink-loop": ERROR,  # yolov5's glob follows links: a loop spins its folder search
    "split-too-large": ERROR,  # a folder search past WalkLimits.max_folders (``train: /``)
    "image-not-a-file": ERROR,  # a FIFO/device named like an image: reading it blocks forever
    "image-missing": ERROR,
    # images
    "image-corrupt": ERROR,
    "image-unsupported-format": WARNING,
    "image-too-small": ERROR,
    "image-too-large": WARNING,
    "image-duplicate": WARNING,
    "train-val-leak": WARNING,
    # labels
    "label-orphan": WARNING,
    "label-unlisted": INFO,  # beside an image that exists but is in no split: yolov5 does not read it
    "label-name-case": WARNING,  # x.TXT beside x.jpg: yolov5 looks for x.txt only
    "label-shared": WARNING,  # x.jpg and x.png both pair with x.txt
    "label-not-a-file": WARNING,  # a pipe/device under a label's name: yolov5 finds no label (a background)
    "label-too-large": ERROR,  # over label_file.MAX_LABEL_BYTES: not read
    "label-unreadable": ERROR,  # open() fails (permissions): yolov5 drops the image as corrupt
    "list-line-misread": ERROR,  # a list line yolov5 reads as another path than the one meant
    "yolo-cache-stale": WARNING,  # yolov5's labels/*.cache would hand it old labels (core.dataset.yolo_cache)
    "yolo-cache-unsafe": WARNING,  # a labels/*.cache that is not only yolov5's data: loading it could run code
    "label-missing": INFO,
    "label-encoding": ERROR,
    "label-columns": ERROR,
    "label-value": ERROR,
    "label-class-range": ERROR,
    "label-not-normalized": ERROR,
    "label-nonpositive-size": WARNING,
    "label-nan": ERROR,
    "label-duplicate-row": WARNING,
    "label-mixed-formats": WARNING,
    "class-no-instances": WARNING,
}

#: What yolov5 7.0.14 does when it meets each error-severity code, so a run is never started to fail later.
#: ``abort``: training stops (``check_dataset`` refuses the data.yaml, a split has no images or no labels,
#: train.py's ``Label class … exceeds nc`` assertion, an infinite class id). ``drop``: ``verify_image_label``
#: ignores the image as corrupt and training goes on without it (the user may start anyway, knowingly).
ABORTS, DROPS = "abort", "drop"
TRAINING_EFFECT: dict[str, str] = {
    "yaml-unreadable": ABORTS, "yaml-syntax": ABORTS, "yaml-encoding": ABORTS, "yaml-not-mapping": ABORTS,
    "yaml-duplicate-key": ABORTS, "yaml-missing-key": ABORTS, "names-invalid": ABORTS,
    "names-nc-mismatch": ABORTS, "path-foreign": ABORTS, "split-path-missing": ABORTS, "split-empty": ABORTS,
    "split-no-labels": ABORTS, "label-class-range": ABORTS, "label-nan": ABORTS,
    # yolov5 would build a value of gigabytes, spin in a link loop, block on a pipe or search a whole disk
    "yaml-too-large": ABORTS, "split-symlink-loop": ABORTS, "split-too-large": ABORTS, "image-not-a-file": ABORTS,
    "image-missing": DROPS, "image-corrupt": DROPS, "image-too-small": DROPS, "label-encoding": DROPS,
    "label-columns": DROPS, "label-value": DROPS, "label-not-normalized": DROPS,
    "label-unreadable": DROPS, "list-line-misread": DROPS,
    # not read here, so not checked: a file this large is not one image's labels (label_file.MAX_LABEL_BYTES)
    "label-too-large": ABORTS,
}


def training_effect(f: Finding) -> str:
    """``abort``, ``drop`` or "" (training is unaffected) for one finding; only errors affect training."""
    return TRAINING_EFFECT.get(f.code, ABORTS) if f.severity is Severity.ERROR else ""


def finding(code: str, file: object, message: str, line: int = 0, column: int = 0,
            severity: str | None = None) -> Finding:
    """Build a finding with the code's default severity (``severity`` overrides it for the rare case)."""
    return Finding(code, Severity(severity or CODES[code]), message, file=str(file), line=int(line),
                   column=int(column))


def finding_json(f: Finding) -> dict[str, Any]:
    """The shape ``yolostudio dataset check --json`` has always printed."""
    return {"code": f.code, "severity": str(f.severity), "file": f.file, "line": f.line, "message": f.message,
            "column": f.column}


def sort_findings(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.severity.rank, f.file, f.line, f.code))
