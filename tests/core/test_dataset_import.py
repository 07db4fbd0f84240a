"""Dataset import (issue 22): converted boxes against the source, numerically and against the pixels
yolov5 decodes; the traps of real exports; hardened XML; the writer's all-or-nothing folder."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from core.dataset.importers.convert import ConvertOptions
from core.dataset.importers.detect import detect_format
from core.dataset.importers.plan import ImportOptions, analyse, run_import
from core.dataset.importers.voc import read_voc
from core.dataset.importers.writer import ImportCancelled, ImportWriteError
from tests.import_samples import (labelme_doc, picture, polygon_shape, rect_shape, voc_xml, write_coco,
                                  write_voc)


def labels_of(out: Path) -> dict[str, list[list[float]]]:
    return {p.stem: [[float(v) for v in line.split()] for line in p.read_text().splitlines()]
            for p in sorted(out.glob("labels/*/*.txt"))}


def tree_digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_voc_boxes_match_the_source_numerically(tmp_path):
    src = tmp_path / "src"
    write_voc(src, "a.jpg", (200, 100), [("cat", 10, 20, 60, 80), ("dog", 150, 2, 250, 52), ("dog", 5, 5, 5, 30)])
    result = run_import(src, tmp_path / "out", ImportOptions(ratios=(1, 0, 0)))
    [rows] = labels_of(result.out).values()
    names = result.report["names"]
    assert names == ["cat", "dog"]
    assert rows[0] == pytest.approx([0, 35 / 200, 50 / 100, 50 / 200, 60 / 100])
    assert rows[1] == pytest.approx([1, 175 / 200, 27 / 100, 50 / 200, 50 / 100])  # clipped at x = 200
    assert len(rows) == 2  # the zero-width box is reported, not written
    assert result.report["counts"]["clipped"] == 1
    assert [s["reason"] for s in result.report["skipped"]] == ["zero_size"]


@pytest.mark.parametrize("orientation", range(1, 9))
def test_exif_rotated_boxes_land_on_the_pixels_yolov5_decodes(tmp_path, orientation):
    """The box is drawn white on the stored grid (as LabelImg sees it); after the import, the label must
    frame the white pixels of the picture yolov5 decodes (its loader's cv2.imread) and yolov5's own label
    check must accept it."""
    cv2 = pytest.importorskip("cv2")
    from yolov5.utils.dataloaders import verify_image_label

    src = tmp_path / "src"
    write_voc(src, "photo.jpg", (160, 96), [("cat", 20, 10, 70, 40)], orientation=orientation)
    result = run_import(src, tmp_path / "out", ImportOptions(ratios=(1, 0, 0)))
    image = result.out / "images" / "train" / "photo.jpg"
    decoded = cv2.imread(str(image))
    h, w = decoded.shape[:2]
    [row] = labels_of(result.out)["photo"]
    _, x, y, bw, bh = row
    x0, x1, y0, y1 = round((x - bw / 2) * w), round((x + bw / 2) * w), round((y - bh / 2) * h), round((y + bh / 2) * h)
    bright = decoded.mean(axis=2) > 200
    ys, xs = np.nonzero(bright)
    assert (xs.min(), xs.max() + 1, ys.min(), ys.max() + 1) == pytest.approx((x0, x1, y0, y1), abs=1)
    assert (bw * w, bh * h) == pytest.approx((50, 30) if (w, h) == (160, 96) else (30, 50), abs=0.01)
    verdict = verify_image_label((str(image), str(result.out / "labels" / "train" / "photo.txt"), ""))
    assert verdict[-1] == "" and verdict[1].shape == (1, 5)  # no message: yolov5 keeps the image and its box
    assert result.report["counts"].get("exif_rotated", 0) == (orientation != 1)


def test_voc_size_that_disagrees_with_the_image_is_reported_and_the_image_wins(tmp_path):
    src = tmp_path / "src"
    write_voc(src, "a.jpg", (200, 100), [("cat", 10, 20, 60, 80)], declared=(400, 200))
    result = run_import(src, tmp_path / "out", ImportOptions(ratios=(1, 0, 0)))
    [rows] = labels_of(result.out).values()
    assert rows[0][1:] == pytest.approx([35 / 200, 0.5, 0.25, 0.6])
    assert [n["reason"] for n in result.report["notes"]] == ["size_mismatch"]
    assert "400×200" in result.report["notes"][0]["message"]


def test_voc_difficult_left_out_unless_kept(tmp_path):
    src = tmp_path / "src"
    write_voc(src, "a.jpg", (100, 100), [("cat", 10, 10, 40, 40), ("cat", 50, 50, 90, 90)], difficult=(1,))
    assert len(labels_of(run_import(src, tmp_path / "o1", ImportOptions(ratios=(1, 0, 0))).out)["a"]) == 1
    kept = ImportOptions(ratios=(1, 0, 0), convert=ConvertOptions(difficult=True))
    assert len(labels_of(run_import(src, tmp_path / "o2", kept).out)["a"]) == 2


BILLION_LAUGHS = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
                  + "".join(f'<!ENTITY lol{i} "{"&lol" + (str(i - 1) if i > 1 else "") + ";" * 1}' * 1
                            + ("&lol" + (str(i - 1) if i > 1 else "") + ";") * 9 + '">' for i in range(1, 10))
                  + ']><annotation><filename>&lol9;</filename></annotation>')


@pytest.mark.parametrize("text", [
    BILLION_LAUGHS,
    '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    '<annotation><filename>&x;</filename></annotation>',
], ids=["billion-laughs", "external-entity"])
def test_hostile_xml_is_refused_by_name_not_expanded(tmp_path, text):
    src = tmp_path / "src"
    write_voc(src, "ok.jpg", (64, 64), [("cat", 5, 5, 30, 30)])
    (src / "evil.xml").write_text(text, encoding="utf-8")
    data = read_voc(src)
    [refused] = data.skipped
    assert refused.file.endswith("evil.xml") and refused.reason == "unreadable_annotation"
    assert "refused" in refused.message
    assert [im.path.name for im in data.images if im.boxes] == ["ok.jpg"]


def test_an_annotation_cannot_pull_a_file_from_outside_the_source(tmp_path):
    picture(tmp_path / "private" / "secret.jpg", (64, 64), [], seed=8)
    src = tmp_path / "src"
    src.mkdir()
    for i, name in enumerate((str(tmp_path / "private" / "secret.jpg"), "../private/secret.jpg")):
        xml = voc_xml(name, (64, 64), [("cat", 5, 5, 30, 30)]).replace("<path>", "<path>x")
        (src / f"{i}.xml").write_text(xml, encoding="utf-8")
    data = read_voc(src)
    assert data.images == [] and [s.reason for s in data.skipped] == ["missing_image", "missing_image"]


def test_duplicate_chinese_and_spaced_names_get_unique_outputs(tmp_path):
    src = tmp_path / "src"
    write_voc(src / "第一", "猫 1.jpg", (80, 80), [("cat", 5, 5, 40, 40)])
    write_voc(src / "two", "猫 1.jpg", (80, 80), [("cat", 10, 10, 70, 70)])
    picture(src / "two" / "猫 1.png", (80, 80), [], seed=3, fmt="PNG")  # would share 猫 1.txt with the .jpg
    result = run_import(src, tmp_path / "out", ImportOptions(ratios=(1, 0, 0)))
    images = sorted(p.name for p in (result.out / "images" / "train").iterdir())
    assert len(images) == 3 and len({Path(n).stem for n in images}) == 3
    assert result.report["counts"]["background"] == 1


def test_labelme_rectangles_polygons_and_embedded_images(tmp_path):
    src = tmp_path / "src"
    data = picture(None, (100, 50), [], seed=9, fmt="PNG")
    poly = [(10, 10), (40, 10), (40, 30)]
    doc = labelme_doc("gone.png", (100, 50), [rect_shape("cat", 60, 40, 20, 10), polygon_shape("dog", poly),
                                              {"label": "x", "points": [[1, 1]], "shape_type": "point"}], data)
    src.mkdir()
    (src / "gone.json").write_text(json.dumps(doc), encoding="utf-8")
    assert detect_format(src) == "labelme"
    boxes = run_import(src, tmp_path / "o1", ImportOptions(ratios=(1, 0, 0)))
    assert (boxes.out / "images" / "train" / "gone.png").read_bytes() == data  # imageData written out
    rows = labels_of(boxes.out)["gone"]
    assert rows[0] == pytest.approx([0, 0.4, 0.5, 0.4, 0.6])  # corners given in any order
    assert rows[1] == pytest.approx([1, 0.25, 0.4, 0.3, 0.4])
    assert [s["reason"] for s in boxes.report["skipped"]] == ["unsupported_shape"]
    segments = run_import(src, tmp_path / "o2", ImportOptions(ratios=(1, 0, 0), convert=ConvertOptions(segments=True)))
    from yolov5.utils.dataloaders import verify_image_label

    img, lb_file = segments.out / "images/train/gone.png", segments.out / "labels/train/gone.txt"
    verdict = verify_image_label((str(img), str(lb_file), ""))
    assert verdict[-1] == ""  # yolov5 accepts the mixed rectangle + polygon file
    assert verdict[1][:, 1:] == pytest.approx(np.array([rows[0][1:], rows[1][1:]]), abs=1e-5)


def test_coco_ids_crowd_segmentation_only_split_files_and_subfolders(tmp_path, capfd):
    src = tmp_path / "export"
    for split, names in (("train", ["a.jpg", "b.jpg"]), ("val", ["c.jpg"])):
        for i, name in enumerate(names):
            picture(src / "images" / split / name, (100, 80), [], seed=hash(name) % 1000 + i)
    cats = [{"id": 7, "name": "car"}, {"id": 3, "name": "person"}]
    write_coco(src / "annotations" / "instances_train.json",
               [{"id": 1, "file_name": "train/a.jpg", "width": 100, "height": 80},
                {"id": 2, "file_name": "train/b.jpg", "width": 100, "height": 80}],
               [{"id": 1, "image_id": 1, "category_id": 7, "bbox": [10, 20, 30, 40], "iscrowd": 0},
                {"id": 2, "image_id": 1, "category_id": 3, "segmentation": [[50, 10, 90, 10, 90, 50]], "iscrowd": 0},
                {"id": 3, "image_id": 2, "category_id": 3, "bbox": [0, 0, 50, 50], "iscrowd": 1,
                 "segmentation": {"counts": [0, 2500, 5500], "size": [80, 100]}},
                {"id": 4, "image_id": 2, "category_id": 99, "bbox": [1, 1, 5, 5]}], cats)
    write_coco(src / "annotations" / "instances_val.json",
               [{"id": 1, "file_name": "val/c.jpg", "width": 100, "height": 80}],
               [{"id": 1, "image_id": 1, "category_id": 7, "bbox": [0, 0, 100, 80]}], cats)
    capfd.readouterr()
    result = run_import(src, tmp_path / "out", ImportOptions())
    assert capfd.readouterr().out == ""  # pycocotools' "creating index..." kept off stdout (the event stream)
    assert result.report["names"] == ["person", "car"]  # category id order, not file order
    labels = labels_of(result.out)
    assert np.array(labels["a"]) == pytest.approx(np.array([[1, 0.25, 0.5, 0.3, 0.5], [0, 0.7, 0.375, 0.4, 0.5]]))
    assert labels["b"] == []
    assert result.report["splits"] == {"train": 2, "val": 1, "test": 0}
    assert result.report["kept_from_source"] == 3
    assert sorted(result.report["skipped_by_reason"]) == ["crowd", "unknown_category"]


def test_source_untouched_output_complete_or_absent(tmp_path):
    src = tmp_path / "src"
    for i in range(6):
        write_voc(src, f"img{i}.jpg", (64, 64), [("cat", 5, 5, 30, 30)])
    before = tree_digest(src)
    out = tmp_path / "out"
    calls = []

    def cancel_after_three() -> bool:
        calls.append(1)
        return len(calls) > 9  # reading checks 6 times, then writing stops at its fourth image

    with pytest.raises(ImportCancelled):
        run_import(src, out, ImportOptions(), cancelled=cancel_after_three)
    assert not out.exists() and [p.name for p in tmp_path.iterdir()] == ["src"]  # no half dataset, no temp
    result = run_import(src, out, ImportOptions())
    assert (out / "data.yaml").is_file() and result.report["linked"] == 6
    assert tree_digest(src) == before
    with pytest.raises(ImportWriteError, match="not empty"):
        run_import(src, out, ImportOptions())
    with pytest.raises(ImportWriteError, match="inside the source"):
        run_import(src, src / "yolo", ImportOptions())
    assert tree_digest(src) == before


def test_a_jpeg_without_its_end_marker_is_copied_never_linked(tmp_path):
    """yolov5's label check re-saves such a JPEG in place: through a hard link that would rewrite the source."""
    src = tmp_path / "src"
    image = write_voc(src, "cut.jpg", (64, 64), [("cat", 5, 5, 30, 30)])
    image.write_bytes(image.read_bytes() + b"\x00\x00")
    write_voc(src, "whole.jpg", (64, 64), [("cat", 5, 5, 30, 30)])
    result = run_import(src, tmp_path / "out", ImportOptions(ratios=(1, 0, 0)))
    assert (result.report["linked"], result.report["copied"]) == (1, 1)
    assert (result.out / "images/train/cut.jpg").stat().st_ino != image.stat().st_ino


def test_preview_writes_nothing_and_lists_spelling_variants(tmp_path):
    src = tmp_path / "src"
    write_voc(src, "a.jpg", (64, 64), [("Person", 5, 5, 30, 30)])
    write_voc(src, "b.jpg", (64, 64), [("PERSON", 5, 5, 30, 30), ("person", 35, 35, 60, 60)])
    before = sorted(p.name for p in tmp_path.rglob("*"))
    preview = analyse(src, ImportOptions(), want_hash=False).preview_json()
    assert sorted(p.name for p in tmp_path.rglob("*")) == before
    assert preview["variants"] == [["PERSON", "Person", "person"]]
    merged = run_import(src, tmp_path / "out", ImportOptions(ratios=(1, 0, 0), merge_variants=True))
    assert merged.report["names"] == ["PERSON"] and merged.report["boxes"] == 3
