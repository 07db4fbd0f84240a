"""One split listing for the jobs that need only the files (disk timing, export calibration, "Try it")."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.dataset.files import WalkLimits
from core.dataset.images import IMG_FORMATS
from core.dataset.split_images import folder_images, split_images
from core.environment.gather_disk import dataset_images, list_images


def test_the_suffix_table_is_yolov5s_own():
    dataloaders = pytest.importorskip("yolov5.utils.dataloaders")
    assert IMG_FORMATS == tuple(dataloaders.IMG_FORMATS)


def dataset(tmp_path: Path) -> Path:
    images = tmp_path / "d" / "images" / "val"
    images.mkdir(parents=True)
    for name in ("b.jpg", "a.png", "c.dng", "d.pfm", "e.mpo", "notes.txt", ".hidden.jpg", "f.gif"):
        (images / name).write_bytes(b"x")
    (tmp_path / "d" / "data.yaml").write_text("path: .\ntrain: images/val\nval: images/val\nnames: [a]\n")
    return tmp_path / "d" / "data.yaml"


def test_every_suffix_yolov5_reads_and_nothing_else(tmp_path):
    data = dataset(tmp_path)
    found = split_images(data)
    assert found.split == "val" and found.root == data.parent
    assert [p.name for p in found.images] == ["a.png", "b.jpg", "c.dng", "d.pfm", "e.mpo"]
    assert [p.name for p in list_images(data.parent)] == ["a.png", "b.jpg", "c.dng", "d.pfm", "e.mpo"]
    root, train = dataset_images(data)  # the disk timing's training images: the same listing
    assert root == data.parent and train == found.images
    assert len(split_images(data, limit=2).images) == 2


def test_a_list_file_a_missing_split_and_an_unreadable_yaml(tmp_path):
    data = dataset(tmp_path)
    (data.parent / "val.txt").write_text("./images/val/b.jpg\n")
    (data.parent / "list.yaml").write_text("path: .\ntrain: val.txt\nnames: [a]\n")
    listed = split_images(data.parent / "list.yaml")  # no val: the export falls back to train, as before
    assert listed.split == "train" and [p.name for p in listed.images] == ["b.jpg"]
    assert split_images(data.parent / "list.yaml", ("test",)).images == []
    missing = split_images(tmp_path / "missing.yaml")
    assert missing.images == [] and missing.root is None and "Cannot read the file" in missing.problem
    with pytest.raises(ValueError, match="Cannot read the file"):
        dataset_images(tmp_path / "missing.yaml")


def test_the_listing_is_bounded_by_the_dataset_readers_folder_limit(tmp_path):
    for n in range(6):
        (tmp_path / "deep" / f"f{n}").mkdir(parents=True)
        (tmp_path / "deep" / f"f{n}" / "x.jpg").write_bytes(b"x")
    assert len(folder_images(tmp_path / "deep")) == 6
    assert folder_images(tmp_path / "deep", limits=WalkLimits(max_folders=3)) == []  # past the bound: nothing
