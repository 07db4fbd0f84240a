"""Issue 31: LabelImg, X-AnyLabeling, make-sense and Roboflow exports as their exporters write them
(``tests/fixtures/export_corpus_tools.py`` cites each one's source) import with every picture, box, class name
and split, nothing dropped or doubled."""

from __future__ import annotations

from core.dataset.importers.plan import ImportOptions, analyse, run_import
from tests.fixtures.export_corpus_tools import (labelimg_voc, labelimg_yolo, makesense_voc, makesense_yolo,
                                               roboflow_coco, roboflow_voc, roboflow_yolov5, x_anylabeling,
                                               x_anylabeling_coco, x_anylabeling_voc, x_anylabeling_yolo_obb)
from tests.import_samples import picture

BOXES = [("bolt", 4, 4, 30, 30), ("nut", 34, 10, 60, 40)]
ALL = ImportOptions(ratios=(1, 0, 0))


def _rows(out) -> list[list[float]]:
    return sorted([float(v) for v in line.split()] for p in out.glob("labels/*/*.txt")
                  for line in p.read_text().splitlines())


def _splits(out) -> dict[str, str]:
    """Source stem (before Roboflow's ``_jpg.rf.<hash>``) → the split folder it was written to."""
    return {p.name.split("_jpg.rf.")[0]: p.parent.name for p in out.glob("images/*/*")}


def _boxes_at(rows, index: int) -> list[tuple[float, ...]]:
    return sorted(tuple(round(v, 4) for v in row[1:]) for row in rows if row[0] == index)


def test_labelimg_voc_beside_its_pictures_with_a_path_from_another_machine(tmp_path):
    src = labelimg_voc(tmp_path / "pics", ["a", "b"], BOXES)
    result = run_import(src, tmp_path / "out", ALL)
    report = result.report
    assert (report["format"], report["images"], report["boxes"], report["backgrounds"]) == ("voc", 2, 4, 0)
    assert report["names"] == ["bolt", "nut"] and report["skipped"] == []
    assert _boxes_at(_rows(result.out), 0) == [(round(17 / 64, 4), round(17 / 48, 4), round(26 / 64, 4),
                                                round(26 / 48, 4))] * 2


def test_labelimg_yolo_uses_classes_txt_for_the_names_and_their_order(tmp_path):
    """Indices point into classes.txt (predefined classes first); unused ones are declared, not invented."""
    src = labelimg_yolo(tmp_path / "li", ["a", "b"], BOXES, predefined=["washer", "nut"])
    assert (src / "classes.txt").read_text() == "washer\nnut\nbolt\n"
    result = run_import(src, tmp_path / "out", ALL)
    report = result.report
    assert (report["format"], report["images"], report["boxes"], report["skipped"]) == ("yolo", 2, 4, [])
    assert report["out_classes"] == {"nut": 2, "bolt": 2}  # a box of class 2 is "bolt", not "class2"
    nut = report["names"].index("nut")
    expected = (round(47 / 64, 4), round(25 / 48, 4), round(26 / 64, 4), round(30 / 48, 4))
    assert _boxes_at(_rows(result.out), nut) == [expected] * 2


def test_x_anylabeling_four_corner_rectangles_and_rotated_boxes_are_boxed(tmp_path):
    src = x_anylabeling(tmp_path / "xa", ["a", "b"], BOXES)
    result = run_import(src, tmp_path / "out", ALL)
    report = result.report
    assert (report["format"], report["images"], report["skipped"]) == ("labelme", 2, [])
    assert report["boxes"] == 6 and report["out_classes"] == {"bolt": 4, "nut": 2}  # 2 rectangles + 1 rotation each
    bolt = report["names"].index("bolt")
    # the four-corner rectangle keeps its height, and the diamond inside it boxes to the same extent
    assert _boxes_at(_rows(result.out), bolt) == [(round(17 / 64, 4), round(17 / 48, 4), round(26 / 64, 4),
                                                   round(26 / 48, 4))] * 4


def test_x_anylabeling_voc_objects_without_a_box_are_reported_and_the_rest_imported(tmp_path):
    """Its rectangle-mode VOC writes an ``<object>`` with no ``<bndbox>`` for a polygon and a rotation."""
    src = x_anylabeling_voc(tmp_path / "xav", ["a", "b"], BOXES)
    report = run_import(src, tmp_path / "out", ALL).report
    assert (report["format"], report["images"], report["boxes"], report["names"]) == ("voc", 2, 4, ["bolt", "nut"])
    lost = sorted((s["file"].rsplit("/", 1)[-1], s["reason"], s["message"].split(":")[0]) for s in report["skipped"])
    assert lost == [(f"{stem}.xml", "no_geometry", f"object {n} (bolt)") for stem in "ab" for n in (3, 4)]


