"""More sources for the import: YOLO folders (LabelImg's classes.txt, a Roboflow-style data.yaml with its own
splits), VOC's ImageSets split, a COCO file given directly; and the box geometry as a property."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.dataset.importers.detect import detect_format
from core.dataset.importers.geometry import orient_box, oriented_size
from core.dataset.importers.plan import ImportOptions, run_import
from tests.import_samples import picture, write_coco, write_voc


def test_labelimg_yolo_mode_with_classes_txt(tmp_path):
    src = tmp_path / "src"
    picture(src / "a.jpg", (100, 50), [], seed=1)
    (src / "a.txt").write_text("1 0.5 0.5 0.2 0.4\n0 0.1 0.1 0.1 0.1\n", encoding="utf-8")
    (src / "classes.txt").write_text("dog\ncat\n", encoding="utf-8")
    assert detect_format(src) == "yolo"
    result = run_import(src, tmp_path / "out", ImportOptions(ratios=(1, 0, 0)))
    assert result.report["names"] == ["dog", "cat"]
    rows = (result.out / "labels" / "train" / "a.txt").read_text().split("\n")
    assert rows[0].split() == ["1", "0.500000", "0.500000", "0.200000", "0.400000"]
    assert rows[1].split() == ["0", "0.100000", "0.100000", "0.100000", "0.100000"]


def test_roboflow_style_yolo_export_keeps_its_splits(tmp_path):
    src = tmp_path / "rf"
    for split, names in (("train", ["a", "b", "c"]), ("valid", ["d"])):
        for i, name in enumerate(names):
            picture(src / split / "images" / f"{name}.jpg", (64, 64), [], seed=10 + ord(name))  # four different pictures
            (src / split / "labels").mkdir(parents=True, exist_ok=True)
            (src / split / "labels" / f"{name}.txt").write_text("0 0.5 0.5 0.5 0.5\n", encoding="utf-8")
    (src / "data.yaml").write_text(f"path: {src}\ntrain: train/images\nval: valid/images\nnc: 1\nnames: ['hat']\n",
                                   encoding="utf-8")
    result = run_import(src, tmp_path / "out", ImportOptions())
    assert result.report["splits"] == {"train": 3, "val": 1, "test": 0}
    assert result.report["kept_from_source"] == 4 and result.report["names"] == ["hat"]


def test_voc_imagesets_split_is_kept(tmp_path):
    src = tmp_path / "VOC"
    for i in range(4):
        write_voc(src / "JPEGImages", f"{i:06d}.jpg", (64, 64), [("cat", 4, 4, 40, 40)])
    (src / "Annotations").mkdir()
    for xml in (src / "JPEGImages").glob("*.xml"):
        xml.rename(src / "Annotations" / xml.name)
    (src / "ImageSets" / "Main").mkdir(parents=True)
    (src / "ImageSets" / "Main" / "train.txt").write_text("000000\n000001\n000002\n")
    (src / "ImageSets" / "Main" / "val.txt").write_text("000003\n")
    result = run_import(src, tmp_path / "out", ImportOptions(ratios=(0.5, 0.5, 0)))
    assert result.report["splits"] == {"train": 3, "val": 1, "test": 0}
    assert (result.out / "images" / "val" / "000003.jpg").is_file()


def test_a_coco_file_given_directly(tmp_path):
    src = tmp_path / "export"
    picture(src / "pics" / "x 1.jpg", (50, 40), [], seed=2)
    coco = write_coco(src / "result.json", [{"id": 5, "file_name": "pics\\x 1.jpg", "width": 50, "height": 40}],
                      [{"id": 1, "image_id": 5, "category_id": 2, "bbox": [5, 4, 20, 16]}], [{"id": 2, "name": "box"}])
    assert detect_format(coco) == "coco"
    result = run_import(coco, tmp_path / "out", ImportOptions(ratios=(1, 0, 0)))
    text = (result.out / "labels" / "train" / "x 1.txt").read_text().split()
    assert [float(v) for v in text] == [0, 0.3, 0.3, 0.4, 0.4]


def test_a_coco_file_in_annotations_finds_the_images_beside_that_folder(tmp_path):
    src = tmp_path / "cvat"
    picture(src / "images" / "a.jpg", (40, 40), [], seed=3)
    coco = write_coco(src / "annotations" / "instances_default.json",
                      [{"id": 1, "file_name": "a.jpg", "width": 40, "height": 40}],
                      [{"id": 1, "image_id": 1, "category_id": 1, "bbox": [0, 0, 20, 20]}], [{"id": 1, "name": "x"}])
    result = run_import(coco, tmp_path / "out", ImportOptions(ratios=(1, 0, 0)))
    assert result.report["images"] == 1 and result.report["skipped"] == []


@given(st.integers(1, 8), st.integers(2, 400), st.integers(2, 400), st.data())
def test_an_oriented_box_keeps_its_size_and_stays_on_the_picture(orientation, w, h, data):
    x0 = data.draw(st.floats(0, w - 1))
    y0 = data.draw(st.floats(0, h - 1))
    x1 = data.draw(st.floats(x0, w))
    y1 = data.draw(st.floats(y0, h))
    ow, oh = oriented_size(w, h, orientation)
    a, b, c, d = orient_box((x0, y0, x1, y1), w, h, orientation)
    assert 0 <= a <= c <= ow and 0 <= b <= d <= oh
    sides = sorted([x1 - x0, y1 - y0])
    assert sorted([c - a, d - b]) == pytest.approx(sides, abs=1e-9)
