"""Issue 23's label bounds: a label that is a pipe, a link to /dev/zero or a huge file is a finding, read
without hanging and without reading it whole — in the check, in prepare and in the folder split."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from core.dataset import label_file
from core.dataset.findings import TRAINING_EFFECT
from core.dataset.label_file import MAX_LABEL_BYTES, read_label_file
from core.dataset.prepare import prepare_dataset
from core.dataset.split import plan_split
from tests.core.test_dataset_validate import BOX, build, codes

posix = pytest.mark.skipif(os.name != "posix", reason="FIFOs and /dev/zero")


@posix
def test_a_fifo_label_is_no_label_to_yolov5_and_is_never_opened_for_a_blocking_read(tmp_path):
    yaml_file = build(tmp_path, train={"t1": BOX, "t2": None})
    os.mkfifo(tmp_path / "labels" / "train" / "t2.txt")  # no writer: a blocking open would wait forever
    found = codes(yaml_file)
    [hit] = found["label-not-a-file"]
    assert hit.file.endswith("t2.txt") and "background" in hit.message and hit.severity == "warning"
    assert "label-missing" not in found  # one finding for the one cause


@posix
def test_a_label_linked_to_dev_zero_is_not_read(tmp_path):
    yaml_file = build(tmp_path, train={"t1": BOX, "t2": None})
    (tmp_path / "labels" / "train" / "t2.txt").symlink_to("/dev/zero")
    assert read_label_file(str(tmp_path / "labels" / "train" / "t2.txt")).kind == "special"
    [hit] = codes(yaml_file)["label-not-a-file"]
    assert hit.file.endswith("t2.txt")


def test_a_label_over_the_bound_is_a_finding_and_is_not_read(tmp_path, monkeypatch):
    yaml_file = build(tmp_path, train={"t1": BOX, "t2": None})
    huge = tmp_path / "labels" / "train" / "t2.txt"
    with open(huge, "wb") as handle:  # sparse: 200 MB on the disk's books, nothing written
        handle.truncate(200_000_000)
    reads: list[int] = []
    real_read = os.read
    monkeypatch.setattr(label_file.os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
    [hit] = codes(yaml_file, workers=1)["label-too-large"]
    assert hit.file.endswith("t2.txt") and "200.0 MB" in hit.message and hit.severity == "error"
    assert sum(reads) <= MAX_LABEL_BYTES  # only the regular labels were read, never the huge one
    assert TRAINING_EFFECT["label-too-large"] == "abort"


def test_a_label_growing_past_the_bound_while_read_stops_at_the_bound(tmp_path):
    path = tmp_path / "x.txt"
    path.write_bytes(b"0 0.5 0.5 0.2 0.2\n" * 10)
    assert read_label_file(str(path), limit=50).kind == "too-large"
    assert read_label_file(str(path)).data == b"0 0.5 0.5 0.2 0.2\n" * 10
    assert read_label_file(str(tmp_path / "none.txt")).kind == "missing"


@posix
def test_an_unreadable_label_says_yolov5_drops_the_image(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    yaml_file = build(tmp_path, train={"t1": BOX, "t2": BOX})
    (tmp_path / "labels" / "train" / "t2.txt").chmod(0)
    [hit] = codes(yaml_file)["label-unreadable"]
    assert "drops" in hit.message


@posix
def test_prepare_and_the_folder_split_pass_a_fifo_and_dev_zero_label_by(tmp_path):
    yaml_file = build(tmp_path / "ds", train={"t1": BOX, "t2": None, "t3": None})
    labels = tmp_path / "ds" / "labels" / "train"
    os.mkfifo(labels / "t2.txt")
    (labels / "t3.txt").symlink_to("/dev/zero")
    result = prepare_dataset(yaml_file, 64, tmp_path / "out", workers=1)
    assert not result.failed
    out_labels = tmp_path / "out" / "labels" / "train"
    assert (out_labels / "t1.txt").read_text() == BOX
    assert not (out_labels / "t2.txt").exists() and not (out_labels / "t3.txt").exists()  # yolov5: no label
    plan = plan_split(tmp_path / "ds")
    assert len(plan.train) + len(plan.val) == 4  # three train images and the val image, none hung on
