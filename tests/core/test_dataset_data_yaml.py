"""One reader decides whether a data.yaml is trainable: the validator, the Train check and the run's pinned copy
agree on every case (a table), and the pinned copy roots the dataset where the validator looked."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from core.dataset.data_yaml import pin_dataset_root, read_data_yaml
from core.dataset.validate import validate_dataset
from core.training.config import MachineFacts, TrainConfig, validate_config

GOOD = "path: {root}\ntrain: images/train\nval: images/val\nnames: [a, b]\n"

#: (case, data.yaml text with {root}, trainable, the error code that refuses it)
CASES = [
    ("good", GOOD, True, None),
    ("names empty list", "path: {root}\ntrain: images/train\nval: images/val\nnames: []\n", False,
     "yaml-missing-key"),
    ("names empty map", "path: {root}\ntrain: images/train\nval: images/val\nnames: {{}}\n", False,
     "yaml-missing-key"),
    ("names null", "path: {root}\ntrain: images/train\nval: images/val\nnames:\n", False, "yaml-missing-key"),
    ("train empty", "path: {root}\ntrain: ''\nval: images/val\nnames: [a]\n", False, "yaml-missing-key"),
    ("val missing", "path: {root}\ntrain: images/train\nnames: [a]\n", False, "yaml-missing-key"),
    ("names with a gap", "path: {root}\ntrain: images/train\nval: images/val\nnames:\n  0: a\n  2: b\n", False,
     "names-invalid"),
    ("nc disagrees", "path: {root}\ntrain: images/train\nval: images/val\nnc: 3\nnames: [a, b]\n", False,
     "names-nc-mismatch"),
    ("duplicate key", "path: {root}\ntrain: images/train\nval: images/val\nnames: [a]\nnames: [a, b]\n", False,
     "yaml-duplicate-key"),
    ("syntax", "path: {root}\ntrain: images/train\nval: [images/val\nnames: [a]\n", False, "yaml-syntax"),
    ("not a mapping", "- a\n- b\n", False, "yaml-not-mapping"),
    ("Windows root, relative splits", "path: 'D:\\\\sets\\\\x'\ntrain: images/train\nval: images/val\nnames: [a]\n",
     False, "path-foreign"),
    ("Windows root, absolute splits", "path: 'D:\\\\sets'\ntrain: {root}/images/train\nval: {root}/images/val\n"
     "names: [a]\n", True, None),
    ("relative root", "path: .\ntrain: images/train\nval: images/val\nnames: [a, b]\n", True, None),
]


def dataset(root: Path, text: str) -> Path:
    for split in ("train", "val"):
        (root / "images" / split).mkdir(parents=True, exist_ok=True)
        (root / "labels" / split).mkdir(parents=True, exist_ok=True)
        (root / "images" / split / "a.jpg").write_bytes(b"")  # existence is enough for these checks
    path = root / "data.yaml"
    path.write_text(text.format(root=root), encoding="utf-8")
    return path


@pytest.mark.parametrize("case,text,trainable,code", CASES, ids=[c[0] for c in CASES])
def test_every_judge_agrees(tmp_path, case, text, trainable, code):
    path = dataset(tmp_path, text)
    judged = read_data_yaml(path)
    assert judged.trainable is trainable, judged.findings
    assert code is None or code in {f.code for f in judged.errors}

    train_check = validate_config(TrainConfig(data=str(path), device="cpu"), MachineFacts(0))
    data_errors = [p for p in train_check.errors if p.field == "data"]
    assert (not data_errors) is trainable
    assert len(data_errors) == len(judged.errors)
    for problem, found in zip(data_errors, judged.errors):  # each names the file (and line) and says why
        assert problem.message.startswith(str(path)) and found.message in problem.message

    report = validate_dataset(path)
    yaml_level = {f.code for f in report.findings if f.severity == "error" and f.file == str(path)}
    assert {f.code for f in judged.errors} <= yaml_level


def test_unreadable_file_is_a_finding_not_an_exception(tmp_path):
    judged = read_data_yaml(tmp_path / "gone.yaml")
    assert not judged.trainable and [f.code for f in judged.errors] == ["yaml-unreadable"]


def test_names_empty_was_the_disagreement(tmp_path):
    """The case the issue found: the Dataset page passed `names: []` while the Train page refused it."""
    path = dataset(tmp_path, "path: {root}\ntrain: images/train\nval: images/val\nnames: []\n")
    report = validate_dataset(path)
    assert not report.ok
    assert any("no classes" in f.message and f.severity == "error" for f in report.findings)


def test_relative_dataset_root_is_pinned_for_yolov5(tmp_path):
    """yolov5 would resolve 'path: .' against its install folder; the run trains from an absolute copy."""
    data_dir = tmp_path / "set"
    data_dir.mkdir()
    relative = data_dir / "data.yaml"
    original = "# mine\npath: .\ntrain: images/train\nval: images/val\nnames: [a]\ndownload: echo hi\n"
    relative.write_text(original)
    run = tmp_path / "run"
    run.mkdir()
    pinned = pin_dataset_root(relative, run)
    assert pinned == run / "data.yaml"
    loaded = yaml.safe_load(pinned.read_text())
    assert loaded["path"] == str(data_dir.resolve()) and loaded["train"] == "images/train"
    assert loaded["path"] == str(read_data_yaml(relative).spec.root)  # where the validator looked
    assert loaded["download"] == "echo hi" and loaded["names"] == ["a"]
    assert relative.read_text() == original  # the user's file is untouched

    absolute = data_dir / "abs.yaml"
    absolute.write_text(f"path: {data_dir}\ntrain: images/train\nval: images/val\nnames: [a]\n")
    assert pin_dataset_root(absolute, run) == absolute
    no_root_abs_splits = data_dir / "abs2.yaml"
    no_root_abs_splits.write_text(f"train: {data_dir}/images/train\nval: {data_dir}/images/val\nnames: [a]\n")
    assert pin_dataset_root(no_root_abs_splits, run) == no_root_abs_splits


def test_home_relative_root_is_pinned_expanded(tmp_path, monkeypatch):
    """yolov5 does not expand '~' (it would look under its install folder); the validator does."""
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "ds").mkdir()
    data = tmp_path / "ds" / "data.yaml"
    data.write_text("path: ~/ds\ntrain: images/train\nval: images/val\nnames: [a]\n")
    run = tmp_path / "run"
    run.mkdir()
    pinned = pin_dataset_root(data, run)
    assert yaml.safe_load(pinned.read_text())["path"] == str(tmp_path / "ds")


def test_foreign_root_with_absolute_splits_is_left_alone(tmp_path):
    """'path' from Windows is unused when every split is absolute: nothing to pin, and it trains."""
    path = dataset(tmp_path, CASES[-2][1])
    run = tmp_path / "run"
    run.mkdir()
    assert read_data_yaml(path).trainable
    assert pin_dataset_root(path, run) == path
