"""Labels paired exactly as yolov5 7.0.14 pairs them (issue 21): linked split folders, list lines yolov5 reads
otherwise, ``x.TXT``, one label for two images, a label beside an unlisted image, a dangling image link."""

from __future__ import annotations

import os

import pytest

from core.dataset.files import blocking_findings
from core.dataset.fixes import plan_fix
from core.dataset.validate import validate_dataset
from tests.core.test_dataset_validate import BOX, build, codes, image_bytes

posix = pytest.mark.skipif(os.name != "posix", reason="symlinks and case-sensitive names")


@posix
def test_a_linked_split_folder_pairs_labels_beside_its_target(tmp_path):
    real = tmp_path / "real"
    build(real, train={"t1": BOX}, val={"v1": BOX})
    elsewhere = tmp_path / "view" / "images"
    elsewhere.mkdir(parents=True)
    (elsewhere / "train").symlink_to(real / "images" / "train", target_is_directory=True)
    (elsewhere / "val").symlink_to(real / "images" / "val", target_is_directory=True)
    yaml_file = tmp_path / "view" / "data.yaml"
    yaml_file.write_text(f"path: {tmp_path / 'view'}\ntrain: images/train\nval: images/val\nnames: [a, b]\n")
    report = validate_dataset(yaml_file)  # no labels/ under view/: yolov5 looks beside the target
    assert report.stats["splits"]["train"]["labelled"] == 1 and "label-missing" not in {f.code for f in report.findings}


@posix
def test_a_label_named_TXT_is_not_read_by_yolov5(tmp_path):
    yaml_file = build(tmp_path, train={"t1": BOX, "t2": None})
    (tmp_path / "labels" / "train" / "t2.TXT").write_text(BOX)
    found = codes(yaml_file)
    [hit] = found["label-name-case"]
    assert hit.file.endswith("t2.TXT") and "t2.txt" in hit.message and "background" in hit.message
    assert "label-orphan" not in found


def test_two_images_with_one_stem_share_one_label(tmp_path):
    yaml_file = build(tmp_path, train={"t1": BOX, "x.png": BOX})
    (tmp_path / "images" / "train" / "x.jpg").write_bytes(image_bytes("JPEG"))
    [hit] = codes(yaml_file)["label-shared"]
    assert hit.file.endswith("x.txt") and "x.jpg" in hit.message and "x.png" in hit.message
    assert "label-shared" not in codes(build(tmp_path / "good"))


def _listed(tmp_path, lines: str):
    yaml_file = build(tmp_path, train={"t1": BOX, "t2": BOX, "t3": BOX})
    (tmp_path / "train.txt").write_text(lines)
    yaml_file.write_text(f"path: {tmp_path}\ntrain: train.txt\nval: images/val\nnames: [a, b]\n")
    return yaml_file


def test_a_list_line_with_a_trailing_space_is_skipped_by_yolov5(tmp_path):
    yaml_file = _listed(tmp_path, "./images/train/t1.png \n./images/train/t2.png\n./images/train/t3.png\n")
    report = validate_dataset(yaml_file)
    [hit] = [f for f in report.findings if f.code == "list-line-misread"]
    assert hit.file.endswith("train.txt") and hit.line == 1 and "space" in hit.message
    assert report.stats["splits"]["train"]["images"] == 2  # as yolov5 will count them
    unlisted = [f for f in report.findings if f.code == "label-unlisted"]
    assert [f.file for f in unlisted] == [str(tmp_path / "labels" / "train" / "t1.txt")]
    assert plan_fix(unlisted[0]) is None  # no fix moves a label whose image is there


def test_the_last_line_trailing_space_is_stripped_by_yolov5_so_it_is_no_finding(tmp_path):
    yaml_file = _listed(tmp_path, "./images/train/t1.png\n./images/train/t2.png\n./images/train/t3.png   \n")
    report = validate_dataset(yaml_file)
    assert "list-line-misread" not in {f.code for f in report.findings}
    assert report.stats["splits"]["train"]["images"] == 3


def test_a_relative_list_line_is_read_from_the_start_folder_not_the_list_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path / "..")
    yaml_file = _listed(tmp_path, "./images/train/t1.png\nimages/train/t2.png\n./images/train/t3.png\n")
    report = validate_dataset(yaml_file)
    [hit] = [f for f in report.findings if f.code == "list-line-misread"]
    assert hit.line == 2 and hit.severity == "error" and "./images/train/t2.png" in hit.message
    assert report.stats["splits"]["train"]["images"] == 2
    monkeypatch.chdir(tmp_path)  # started from the list's folder, yolov5 does find it: only a warning
    report = validate_dataset(yaml_file)
    [hit] = [f for f in report.findings if f.code == "list-line-misread"]
    assert hit.severity == "warning" and report.stats["splits"]["train"]["images"] == 3


def test_a_label_without_any_image_is_still_an_orphan_with_its_fix(tmp_path):
    yaml_file = build(tmp_path)
    (tmp_path / "labels" / "train" / "gone.txt").write_text(BOX)
    [hit] = codes(yaml_file)["label-orphan"]
    assert plan_fix(hit) is not None


@posix
def test_a_dangling_image_link_is_a_missing_image_that_yolov5_drops_not_a_reason_to_refuse(tmp_path):
    yaml_file = build(tmp_path)
    (tmp_path / "images" / "train" / "gone.png").symlink_to(tmp_path / "nowhere.png")
    found = codes(yaml_file)
    [hit] = found["image-missing"]
    assert hit.file.endswith("gone.png") and "does not exist" in hit.message and "pipe" not in hit.message
    assert "image-not-a-file" not in found
    assert blocking_findings(yaml_file) == []  # the worker's guard does not refuse the run


def test_a_list_line_with_a_leading_space_is_not_a_dot_slash_path_to_yolov5(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    yaml_file = _listed(tmp_path, "./images/train/t1.png\n ./images/train/t2.png\n./images/train/t3.png\n")
    report = validate_dataset(yaml_file)
    [hit] = [f for f in report.findings if f.code == "list-line-misread"]
    assert hit.line == 2 and hit.severity == "error" and "starts with a space" in hit.message
    assert report.stats["splits"]["train"]["images"] == 2
