""""New from folders" keeps a split the folder already has, and never invents classes from the highest id."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from core.dataset.split import class_count, plan_split, split_of_folder, write_split
from core.dataset.validate import validate_dataset
from tests.core.test_dataset_validate import BOX, image_bytes


def _image(folder: Path, name: str, label: str | None = BOX, *, labels_dir: Path | None = None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.png").write_bytes(image_bytes())
    if label is not None:
        target = labels_dir or folder
        target.mkdir(parents=True, exist_ok=True)
        (target / f"{name}.txt").write_text(label)


@pytest.mark.parametrize("relative, split", [
    ("images/train/a.png", "train"), ("images/val/a.png", "val"), ("valid/images/a.png", "val"),
    ("images/train2017/a.png", "train"), ("test/a.png", "test"), ("images/a.png", None),
    ("images/training_set/a.png", None), ("val_photos/a.png", None), ("x/val.png", None)])
def test_only_a_folder_name_says_the_split(tmp_path, relative, split):
    assert split_of_folder(str(tmp_path / relative), tmp_path) == split


def test_images_train_and_images_val_are_kept_as_they_are(tmp_path):
    """The walk of issue 25: 8 val images, of which a random re-split kept only 3 in val."""
    root = tmp_path / "ds"
    for i in range(12):
        _image(root / "images" / "train", f"t{i}", labels_dir=root / "labels" / "train")
    for i in range(8):
        _image(root / "images" / "val", f"v{i}", labels_dir=root / "labels" / "val")
    plan = plan_split(root, 0.5)
    assert [Path(p).name for p in plan.val] == [f"v{i}.png" for i in range(8)]
    assert len(plan.train) == 12 and plan.kept == {"train": 12, "val": 8} and plan.free == 0
    yaml_file = write_split(plan, names=["cat"])
    val_lines = (root / "val.txt").read_text().split()
    assert val_lines == [f"./images/val/v{i}.png" for i in range(8)]
    report = validate_dataset(yaml_file)
    assert report.ok, report.findings
    assert report.stats["splits"]["val"]["images"] == 8


def test_a_test_folder_gets_its_own_list_and_key(tmp_path):
    root = tmp_path / "ds"
    for split in ("train", "val", "test"):
        _image(root / "images" / split, f"{split}0", labels_dir=root / "labels" / split)
    yaml_file = write_split(plan_split(root), names=["cat"])
    assert "test: test.txt\n" in yaml_file.read_text()
    assert (root / "test.txt").read_text() == "./images/test/test0.png\n"


def test_a_train_folder_alone_is_split_by_the_ratio(tmp_path):
    root = tmp_path / "ds"
    for i in range(10):
        _image(root / "images" / "train", f"t{i}", labels_dir=root / "labels" / "train")
    plan = plan_split(root, 0.2)
    assert plan.kept == {} and plan.free == 10 and len(plan.val) == 2


@pytest.mark.parametrize("counts, n", [({}, 0), ({0: 3, 1: 2}, 2), ({0: 3, 1: 2, 5: 1}, 2), ({1: 4}, 0),
                                       ({0: 1, 2: 9}, 1)])
def test_class_count_is_the_ids_used_from_zero_without_a_gap(counts, n):
    assert class_count(Counter(counts)) == n


def test_one_stray_id_is_an_outlier_named_by_file_and_line_not_six_classes(tmp_path):
    root = tmp_path / "flat"
    for i in range(6):
        _image(root, f"a{i}", BOX if i % 2 else "1 .5 .5 .1 .1\n")
    _image(root, "odd", BOX + "5 .5 .5 .2 .2\n")
    plan = plan_split(root)
    assert plan.class_count == 2 and plan.suggested_names == ["class0", "class1"]
    assert [(Path(o.file).name, o.line, o.class_id) for o in plan.outliers] == [("odd.txt", 2, 5)]
    report = validate_dataset(write_split(plan, names=["cat", "dog"]))
    [wrong] = [f for f in report.findings if f.code == "label-class-range"]
    assert (Path(wrong.file).name, wrong.line) == ("odd.txt", 2)


def test_classes_txt_names_the_classes_and_ids_beyond_it_are_outliers(tmp_path):
    root = tmp_path / "flat"
    _image(root, "a", BOX + "1 .5 .5 .1 .1\n" + "2 .5 .5 .3 .3\n")
    (root / "classes.txt").write_text("cat\ndog\n")
    plan = plan_split(root)
    assert plan.names == ["cat", "dog"] and plan.class_count == 2
    assert [(o.line, o.class_id) for o in plan.outliers] == [(3, 2)]
