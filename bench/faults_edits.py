"""The fault campaign's issue-37 cases, a section per surface; registered in ``bench/faults.py`` (``--skip edits``,
``writer``, ``dataset-write``). Every count but the tries should be 0.

- edits: the Errors browser's fixes over a tampered evaluation store — an image path elsewhere, one that climbs out
  with ``..``, a label file or ``.bak`` linked outside — through ``core.evaluation.error_browse`` as the browser
  calls it; counted: files outside the dataset created or changed (sha256), refusals that do not name the path;
- writer: ``dataset import`` of a COCO file whose category name holds ESC/CR/LF, ``dataset check`` of such class
  names, ``runs`` with such a run folder, ``evaluate --list`` of a stored result with such a split — through the
  real CLI; counted: control characters reaching the terminal, lines forged by a newline in a value;
- dataset-write: import (hard links) → train → evaluate, with a JPEG named ``.png`` followed by bytes after its
  end marker (yolov5 "restored and saved" such a file in place); counted: source or dataset files changed.

The deterministic tests of the same cases: ``tests/core/test_evaluation_label_scope.py``,
``tests/gui/test_errors_browser.py``, ``tests/cli/test_terminal_escapes.py``,
``tests/cli/test_terminal_writer_rule.py``, ``tests/worker/test_compat_jpeg.py``,
``tests/e2e/test_dataset_untouched_e2e.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any, Callable

from core.evaluation.error_browse import RowBoxes, accept_edit, change_class_edit, delete_edit
from core.evaluation.label_scope import DatasetLabels, OutsideDataset

Measured = Callable[..., dict[str, Any]]
FORGED = "\x1b[2K\rall fine\nERROR forged"
_RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def _sums(root: Path) -> dict[str, str]:
    return {str(p): ("-> " + os.readlink(p)) if p.is_symlink() else hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_symlink() or p.is_file()}


def edits(data: Path, work: Path) -> dict[str, Any]:
    """Tampered stores against the label edits."""
    copy = work / "edits" / "ds"
    shutil.copytree(data.parent, copy)
    yaml_file = copy / data.name
    yaml_file.write_text(yaml_file.read_text().replace(str(data.parent), str(copy)))
    home = work / "edits" / "home"
    (home / "images").mkdir(parents=True)
    (home / "labels").mkdir()
    (home / "labels" / "x.txt").write_text("0 0.5 0.5 0.2 0.2\n")
    (home / ".bashrc").write_text("export PATH=/usr/bin\n")
    first = sorted((copy / "images" / "train").iterdir())[0]
    shutil.copy(first, home / "images" / f"x{first.suffix}")  # a real image, but not the dataset's
    own_label = copy / "labels" / "train" / (first.stem + ".txt")
    counts = {"edit cases": 0, "edit files outside changed": 0, "edit refusals without the path": 0,
              "edit cases not refused": 0}

    def link_label() -> str:
        own_label.unlink()
        own_label.symlink_to(home / "labels" / "x.txt")
        return str(first)

    def link_backup() -> str:
        if own_label.is_symlink():
            own_label.unlink()
            own_label.write_text("0 0.5 0.5 0.2 0.2\n")
        own_label.with_name(own_label.name + ".bak").symlink_to(home / ".bashrc")
        return str(first)

    cases: list[tuple[str, Callable[[], str]]] = [
        ("elsewhere", lambda: str(home / "images" / f"x{first.suffix}")),
        ("not there", lambda: str(home / "images" / "new.jpg")),
        ("dot-dot", lambda: str(copy / "images" / "train" / ".." / ".." / ".." / "home" / "images" /
                                f"x{first.suffix}")),
        ("label link", link_label), ("backup link", link_backup)]
    for _name, plant in cases:
        image = plant()
        before = _sums(home)
        boxes = RowBoxes(64, 64, [0, 25.6, 25.6, 38.4, 38.4], [25.6, 25.6, 38.4, 38.4, 0.9, 0])
        for edit in (lambda: accept_edit({"image": image}, boxes, DatasetLabels(yaml_file)),
                     lambda: delete_edit({"image": image}, boxes, DatasetLabels(yaml_file)),
                     lambda: change_class_edit({"image": image}, boxes, DatasetLabels(yaml_file), 1)):
            counts["edit cases"] += 1
            try:
                edit().apply()
                counts["edit cases not refused"] += 1
            except OutsideDataset as refused:
                counts["edit refusals without the path"] += image not in str(refused) and \
                    str(own_label) not in str(refused)
            except Exception as other:  # noqa: BLE001 - a campaign counts, it does not stop
                counts["edit cases not refused"] += 1
                print(f"  edit {_name}: {type(other).__name__}: {other}")
        counts["edit files outside changed"] += _sums(home) != before
    return counts


def _raw_controls(text: str) -> int:
    return len(_RAW.findall(text)) + sum(line.startswith("ERROR forged") for line in text.splitlines())


def writer(data: Path, work: Path, env: dict[str, str], measured: Measured, cli: Callable[..., list[str]],
           ws: Path) -> dict[str, Any]:
    """Escape sequences in values the CLI prints from files."""
    from tests.import_samples import picture, write_coco

    root = work / "writer"
    src = root / "coco"
    picture(src / "images" / "a.jpg", (64, 64), [("x", 4, 4, 30, 30)], seed=5)
    write_coco(src / "annotations.json", [{"id": 1, "file_name": "a.jpg", "width": 64, "height": 64}],
               [{"id": 1, "image_id": 1, "category_id": 7, "bbox": [4, 4, 26, 26]}],
               [{"id": 7, "name": "cat" + FORGED}])
    hostile_yaml = root / "check" / "data.yaml"
    shutil.copytree(data.parent, hostile_yaml.parent)
    hostile_yaml.write_text(f"path: {hostile_yaml.parent}\ntrain: images/train\nval: images/val\n"
                            "names: [\"cat\\e[2K\\r\\nERROR forged\", b, c]\n")
    (ws / "runs" / ("exp" + FORGED.replace("\n", "_"))).mkdir(parents=True, exist_ok=True)
    stored = ws / "runs" / "seed" / "evaluations" / "forged"
    stored.mkdir(parents=True, exist_ok=True)
    (stored / "result.json").write_text(json.dumps({"created": 1.0, "split": "val" + FORGED, "images": 1,
                                                    "metrics": {}, "store": "x" + FORGED}))
    counts = {"writer cases": 0, "writer raw controls": 0, "writer tracebacks": 0}
    for argv in (cli("dataset", "import", str(src), "--out", str(root / "imported")),
                 cli("dataset", "check", str(hostile_yaml)), cli("runs"), cli("evaluate", "seed", "--list")):
        result = measured(argv, env, timeout=120)
        counts["writer cases"] += 1
        counts["writer tracebacks"] += result["traceback"]
        raw = _raw_controls(result["out"] + result["err"])
        counts["writer raw controls"] += raw
        if raw:
            print(f"  writer {argv[3:5]}: {raw} raw: {(result['out'] + result['err'])[-300:]!r}")
    shutil.rmtree(stored, ignore_errors=True)
    return counts


def dataset_write(work: Path, env: dict[str, str], measured: Measured, cli: Callable[..., list[str]],
                  train_args: Callable[[Path, str, int], list[str]]) -> dict[str, Any]:
    """Import → train → evaluate over a JPEG yolov5 would have re-saved in place."""
    from tests.import_samples import write_voc

    src = work / "dataset-write" / "voc"
    for i in range(8):
        write_voc(src, f"{i:03d}.jpg", (64, 64), [("helmet", 4 + i, 6, 30 + i, 34)])
    trailer = write_voc(src, "trailer.png", (64, 64), [("helmet", 8, 8, 40, 40)], seed=91)
    trailer.write_bytes(trailer.read_bytes() + b"camera trailer")
    out = work / "dataset-write" / "dataset"
    counts = {"dataset-write steps": 0, "dataset-write failed steps": 0, "dataset-write files changed": 0}
    imported = measured(cli("dataset", "import", str(src), "--out", str(out)), env, timeout=300)
    before = {**_sums(src), **_sums(out)}
    for argv in ([] if imported["rc"] else [cli(*train_args(out / "data.yaml", "kept", 1)),
                                            cli("evaluate", "kept")]):
        result = measured(argv, env, timeout=900)
        counts["dataset-write steps"] += 1
        counts["dataset-write failed steps"] += result["rc"] != 0
    counts["dataset-write failed steps"] += imported["rc"] != 0
    after = {**_sums(src), **_sums(out)}
    counts["dataset-write files changed"] = sum(after.get(path) != digest for path, digest in before.items())
    return counts