def test_x_anylabeling_coco_with_empty_bbox_annotations_imports_the_file(tmp_path):
    """``bbox: []`` (a shape its rectangle mode does not convert) is one reported annotation, not a refused file."""
    src = x_anylabeling_coco(tmp_path / "xac", ["a", "b"], BOXES, names=["bolt", "nut"])
    report = run_import(src, tmp_path / "out", ALL).report
    assert (report["format"], report["images"], report["boxes"], report["names"]) == ("coco", 2, 4, ["bolt", "nut"])
    assert report["out_classes"] == {"bolt": 2, "nut": 2}
    assert [s["reason"] for s in report["skipped"]] == ["no_geometry"] * 4  # 2 shapes a picture, none doubled


def test_x_anylabeling_yolo_obb_rows_are_boxed_as_yolov5_boxes_a_segment(tmp_path):
    src = x_anylabeling_yolo_obb(tmp_path / "xay", ["a", "b"], BOXES, names=["bolt", "nut"])
    result = run_import(src, tmp_path / "out", ALL)
    report = result.report
    assert (report["format"], report["images"], report["boxes"], report["skipped"]) == ("yolo", 2, 4, [])
    assert report["names"] == ["bolt", "nut"]
    expected = (round(17 / 64, 4), round(17 / 48, 4), round(26 / 64, 4), round(26 / 48, 4))
    assert _boxes_at(_rows(result.out), 0) == [expected] * 2


def test_makesense_voc_with_made_up_paths_and_an_unlabelled_picture(tmp_path):
    src = makesense_voc(tmp_path / "ms", ["a", "b"], BOXES)
    picture(src / "empty.jpg", (64, 48), [], seed=9)  # make-sense writes no XML for a picture without boxes
    report = run_import(src, tmp_path / "out", ALL).report
    assert (report["format"], report["images"], report["boxes"], report["backgrounds"]) == ("voc", 3, 4, 1)
    assert report["names"] == ["bolt", "nut"] and report["skipped"] == []


def test_makesense_yolo_takes_its_names_from_labels_txt(tmp_path):
    src = makesense_yolo(tmp_path / "ms", ["a", "b"], BOXES, names=["nut", "bolt"])
    result = run_import(src, tmp_path / "out", ALL)
    report = result.report
    assert (report["format"], report["images"], report["boxes"], report["skipped"]) == ("yolo", 2, 4, [])
    assert report["names"] == ["nut", "bolt"] and report["out_classes"] == {"nut": 2, "bolt": 2}


def test_a_picture_called_labels_keeps_labels_txt_as_its_own_label_file(tmp_path):
    src = makesense_yolo(tmp_path / "ms", ["a"], BOXES, names=["nut", "bolt"])
    picture(src / "labels.jpg", (64, 48), [], seed=9)  # now labels.txt is this picture's YOLO label file
    assert analyse(src, ImportOptions()).source.class_order == []


def test_roboflow_yolov5_keeps_its_splits_names_and_renamed_pictures(tmp_path):
    src = roboflow_yolov5(tmp_path / "rf", {"train": ["a", "b"], "valid": ["c"], "test": ["d"]}, BOXES,
                          names=["bolt", "nut"])
    assert "train: ../train/images" in (src / "data.yaml").read_text()
    result = run_import(src, tmp_path / "out", ImportOptions())
    report = result.report
    assert (report["format"], report["images"], report["boxes"], report["skipped"]) == ("yolo", 4, 8, [])
    assert report["names"] == ["bolt", "nut"]
    assert _splits(result.out) == {"a": "train", "b": "train", "c": "val", "d": "test"}


def test_roboflow_coco_per_split_ignores_the_root_category_and_keeps_splits(tmp_path):
    src = tmp_path / "rfc"
    roboflow_coco(src, ["a", "b"], BOXES, names=["bolt", "nut"], split="train")
    roboflow_coco(src, ["c"], BOXES, names=["bolt", "nut"], split="valid")
    result = run_import(src, tmp_path / "out", ImportOptions())
    report = result.report
    assert (report["format"], report["images"], report["boxes"], report["skipped"]) == ("coco", 3, 6, [])
    assert report["names"] == ["bolt", "nut"]  # the unannotated root "parts" is no class 0
    assert _splits(result.out) == {"a": "train", "b": "train", "c": "val"}


def test_roboflow_voc_keeps_its_split_folders(tmp_path):
    src = roboflow_voc(tmp_path / "rfv", {"train": ["a", "b"], "valid": ["c"], "test": ["d"]}, BOXES)
    result = run_import(src, tmp_path / "out", ImportOptions())
    report = result.report
    assert (report["format"], report["images"], report["boxes"], report["skipped"]) == ("voc", 4, 8, [])
    assert report["names"] == ["bolt", "nut"]
    assert _splits(result.out) == {"a": "train", "b": "train", "c": "val", "d": "test"}
