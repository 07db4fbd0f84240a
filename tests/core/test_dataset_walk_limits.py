"""Folder searches that would hang yolov5 are found, bounded and cancellable, and training is refused for them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from core.dataset.files import WalkLimits, blocking_findings
from core.dataset.scan import ScanCancelled


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
