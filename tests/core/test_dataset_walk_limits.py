"""Folder searches that would hang yolov5 are found, bounded and cancellable, and training is refused for them."""

from __future__ import annotations

import os
from pathlib import Path, PureWindowsPath

import pytest

from core.dataset import files
from core.dataset.data_yaml import read_data_yaml
from core.dataset.files import WalkLimits, blocking_findings, list_split, system_tree, windows_system_tree
from core.dataset.scan import SEARCHING, ScanCancelled
from core.dataset.validate import validate_dataset


def _dataset(tmp_path: Path) -> Path:
    images = tmp_path / "d" / "images"
    images.mkdir(parents=True)
    (images / "a.jpg").write_bytes(b"\xff\xd8\xff")
    yaml_file = tmp_path / "d" / "data.yaml"
    yaml_file.write_text(f"path: {tmp_path / 'd'}\ntrain: images\nval: images\nnames: [a]\n")
    return yaml_file


def test_a_pipe_named_like_an_image_and_a_symlink_loop_block_training(tmp_path):
    yaml_file = _dataset(tmp_path)
    images = yaml_file.parent / "images"
    os.mkfifo(images / "b.jpg")
    (images / "loop").symlink_to(images, target_is_directory=True)
    codes = sorted({f.code for f in blocking_findings(yaml_file)})
    assert codes == ["image-not-a-file", "split-symlink-loop"]
    assert all(f.severity.value == "error" for f in blocking_findings(yaml_file))


def test_a_clean_dataset_has_nothing_blocking(tmp_path):
    assert blocking_findings(_dataset(tmp_path)) == []


def test_a_search_past_the_folder_bound_is_refused_with_the_limit_named(tmp_path):
    yaml_file = _dataset(tmp_path)
    for i in range(30):
        (yaml_file.parent / "images" / f"sub{i}").mkdir()
    found = blocking_findings(yaml_file, WalkLimits(max_folders=10))  # train, then val (one shared bound)
    assert {f.code for f in found} == {"split-too-large"} and "10 folders" in found[0].message


def test_a_long_search_reports_progress_and_stops_when_cancelled(tmp_path):
    yaml_file = _dataset(tmp_path)
    for i in range(450):
        (yaml_file.parent / "images" / f"sub{i}").mkdir()
    seen: list[int] = []
    blocking_findings(yaml_file, WalkLimits(progress=seen.append))
    assert seen[:2] == [200, 400]
    with pytest.raises(ScanCancelled):
        blocking_findings(yaml_file, WalkLimits(cancelled=lambda: True))


@pytest.mark.parametrize("folder, system", [
    ("C:\\", True), ("c:\\Windows", True), ("C:\\Program Files (x86)", True), ("C:\\ProgramData", True),
    ("C:\\Windows\\Temp\\set", False), ("C:\\data\\images", False), ("D:\\", False), ("E:\\Windows", False),
])
def test_windows_system_folders_are_the_system_drives_root_and_top_folders_only(folder, system):
    assert windows_system_tree(PureWindowsPath(folder), "C:") is system


@pytest.mark.parametrize("folder, system", [("/", True), ("/usr", True), ("/proc", True), ("/usr/share/data", False),
                                           ("/var/lib/images", False)])
def test_posix_system_folders(folder, system):
    assert system_tree(Path(folder)) is system


def test_a_split_that_is_the_system_root_is_refused_at_once_and_nothing_is_searched(tmp_path, monkeypatch):
    yaml_file = tmp_path / "data.yaml"
    yaml_file.write_text("path: /\ntrain: /\nval: /\nnames: [a]\n")
    monkeypatch.setattr(files, "_walk", lambda *a: pytest.fail("searched the system's folders"))
    report = validate_dataset(yaml_file)
    too_large = [f for f in report.findings if f.code == "split-too-large"]
    assert len(too_large) == 2 and "system folder" in too_large[0].message and too_large[0].line == 2
    assert not any(f.code == "label-orphan" for f in report.findings)  # the label tree of / is not searched
    assert blocking_findings(yaml_file)[0].code == "split-too-large"  # and training is refused


def test_a_search_cut_short_does_not_search_its_label_tree(tmp_path):
    yaml_file = _dataset(tmp_path)
    for i in range(12):
        (yaml_file.parent / "images" / f"sub{i}").mkdir()
    split = read_data_yaml(yaml_file).spec.splits["train"]
    cut = list_split(split, str(yaml_file), limits=WalkLimits(max_folders=10))
    whole = list_split(split, str(yaml_file))
    assert cut.recursive_label_dirs == set() and whole.recursive_label_dirs == {str(yaml_file.parent / "labels")}


def test_the_dataset_check_reports_the_folder_search_before_the_files(tmp_path):
    yaml_file = _dataset(tmp_path)
    for i in range(450):
        (yaml_file.parent / "images" / f"sub{i}").mkdir()
    calls: list[tuple[int, int]] = []
    validate_dataset(yaml_file, progress=lambda done, total: calls.append((done, total)))
    searching = [done for done, total in calls if total == SEARCHING]
    assert searching[:2] == [200, 400]
    assert calls.index((400, SEARCHING)) < min(i for i, (_, total) in enumerate(calls) if total > 0)
