"""The dataset version a run records: a fingerprint that moves with any image or label change, and what changed
since the run it was fine-tuned from, in words in both languages."""

from __future__ import annotations

import json
from pathlib import Path

from core import i18n
from core.run.dataset_version import (FILES_FILE, change_words, dataset_change_line, dataset_manifest, fingerprint,
                                      read_version, record_dataset_version)
from core.runs.store import RunInfo
from tests.core.test_dataset_validate import build, image_bytes


def test_the_fingerprint_follows_images_and_label_content(tmp_path: Path) -> None:
    data = build(tmp_path)
    first = dataset_manifest(data)
    assert sorted(first["images"]) == ["images/train/t1.png", "images/train/t2.png", "images/val/v1.png"]
    assert sorted(first["labels"]) == ["labels/train/t1.txt", "labels/train/t2.txt", "labels/val/v1.txt"]
    label = tmp_path / "labels" / "train" / "t1.txt"
    text = label.read_text()
    label.write_text(text.replace("0 ", "1 ", 1))  # same size, another class
    assert fingerprint(dataset_manifest(data)) != fingerprint(first)
    label.write_text(text)
    assert fingerprint(dataset_manifest(data)) == fingerprint(first)


def test_changes_since_the_parent_run(tmp_path: Path) -> None:
    data = build(tmp_path / "data")
    parent, child = tmp_path / "runs" / "exp3", tmp_path / "runs" / "exp3-ft"
    parent.mkdir(parents=True)
    child.mkdir()
    record = record_dataset_version(parent, data)
    assert "since" not in record and dataset_change_line(parent) is None
    assert json.loads((parent / FILES_FILE).read_text())["labels"]
    root = data.parent
    for name in ("n1", "n2"):
        (root / "images" / "train" / "q").mkdir(exist_ok=True)
        (root / "images" / "train" / "q" / f"{name}.png").write_bytes(image_bytes())
    (root / "labels" / "train" / "t2.txt").write_text("0 0.4 0.4 0.1 0.1\n")
    (root / "images" / "val" / "v1.png").unlink()
    record_dataset_version(child, data, parent)
    assert read_version(child)["since"] == {"run": "exp3", "added_images": 2, "removed_images": 1,
                                            "edited_labels": 1}
    assert dataset_change_line(child) == "+2 images, −1 image, 1 label edited since exp3"
    assert RunInfo("exp3-ft", str(child), "completed", dataset_version=read_version(child)).dataset_change == \
        dataset_change_line(child)
    i18n.set_language("zh_CN")
    try:
        words = dataset_change_line(child)
    finally:
        i18n.set_catalogue(None)
    assert words is not None and "exp3" in words and "images" not in words and "张" in words


def test_the_same_dataset_and_an_unknown_parent(tmp_path: Path) -> None:
    data = build(tmp_path / "data")
    parent, child, orphan = (tmp_path / name for name in ("a", "b", "c"))
    for folder in (parent, child, orphan):
        folder.mkdir()
    record_dataset_version(parent, data)
    record_dataset_version(child, data, parent)
    assert dataset_change_line(child) == "the same dataset as a"
    record_dataset_version(orphan, data, tmp_path / "never-recorded")
    assert "unknown" in (dataset_change_line(orphan) or "")
    assert change_words(None) is None and change_words({"since": "x"}) is None
