"""One-click fixes: planned (previewable) first, applied with a backup, and the finding goes away."""

from __future__ import annotations

from core.dataset.fixes import apply_fix, plan_fix
from core.dataset.validate import validate_dataset
from tests.core.test_dataset_validate import BOX, build, image_bytes


def _only(report, code):
    return [f for f in report.findings if f.code == code]


def test_label_fixes_preview_then_apply_with_backup(tmp_path):
    label = b"\xef\xbb\xbf" + (BOX + BOX + "1 1.01 0.5 0.2 0.2\n").encode()
    yaml_file = build(tmp_path, train={"t1": label, "t2": "1 .5 .5 .1 .1\n"})
    report = validate_dataset(yaml_file)
    codes = {f.code for f in report.findings}
    assert {"label-encoding"} <= codes
    plan = plan_fix(_only(report, "label-encoding")[0])
    assert plan.before.count("0 0.5 0.5 0.2 0.2") == 2 and plan.after == BOX + "1 1 0.5 0.2 0.2\n"
    apply_fix(plan)
    assert (tmp_path / "labels" / "train" / "t1.txt.bak").read_bytes() == label
    assert not validate_dataset(yaml_file).findings


def test_orphan_is_moved_aside_never_deleted(tmp_path):
    yaml_file = build(tmp_path)
    orphan = tmp_path / "labels" / "train" / "gone.txt"
    orphan.write_text(BOX)
    [finding] = _only(validate_dataset(yaml_file), "label-orphan")
    plan = plan_fix(finding, root=tmp_path)
    apply_fix(plan)
    assert not orphan.exists()
    assert (tmp_path / "_orphaned_labels" / "labels" / "train" / "gone.txt").read_text() == BOX
    assert not _only(validate_dataset(yaml_file), "label-orphan")


def test_leaked_image_is_removed_from_the_val_list(tmp_path):
    twin = image_bytes()
    yaml_file = build(tmp_path, train={"t1": (twin, BOX), "t2": "1 .5 .5 .1 .1\n"}, val={"copy": (twin, BOX),
                                                                                        "v2": BOX})
    (tmp_path / "val.txt").write_text("./images/val/copy.png\n./images/val/v2.png\n")
    yaml_file.write_text(yaml_file.read_text().replace("val: images/val", "val: val.txt"))
    [finding] = _only(validate_dataset(yaml_file), "train-val-leak")
    plan = plan_fix(finding, val_lists=[str(tmp_path / "val.txt")])
    assert plan.after == "./images/val/v2.png\n"
    apply_fix(plan)
    assert not _only(validate_dataset(yaml_file), "train-val-leak")
    assert (tmp_path / "val.txt.bak").exists() and (tmp_path / "images" / "val" / "copy.png").exists()


def test_no_automatic_fix_for_pixel_coordinates(tmp_path):
    yaml_file = build(tmp_path, train={"t1": "0 320 200 40 40\n", "t2": BOX})
    [finding] = _only(validate_dataset(yaml_file), "label-not-normalized")
    assert plan_fix(finding) is None


def test_a_row_with_an_impossible_class_id_is_deleted_and_the_fix_undone(tmp_path):
    from core.dataset.fixes import undo_fix

    yaml_file = build(tmp_path, train={"t1": BOX + "5 .5 .5 .1 .1\n" + BOX.replace("0.2", "0.3"), "t2": BOX})
    label = tmp_path / "labels" / "train" / "t1.txt"
    before = label.read_bytes()
    [finding] = _only(validate_dataset(yaml_file), "label-class-range")
    plan = plan_fix(finding)
    assert finding.line == 2 and "5 .5 .5 .1 .1" in plan.summary
    assert plan.after == BOX + BOX.replace("0.2", "0.3")
    apply_fix(plan)
    assert validate_dataset(yaml_file).ok
    undo_fix(plan)
    assert label.read_bytes() == before and _only(validate_dataset(yaml_file), "label-class-range")


def test_an_unreadable_image_leaves_its_folder_split_with_its_label_and_comes_back(tmp_path):
    from core.dataset.fixes import undo_fix

    yaml_file = build(tmp_path, train={"t1": BOX, "t2": (b"not an image", BOX)})
    [finding] = _only(validate_dataset(yaml_file), "image-corrupt")
    plan = plan_fix(finding, root=tmp_path)
    apply_fix(plan)
    assert (tmp_path / "_excluded_images" / "images" / "train" / "t2.png").read_bytes() == b"not an image"
    assert (tmp_path / "_excluded_images" / "labels" / "train" / "t2.txt").read_text() == BOX
    after = validate_dataset(yaml_file)
    assert after.ok and not _only(after, "label-orphan")
    undo_fix(plan)
    assert (tmp_path / "images" / "train" / "t2.png").exists() and (tmp_path / "labels" / "train" / "t2.txt").exists()


