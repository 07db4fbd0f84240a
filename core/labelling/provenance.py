"""Where each label line came from — the model, a person's yes, a person's hand — in one sidecar per dataset.

The sidecar is ``<dataset root>/label_provenance.json`` (the root: the data.yaml's ``path:``, else its folder;
``sidecar_path``). yolov5 never reads it: it lists a split's images by their ten suffixes (``IMG_FORMATS``) and
derives each label path from an image (``img2label_paths``), so a ``.json`` is neither, wherever it lies — and
the dataset check follows the same rules (``core.dataset.files``), reporting only ``.txt`` files without an
image. ``tests/worker/test_label_provenance_yolov5.py`` holds both claims to the installed yolov5's own loader
and to the app's check.

Format (version 1)::

    {"version": 1, "about": "...",
     "labels": {"labels/train/a.txt": [{"row": "0 0.5 0.5 0.2 0.1", "origin": "model-proposed",
                                        "conf": 0.81, "run": "exp3", "queue": "exp3-new", "t": 1733360000.0}]}}

Keys are label paths relative to the root (``/``-separated). A line is matched by its text (``row``), not its
number: a line edited by hand afterwards is no longer matched and so has no recorded origin — the sidecar
never claims a line the model proposed after a person changed it. The file is rewritten whole, atomically,
with a ``.bak`` before its first overwrite (``core.atomic``).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.atomic import atomic_write_text
from core.i18n import N_
from core.labelling.records import ACCEPTED, EDITED, PERSON, Box

SIDECAR_NAME = "label_provenance.json"
SIDECAR_VERSION = 1
MODEL_PROPOSED = "model-proposed"  # the model's box, accepted without a person looking at it
PERSON_CONFIRMED = "person-confirmed"  # a person accepted the model's box unchanged
PERSON_DRAWN = "person-drawn"  # a person drew the box, or moved/resized/re-classed the model's
ORIGINS = (MODEL_PROPOSED, PERSON_CONFIRMED, PERSON_DRAWN)
ORIGIN_WORDS = {MODEL_PROPOSED: N_("proposed by the model"), PERSON_CONFIRMED: N_("confirmed by a person"),
                PERSON_DRAWN: N_("drawn by a person")}
_ABOUT = ("Where each label line came from (YOLO Studio). yolov5 and the dataset check do not read this file; "
          "a line edited since no longer matches its record.")


@dataclass(frozen=True)
class LineOrigin:
    """One label line's record."""

    row: str
    origin: str
    conf: float | None = None
    run: str = ""
    queue: str = ""
    t: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v not in (None, "")}


def origin_of_box(box: Box) -> str:
    """The provenance of a box that goes into a dataset (``records.goes_in``)."""
    if box.origin == PERSON or box.state == EDITED:
        return PERSON_DRAWN
    return PERSON_CONFIRMED if box.state == ACCEPTED else MODEL_PROPOSED


def sidecar_path(dataset_root: Path) -> Path:
    return Path(dataset_root) / SIDECAR_NAME


def _key(dataset_root: Path, label: Path) -> str:
    return Path(os.path.relpath(Path(label).absolute(), Path(dataset_root).absolute())).as_posix()


def read_sidecar(dataset_root: Path) -> dict[str, list[LineOrigin]]:
    """{label key: its lines' records}; a missing or unreadable sidecar is {} (provenance is a note, never a
    reason to refuse a dataset)."""
    try:
        doc = json.loads(sidecar_path(dataset_root).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    labels = doc.get("labels") if isinstance(doc, dict) else None
    found: dict[str, list[LineOrigin]] = {}
    for key, rows in (labels or {}).items() if isinstance(labels, dict) else ():
        kept = []
        for row in rows if isinstance(rows, list) else ():
            if isinstance(row, dict) and isinstance(row.get("row"), str) and row.get("origin") in ORIGINS:
                conf = row.get("conf")
                kept.append(LineOrigin(row["row"], row["origin"], float(conf) if isinstance(conf, (int, float))
                                       else None, str(row.get("run", "")), str(row.get("queue", "")),
                                       float(row.get("t", 0.0) or 0.0)))
        found[str(key)] = kept
    return found


def record_label(dataset_root: Path, label: Path, lines: list[LineOrigin]) -> None:
    """Set the records of ``label``'s lines (replacing what the sidecar said of that file)."""
    record_labels(dataset_root, {Path(label): lines})


def record_labels(dataset_root: Path, labels: dict[Path, list[LineOrigin]]) -> None:
    """Set the records of several label files in one rewrite of the sidecar."""
    if not labels:
        return
    current = read_sidecar(dataset_root)
    for label, lines in labels.items():
        current[_key(dataset_root, label)] = list(lines)
    doc = {"version": SIDECAR_VERSION, "about": _ABOUT,
           "labels": {k: [line.to_dict() for line in v] for k, v in sorted(current.items()) if v}}
    atomic_write_text(sidecar_path(dataset_root), json.dumps(doc, indent=1, ensure_ascii=False) + "\n")


def origins_of(dataset_root: Path, label: Path) -> list[str | None]:
    """The origin of each line of ``label`` as it is now (None: no record matches its text)."""
    try:
        rows = [r.strip() for r in Path(label).read_text(encoding="utf-8").splitlines()]
    except (OSError, UnicodeDecodeError):
        return []
    records = read_sidecar(dataset_root).get(_key(dataset_root, label), [])
    by_row: dict[str, list[str]] = {}
    for record in records:
        by_row.setdefault(record.row.strip(), []).append(record.origin)
    found: list[str | None] = []
    for row in rows:
        queue = by_row.get(row)
        found.append(queue.pop(0) if queue else None)
    return found
