"""The dataset version a run trained on: a fingerprint of its images and labels, and what changed since the run
it was fine-tuned from ("+8 images, 3 labels edited since exp3").

Why: the labelling loop (auto-label, review, accept, ``train --from``) changes a dataset between runs; comparing
two runs' metrics means little without knowing what they trained on. The training worker records it before
yolov5 starts (``record_dataset_version``, rank 0, a new run only: a resume trains on the version recorded), in
two files of the run folder:

- ``dataset_files.json``: every image of every split (path relative to the dataset's root → ``[size,
  mtime_ns]``: hashing gigabytes of pictures at each start would cost minutes) and every label file (path →
  SHA-1 of its bytes: a label edit that keeps the size is still seen);
- ``dataset_version.json``: the small record a listing reads — ``fingerprint`` (SHA-256 over both maps),
  ``images``, ``labels``, and, for a run with a parent (``spec.from_run``), ``since`` {``run``,
  ``added_images``, ``removed_images``, ``edited_labels``} computed against the parent's ``dataset_files.json``.

``dataset_change_line(run_dir)`` is the sentence the Runs page and ``yolostudio runs`` show.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from core.atomic import atomic_write_text
from core.dataset.data_yaml import read_data_yaml
from core.dataset.files import label_path_for, list_split
from core.i18n import tr, tr_n

VERSION_FILE = "dataset_version.json"
FILES_FILE = "dataset_files.json"


def dataset_manifest(data_yaml: Path) -> dict[str, Any]:
    """``{"root", "images": {rel: [size, mtime_ns]}, "labels": {rel: sha1}}`` of every split of ``data_yaml``."""
    judged = read_data_yaml(Path(data_yaml))
    if judged.spec is None:
        raise ValueError(judged.errors[0].message if judged.errors else str(data_yaml))
    root = judged.spec.root
    images: dict[str, list[int]] = {}
    labels: dict[str, str] = {}
    for split in judged.spec.splits.values():
        for image in list_split(split, str(judged.path)).images:
            rel = _rel(image, root)
            if rel in images:
                continue
            try:
                st = os.stat(image)
            except OSError:
                continue
            images[rel] = [st.st_size, st.st_mtime_ns]
            label = label_path_for(image)
            try:
                labels[_rel(label, root)] = hashlib.sha1(Path(label).read_bytes()).hexdigest()
            except OSError:
                pass  # no label: an image without objects
    return {"root": str(root), "images": images, "labels": labels}


def _rel(path: str, root: Path) -> str:
    return Path(os.path.relpath(path, root)).as_posix()


def fingerprint(manifest: dict[str, Any]) -> str:
    text = json.dumps([sorted(manifest["images"].items()), sorted(manifest["labels"].items())],
                      separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def changes(old: dict[str, Any], new: dict[str, Any]) -> dict[str, int]:
    """Images added and removed, and label files changed (edited, added or removed) of images in both."""
    before, after = set(old["images"]), set(new["images"])
    both = before & after
    old_labels, new_labels = old["labels"], new["labels"]
    edited = 0
    for image in both:
        label = label_path_for(os.sep + image.replace("/", os.sep)).replace(os.sep, "/")[1:]
        if old_labels.get(label) != new_labels.get(label):
            edited += 1
    return {"added_images": len(after - before), "removed_images": len(before - after), "edited_labels": edited}


def record_dataset_version(run_dir: Path, data_yaml: Path, parent: Path | None = None) -> dict[str, Any]:
    """Write the run's two files (atomically); returns the small record."""
    manifest = dataset_manifest(data_yaml)
    record: dict[str, Any] = {"fingerprint": fingerprint(manifest), "images": len(manifest["images"]),
                              "labels": len(manifest["labels"]), "data": str(data_yaml)}
    if parent is not None:
        try:
            old = json.loads((Path(parent) / FILES_FILE).read_text(encoding="utf-8"))
            record["since"] = {"run": Path(parent).name, **changes(old, manifest)}
        except (OSError, ValueError, KeyError, TypeError):
            record["since"] = {"run": Path(parent).name, "unknown": True}  # the parent recorded no version
    atomic_write_text(Path(run_dir) / FILES_FILE, json.dumps(manifest, separators=(",", ":")) + "\n", backup=False)
    atomic_write_text(Path(run_dir) / VERSION_FILE, json.dumps(record, indent=1) + "\n", backup=False)
    return record


def read_version(run_dir: Path) -> dict[str, Any] | None:
    """The run's ``dataset_version.json`` (None: not recorded — a run from before, or a failed write)."""
    try:
        doc = json.loads((Path(run_dir) / VERSION_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) and isinstance(doc.get("fingerprint"), str) else None


def change_words(record: dict[str, Any] | None) -> str | None:
    """"+8 images, 3 labels edited since exp3" for a run with a parent; None for one without."""
    since = (record or {}).get("since")
    if not isinstance(since, dict) or not isinstance(since.get("run"), str):
        return None
    if since.get("unknown"):
        return tr("dataset changes since {run} unknown (it recorded no dataset version)", run=since["run"])
    counts = {k: since.get(k) if isinstance(since.get(k), int) else 0
              for k in ("added_images", "removed_images", "edited_labels")}
    parts = []
    if counts["added_images"]:
        parts.append(tr_n("+{n} image", "+{n} images", counts["added_images"]))
    if counts["removed_images"]:
        parts.append(tr_n("−{n} image", "−{n} images", counts["removed_images"]))
    if counts["edited_labels"]:
        parts.append(tr_n("{n} label edited", "{n} labels edited", counts["edited_labels"]))
    if not parts:
        return tr("the same dataset as {run}", run=since["run"])
    return tr("{changes} since {run}", changes=", ".join(parts), run=since["run"])


def dataset_change_line(run_dir: Path) -> str | None:
    """The line the Runs page shows for a run fine-tuned from another (None when it has none)."""
    return change_words(read_version(run_dir))
