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
