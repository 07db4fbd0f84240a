"""Issue 31: exports as the tools' own exporters write them (``tests/fixtures/export_corpus.py`` cites each
exporter's file and lines) import as one picture each, with their boxes, and say what they left out."""

from __future__ import annotations

import json
from collections import Counter

from core.dataset.importers.plan import ImportOptions, analyse, run_import
from tests.fixtures.export_corpus import datumaro_voc, label_studio_coco, label_studio_voc, labelme_apart
from tests.import_samples import picture, write_coco

BOXES = [("bolt", 4, 4, 30, 30), ("nut", 34, 10, 60, 40)]


def _labels(out):
    return sorted(p.read_text() for p in out.glob("labels/*/*.txt"))


def test_label_studio_voc_with_stem_only_filenames_keeps_every_box(tmp_path):
    src = label_studio_voc(tmp_path / "ls", ["task1", "task2", "task3"], BOXES)
    result = run_import(src, tmp_path / "out", ImportOptions(ratios=(1, 0, 0)))
    report = result.report
    assert report["images"] == 3 and report["boxes"] == 6 and report["backgrounds"] == 0
    assert report["skipped"] == []
    assert all(len(text.splitlines()) == 2 for text in _labels(result.out))


def test_labelme_json_apart_from_its_pictures_imports_each_picture_once(tmp_path):
    src = labelme_apart(tmp_path / "lm", ["a", "b"], BOXES)
    result = run_import(src, tmp_path / "out", ImportOptions(ratios=(1, 0, 0)))
    assert result.report["images"] == 2 and result.report["backgrounds"] == 0
    assert sorted(p.name for p in result.out.glob("images/*/*")) == ["a.jpg", "b.jpg"]
    assert all(text for text in _labels(result.out))  # no empty label: no background copy


def test_the_same_pixels_reached_twice_are_imported_once_and_reported(tmp_path):
    src = labelme_apart(tmp_path / "lm", ["a"], BOXES)
    (src / "copy").mkdir()
    (src / "copy" / "a_again.jpg").write_bytes((src / "images" / "a.jpg").read_bytes())  # a byte-identical copy
    analysis = analyse(src, ImportOptions())
    assert len(analysis.images) == 1 and analysis.images[0].rows
    notes = analysis.preview_json()["notes"]
    assert [(n["reason"], n["file"].endswith("a_again.jpg")) for n in notes] == [("same_pixels", True)]


def test_two_annotations_of_one_picture_keep_the_first_and_report_the_second(tmp_path):
    src = labelme_apart(tmp_path / "lm", ["a"], BOXES)
    doc = json.loads((src / "annotations" / "a.json").read_text())
    doc["imagePath"] = "../images/a.jpg"
    (src / "annotations" / "a_copy.json").write_text(json.dumps(doc))
    report = analyse(src, ImportOptions()).preview_json()
    assert report["images"] == 1 and report["skipped_by_reason"] == {"duplicate_image": 1}
    assert "a_copy.json" in report["skipped"][0]["file"] and "2 boxes" in report["skipped"][0]["message"]


def test_voc_segmentation_masks_are_not_imported_as_photos(tmp_path):
    src = datumaro_voc(tmp_path / "dm", ["0001", "0002"], BOXES)
    result = run_import(src, tmp_path / "out", ImportOptions(ratios=(1, 0, 0)))
    assert result.report["images"] == 2 and result.report["boxes"] == 4
    assert not [p for p in result.out.glob("images/*/*") if p.suffix == ".png"]
    notes = [n for n in result.report["notes"] if n["reason"] == "segmentation_mask"]
    assert sorted(n["file"].rsplit("/", 1)[-1] for n in notes) == ["SegmentationClass", "SegmentationObject"]
    assert all(n["message"].startswith("2 segmentation masks") for n in notes)


def test_labels_with_surrounding_spaces_are_one_class_and_case_variants_are_offered(tmp_path):
    src = label_studio_voc(tmp_path / "ls", ["t1"], [("bolt ", 4, 4, 30, 30), ("bolt", 34, 10, 60, 40),
                                                    ("Bolt", 2, 34, 20, 46)])
    result = run_import(src, tmp_path / "out", ImportOptions(ratios=(1, 0, 0)))
    assert result.report["names"] == ["bolt", "Bolt"] and result.report["out_classes"] == {"bolt": 2, "Bolt": 1}
    assert result.report["variants"] == [["bolt", "Bolt"]]  # the dialog's one-click merge and --merge-variants
    merged = run_import(src, tmp_path / "merged", ImportOptions(ratios=(1, 0, 0), merge_variants=True))
    assert merged.report["names"] == ["bolt"] and merged.report["boxes"] == 3


def test_label_studio_coco_with_unopened_images_imports_them(tmp_path):
    src = label_studio_coco(tmp_path / "lsc", ["x.jpg", "y.jpg"], BOXES, unopened=("y.jpg",))
    report = run_import(src / "result.json", tmp_path / "out", ImportOptions(ratios=(1, 0, 0))).report
    assert report["images"] == 2 and report["boxes"] == 4 and report["skipped"] == []


def test_coco_annotation_whose_image_id_has_no_image_is_reported(tmp_path):
    src = tmp_path / "coco"
    picture(src / "images" / "a.jpg", (64, 48), [], seed=3)
    write_coco(src / "ann.json", [{"id": 1, "file_name": "a.jpg", "width": 64, "height": 48}],
               [{"id": 7, "image_id": 1, "category_id": 1, "bbox": [4, 4, 20, 20]},
                {"id": 8, "image_id": 99, "category_id": 1, "bbox": [4, 4, 20, 20]}],
               [{"id": 1, "name": "bolt"}])
    report = analyse(src, ImportOptions()).preview_json()
    assert report["annotations"] == 1
    [lost] = report["skipped"]
    assert lost["reason"] == "missing_image" and "annotation 8" in lost["message"] and "99" in lost["message"]


def test_a_corpus_of_every_exporter_together_reads_each_picture_once(tmp_path):
    """All exporters' cases under one folder: a picture is never both annotated and a background."""
    label_studio_voc(tmp_path / "all" / "ls", ["t1", "t2"], BOXES)
    labelme_apart(tmp_path / "all" / "lm", ["a", "b"], BOXES)
    datumaro_voc(tmp_path / "all" / "dm", ["d1"], BOXES)
    analysis = analyse(tmp_path / "all", ImportOptions(fmt="voc"))
    paths = Counter(str(im.source.path.resolve()) for im in analysis.images)
    assert max(paths.values()) == 1
    annotated = {p.rsplit("/", 1)[-1] for im in analysis.images if im.rows for p in [str(im.source.path)]}
    assert annotated == {"t1.jpg", "t2.jpg", "d1.jpg"}