def test_an_unreadable_image_leaves_the_list_that_names_it(tmp_path):
    yaml_file = build(tmp_path, train={"t1": BOX, "t2": (b"not an image", BOX)})
    (tmp_path / "train.txt").write_text("./images/train/t1.png\n./images/train/t2.png\n")
    yaml_file.write_text(yaml_file.read_text().replace("train: images/train", "train: train.txt"))
    [finding] = _only(validate_dataset(yaml_file), "image-corrupt")
    plan = plan_fix(finding, split_lists=[str(tmp_path / "train.txt")], root=tmp_path)
    assert plan.after == "./images/train/t1.png\n"
    apply_fix(plan)
    assert validate_dataset(yaml_file).ok and (tmp_path / "images" / "train" / "t2.png").exists()


def test_slightly_out_coordinates_are_what_yolov5_drops_and_clipped_they_are_kept(tmp_path):
    """yolov5's own rule, run: ``verify_image_label`` drops an image with any coordinate outside [0, 1] after
    float32 rounding (no tolerance): 1.0000001 is dropped, 1.00000001 rounds to 1 and is kept. The fix clips
    values within ``labels.SLIGHT`` to the edge, and yolov5 then keeps the image."""
    from yolov5.utils.dataloaders import verify_image_label

    yaml_file = build(tmp_path, train={"t1": "0 1.01 0.5 0.2 0.2\n", "t2": "0 1.00000001 0.5 0.2 0.2\n",
                                       "t3": "0 1.0000001 0.5 0.2 0.2\n"})
    image, label = tmp_path / "images" / "train" / "t1.png", tmp_path / "labels" / "train" / "t1.txt"
    assert verify_image_label((str(image), str(label), ""))[7] == 1  # nc: corrupt, dropped
    kept = tmp_path / "images" / "train" / "t2.png", tmp_path / "labels" / "train" / "t2.txt"
    assert verify_image_label((str(kept[0]), str(kept[1]), ""))[7] == 0
    just_over = tmp_path / "images" / "train" / "t3.png", tmp_path / "labels" / "train" / "t3.txt"
    assert verify_image_label((str(just_over[0]), str(just_over[1]), ""))[7] == 1  # float32 1.00000012 > 1
    [finding] = [f for f in _only(validate_dataset(yaml_file), "label-not-normalized") if f.file == str(label)]
    apply_fix(plan_fix(finding))
    assert label.read_text() == "0 1 0.5 0.2 0.2\n"
    assert verify_image_label((str(image), str(label), ""))[7] == 0


def test_the_train_pages_words_count_what_fix_offers():
    from core.dataset.findings import finding
    from core.dataset.fix_catalogue import fix_words, fixable_errors

    fixable = finding("label-class-range", "a.txt", "id 5", 2)
    other = finding("label-columns", "b.txt", "4 values", 1)
    assert fixable_errors([fixable, other]) == 1 and "1 of 2" in fix_words([fixable, other])
    assert "None of them" in fix_words([other])


def test_a_class_id_beyond_the_names_is_given_a_class_its_line_ending_and_box_kept(tmp_path):
    """Issue 32: besides deleting the row, the row keeps its box with a class of the dataset; undone like a fix."""
    from core.dataset.fixes import apply_fix, can_reassign, plan_reassign, undo_fix  # noqa: PLC0415
    from core.findings import Finding, Severity  # noqa: PLC0415

    label = tmp_path / "t1.txt"
    label.write_bytes(b"0 .1 .1 .1 .1\r\n  99 .5 .5 .2 .2\r\n")
    finding = Finding("label-class-range", Severity.ERROR, "Class id 99 but the dataset has 2 classes",
                      file=str(label), line=2)
    assert can_reassign(finding)
    plan = plan_reassign(finding, 1, "bike")
    assert plan is not None and "bike" in plan.summary
    apply_fix(plan)
    assert label.read_bytes() == b"0 .1 .1 .1 .1\r\n  1 .5 .5 .2 .2\r\n"
    undo_fix(plan)
    assert label.read_bytes() == b"0 .1 .1 .1 .1\r\n  99 .5 .5 .2 .2\r\n"
    assert plan_reassign(Finding("label-class-range", Severity.ERROR, "x", file=str(label), line=9), 1) is None
