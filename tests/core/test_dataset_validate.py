"""The validator end to end on small generated datasets: a failing and a passing case for every code."""

from __future__ import annotations

import io
import itertools
import os
from pathlib import Path

import pytest
from PIL import Image

from core.dataset import scan as scan_module
from core.dataset.findings import CODES
from core.dataset.scan import ScanCancelled
from core.dataset.validate import validate_dataset

_colour = itertools.count(1)
BOX = "0 0.5 0.5 0.2 0.2\n"


def image_bytes(fmt: str = "PNG", size: tuple[int, int] = (32, 24)) -> bytes:
    """A small image with a unique colour, so two calls never produce identical files."""
    n = next(_colour)
    buffer = io.BytesIO()
    Image.new("RGB", size, ((n * 37) % 256, (n * 91) % 256, (n * 13) % 256)).save(buffer, fmt)
    return buffer.getvalue()


def build(root: Path, *, train: dict | None = None, val: dict | None = None, yaml_text: str | None = None) -> Path:
    """``{name: label text or None}`` per split; images are unique PNGs under images/<split>/."""
    train = {"t1": BOX, "t2": "1 0.3 0.3 0.1 0.1\n"} if train is None else train
    val = {"v1": BOX + "1 0.6 0.6 0.2 0.3\n"} if val is None else val
    for split, items in (("train", train), ("val", val)):
        (root / "images" / split).mkdir(parents=True, exist_ok=True)
        (root / "labels" / split).mkdir(parents=True, exist_ok=True)
        for name, label in items.items():
            data = label if isinstance(label, tuple) else (None, label)
            image, text = data
            (root / "images" / split / (name if "." in name else name + ".png")).write_bytes(
                image if image is not None else image_bytes())
            if text is not None:
                target = root / "labels" / split / (name.rsplit(".", 1)[0] + ".txt")
                target.write_bytes(text if isinstance(text, bytes) else text.encode())
    yaml_file = root / "data.yaml"
    yaml_file.write_text(yaml_text if yaml_text is not None else
                         f"path: {root}\ntrain: images/train\nval: images/val\nnames: [a, b]\n", encoding="utf-8")
    return yaml_file


def codes(yaml_file: Path, **kw) -> dict[str, list]:
    report = validate_dataset(yaml_file, **kw)
    out: dict[str, list] = {}
    for f in report.findings:
        out.setdefault(f.code, []).append(f)
    return out


def test_clean_dataset_has_no_findings(tmp_path):
    assert codes(build(tmp_path)) == {}


def test_whitespace_variants_and_empty_labels_and_polygons_are_accepted(tmp_path):
    train = {"crlf": "0 0.5 0.5 0.2 0.2\r\n1 0.2 0.2 0.1 0.1\r\n", "tabs": "0\t0.5\t0.5\t0.2\t0.2  \n\n\n",
             "empty": "", "poly": "1 0.1 0.1 0.4 0.1 0.4 0.5 0.1 0.5\n", "edge": "0 1 1 1 1\n"}
    assert codes(build(tmp_path, train=train)) == {}


# code -> (train items, val items, yaml text or None, expected file suffix, expected line)
def _yaml(root, body):
    return f"path: {root}\n{body}"


CASES = {
    "label-columns": ({"t1": "0 0.5 0.5 0.2\n", "t2": "1 .5 .5 .1 .1\n"}, None, None, "t1.txt", 1),
    "label-value": ({"t1": "0 0.5 abc 0.2 0.2\n", "t2": "1 .5 .5 .1 .1\n"}, None, None, "t1.txt", 1),
    "label-class-range": ({"t1": BOX + "7 0.5 0.5 0.2 0.2\n", "t2": "1 .5 .5 .1 .1\n"}, None, None, "t1.txt", 2),
    "label-not-normalized": ({"t1": "0 320 240 50 60\n", "t2": "1 .5 .5 .1 .1\n"}, None, None, "t1.txt", 1),
    "label-nonpositive-size": ({"t1": "0 0.5 0.5 0 0.2\n", "t2": "1 .5 .5 .1 .1\n"}, None, None, "t1.txt", 1),
    "label-nan": ({"t1": BOX + "1 nan 0.5 0.2 0.2\n", "t2": "1 .5 .5 .1 .1\n"}, None, None, "t1.txt", 2),
    "label-duplicate-row": ({"t1": BOX + BOX, "t2": "1 .5 .5 .1 .1\n"}, None, None, "t1.txt", 2),
    "label-encoding": ({"t1": b"\xef\xbb\xbf" + BOX.encode(), "t2": "1 .5 .5 .1 .1\n"}, None, None, "t1.txt", 1),
    "label-mixed-formats": ({"t1": "0 .1 .1 .4 .1 .4 .5\n1 .5 .5 .1 .1\n", "t2": BOX}, None, None, "t1.txt", 2),
    "label-missing": ({"t1": BOX, "t2": "1 .5 .5 .1 .1\n", "bg": None}, None, None, "bg.png", 0),
    "image-corrupt": ({"t1": BOX, "t2": "1 .5 .5 .1 .1\n", "bad": (b"not an image at all", BOX)}, None, None,
                      "bad.png", 0),
    "image-too-small": ({"t1": BOX, "t2": "1 .5 .5 .1 .1\n", "tiny": (image_bytes(size=(8, 8)), BOX)}, None, None,
                        "tiny.png", 0),
    "image-unsupported-format": ({"t1": BOX, "t2": "1 .5 .5 .1 .1\n", "anim.gif": (image_bytes("GIF"), None)}, None,
                                 None, "anim.gif", 0),
    "class-no-instances": ({"t1": BOX, "t2": BOX}, None, None, "data.yaml", 4),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_label_and_image_code_fails_and_passes(tmp_path, code):
    train, val, yaml_text, suffix, line = CASES[code]
    found = codes(build(tmp_path / "bad", train=train, val=val, yaml_text=yaml_text))
    assert code in found, found
    hit = found[code][0]
    assert hit.file.endswith(suffix) and hit.line == line and hit.message
    assert hit.severity == CODES[code]
    assert code not in codes(build(tmp_path / "good"))


def test_truncated_jpeg_is_dropped_and_one_with_trailing_bytes_is_rewritten(tmp_path):
    good = image_bytes("JPEG")
    found = codes(build(tmp_path / "a", train={"t1": BOX, "t2": "1 .5 .5 .1 .1\n", "cut": (good[:-2], BOX),
                                                 "tail": (good + b"camera trailer", BOX)}))
    cut, tail = sorted(found["image-corrupt"], key=lambda f: f.file)
    assert cut.file.endswith("cut.png") and cut.severity == "error" and "drops" in cut.message
    assert tail.file.endswith("tail.png") and tail.severity == "warning" and "re-save" in tail.message


def test_orphan_label(tmp_path):
    yaml_file = build(tmp_path)
    assert "label-orphan" not in codes(yaml_file)
    (tmp_path / "labels" / "train" / "gone.txt").write_text(BOX)
    (tmp_path / "labels" / "train" / "classes.txt").write_text("a\nb\n")  # a labelling tool's file: not an orphan
    [hit] = codes(yaml_file)["label-orphan"]
    assert hit.file.endswith("gone.txt")


def test_train_val_leak_same_content_and_same_file(tmp_path):
    twin = image_bytes()
    yaml_file = build(tmp_path, train={"t1": (twin, BOX), "t2": "1 .5 .5 .1 .1\n"}, val={"copy": (twin, BOX)})
    [hit] = codes(yaml_file)["train-val-leak"]
    assert hit.file.endswith("copy.png") and "t1.png" in hit.message
    same = build(tmp_path / "s", yaml_text="")
    same.write_text(f"path: {tmp_path / 's'}\ntrain: images/train\nval: [images/val, images/train]\n"
                                    "names: [a, b]\n")
    assert len(codes(same)["train-val-leak"]) == 2
    assert "train-val-leak" not in codes(build(tmp_path / "good"))


def test_image_duplicate_inside_a_split(tmp_path):
    twin = image_bytes()
    found = codes(build(tmp_path, train={"a": (twin, BOX), "b": (twin, "1 .5 .5 .1 .1\n")}))
    assert [f.file.endswith("b.png") for f in found["image-duplicate"]] == [True]
    assert "image-duplicate" not in codes(build(tmp_path / "good"))


def test_split_path_missing_and_split_empty(tmp_path):
    root = tmp_path / "d"
    build(root)
    (root / "images" / "empty").mkdir()
    (root / "data.yaml").write_text(f"path: {root}\ntrain: images/nowhere\nval: images/empty\nnames: [a, b]\n")
    found = codes(root / "data.yaml")
    assert found["split-path-missing"][0].line == 2
    assert found["split-empty"][0].line == 3
    assert "split-path-missing" not in codes(build(tmp_path / "good"))


def test_a_missing_split_path_says_what_yolov5_does_for_that_split(tmp_path):
    root = tmp_path / "d"
    build(root)
    (root / "data.yaml").write_text(f"path: {root}\ntrain: images/t\nval: images/v\ntest: images/x\nnames: [a, b]\n")
    train, val, test = sorted(codes(root / "data.yaml")["split-path-missing"], key=lambda f: f.line)
    assert train.severity == val.severity == "error" and test.severity == "warning"
    assert "Error loading data" in train.message and "Dataset not found" in val.message
    assert "Training does not read it" in test.message


def test_train_without_any_usable_label_is_an_error_yolov5_stops_on(tmp_path):
    no_files = codes(build(tmp_path / "a", train={"t1": None, "t2": None}))
    [hit] = no_files["split-no-labels"]
    assert hit.severity == "error" and hit.line == 2 and "No labels found" in hit.message
    empty = codes(build(tmp_path / "b", train={"t1": "", "t2": "0 2 2 2 2\n"}))
    assert "All labels empty" in empty["split-no-labels"][0].message
    assert "split-no-labels" not in codes(build(tmp_path / "c", train={"t1": None, "t2": BOX}))
    assert "split-no-labels" not in codes(build(tmp_path / "d", val={"v1": None}))  # val may be all background


def test_class_beyond_nc_says_where_yolov5_fails_by_split(tmp_path):
    found = codes(build(tmp_path, train={"t1": BOX, "t2": "2 .5 .5 .1 .1\n"}, val={"v1": "5 .5 .5 .1 .1\n"}))
    hits = {f.file.rsplit("/", 1)[-1]: f.message for f in found["label-class-range"]}
    assert "exceeds nc=2" in hits["t2.txt"] and "only training labels" in hits["v1.txt"]


def test_list_file_with_missing_entries(tmp_path):
    root = tmp_path / "d"
    build(root)
    (root / "train.txt").write_text("./images/train/t1.png\n./images/train/nothere.png\n./images/train/t2.png\n")
    (root / "data.yaml").write_text(f"path: {root}\ntrain: train.txt\nval: images/val\nnames: [a, b]\n")
    [hit] = codes(root / "data.yaml")["image-missing"]
    assert hit.file.endswith("train.txt") and hit.line == 2


@pytest.mark.skipif(os.name != "posix", reason="symlinks")
def test_symlink_loop_is_reported_once_and_does_not_hang(tmp_path):
    yaml_file = build(tmp_path)
    os.symlink(tmp_path / "images" / "train", tmp_path / "images" / "train" / "loop")
    found = codes(yaml_file)
    assert len(found["split-symlink-loop"]) == 1
    assert "split-symlink-loop" not in codes(build(tmp_path / "good"))


def test_names_nc_mismatch_and_foreign_path(tmp_path):
    root = tmp_path / "d"
    build(root)
    (root / "data.yaml").write_text("path: /content/drive/MyDrive/ds\ntrain: images/train\nval: images/val\n"
                                    "nc: 3\nnames: [a, b]\n")
    found = codes(root / "data.yaml")
    assert found["names-nc-mismatch"][0].line == 4
    assert found["path-foreign"][0].line == 1
    assert "split-path-missing" in found
    good = codes(build(tmp_path / "good"))
    assert "names-nc-mismatch" not in good and "path-foreign" not in good


def test_recheck_reads_only_changed_files(tmp_path):
    train = {f"t{i}": BOX for i in range(30)}
    yaml_file = build(tmp_path, train=train)
    cache = tmp_path / "cache"
    first = validate_dataset(yaml_file, cache_dir=cache)
    assert first.scan.read == 31
    (tmp_path / "labels" / "train" / "t3.txt").write_text(BOX + BOX)
    os.utime(tmp_path / "labels" / "train" / "t3.txt", ns=(1, 1))
    second = validate_dataset(yaml_file, cache_dir=cache)
    assert (second.scan.read, second.scan.from_cache) == (1, 30)
    assert [f.file.endswith("t3.txt") for f in second.findings if f.code == "label-duplicate-row"] == [True]


def test_parallel_processes_give_the_same_findings(tmp_path, monkeypatch):
    train = {f"t{i}": BOX for i in range(40)}
    train["bad"] = "0 2 2 2 2\n"
    yaml_file = build(tmp_path, train=train)
    serial = validate_dataset(yaml_file, workers=1)
    monkeypatch.setattr(scan_module, "PARALLEL_MIN", 10)
    monkeypatch.setattr(scan_module, "CHUNK", 8)
    seen = []
    parallel = validate_dataset(yaml_file, workers=2, progress=lambda d, t: seen.append((d, t)))
    assert parallel.findings == serial.findings
    assert seen[-1] == (42, 42)


def test_cancel_stops_the_scan(tmp_path):
    yaml_file = build(tmp_path, train={f"t{i}": BOX for i in range(80)})
    with pytest.raises(ScanCancelled):
        validate_dataset(yaml_file, workers=1, cancelled=lambda: True)


def test_json_shape_and_stats(tmp_path):
    report = validate_dataset(build(tmp_path))
    data = report.to_json()
    assert set(data) == {"findings", "stats"}
    assert data["stats"]["splits"]["train"]["per_class"] == [1, 1]
    assert data["stats"]["splits"]["val"]["instances"] == 2


def test_new_dataset_from_folders_is_deterministic_and_stratified(tmp_path):
    from core.dataset.split import plan_split, write_split

    root = tmp_path / "flat"
    (root / "labels").mkdir(parents=True)
    for i in range(20):
        (root / f"c{i}.png").write_bytes(image_bytes())
        (root / f"c{i}.txt").write_text(BOX)
    for i in range(5):
        (root / f"r{i}.png").write_bytes(image_bytes())
        (root / f"r{i}.txt").write_text("1 .5 .5 .1 .1\n")
    (root / "bg.png").write_bytes(image_bytes())
    plan = plan_split(root, 0.2, seed=1)
    assert plan_split(root, 0.2, seed=1).val == plan.val
    assert len(plan.val) == 4 + 1 and sum("/r" in p for p in plan.val) == 1  # the rare class lands in val too
    assert plan.names == [] and plan.suggested_names == ["class0", "class1"] and plan.unlabelled == 1
    assert plan.kept == {} and plan.free == 26
    yaml_file = write_split(plan, names=["cat", "dog"])
    report = validate_dataset(yaml_file)
    assert report.ok, report.findings
    assert report.names == ["cat", "dog"]
    assert report.stats["splits"]["val"]["per_class"] == [4, 1]


def test_new_dataset_from_folders_keeps_a_roboflow_exports_split(tmp_path):
    from core.dataset.split import plan_split, write_split

    root = tmp_path / "export"
    for split in ("train", "valid"):  # a Roboflow-style export
        (root / split / "images").mkdir(parents=True)
        (root / split / "labels").mkdir(parents=True)
    for i in range(20):
        (root / "train" / "images" / f"c{i}.png").write_bytes(image_bytes())
        (root / "train" / "labels" / f"c{i}.txt").write_text(BOX)
    for i in range(5):
        (root / "valid" / "images" / f"r{i}.png").write_bytes(image_bytes())
        (root / "valid" / "labels" / f"r{i}.txt").write_text("1 .5 .5 .1 .1\n")
    (root / "valid" / "images" / "bg.png").write_bytes(image_bytes())
    plan = plan_split(root, 0.2, seed=1)
    assert plan.kept == {"train": 20, "val": 6} and plan.free == 0
    assert all("/valid/" in p for p in plan.val) and all("/train/" in p for p in plan.train)
    report = validate_dataset(write_split(plan))
    assert report.ok, report.findings
    assert report.stats["splits"]["val"]["per_class"] == [0, 5]


def test_cache_journal_survives_reload_and_a_torn_line(tmp_path):
    train = {f"t{i}": BOX for i in range(30)}
    yaml_file = build(tmp_path, train=train)
    cache = tmp_path / "cache"
    validate_dataset(yaml_file, cache_dir=cache)
    [table] = cache.glob("*.table")
    journal = table.with_suffix(".journal")
    assert not journal.exists()  # a full check writes the snapshot only
    label = tmp_path / "labels" / "train" / "t3.txt"
    label.write_text(BOX + BOX)
    os.utime(label, ns=(1, 1))
    snapshot = table.read_bytes()
    validate_dataset(yaml_file, cache_dir=cache)
    assert journal.read_text().count("\n") == 1 and table.read_bytes() == snapshot  # one line, no rewrite
    with open(journal, "a") as handle:
        handle.write('["/torn", [1, 2, 3, 4], {"w"')  # a crash mid-write
    third = validate_dataset(yaml_file, cache_dir=cache)
    assert (third.scan.read, third.scan.from_cache) == (0, 31)
    assert [f.file.endswith("t3.txt") for f in third.findings if f.code == "label-duplicate-row"] == [True]
    (tmp_path / "images" / "train" / "t7.png").unlink()  # the file list changed: a new snapshot, no journal
    fourth = validate_dataset(yaml_file, cache_dir=cache)
    assert fourth.scan.total == 30 and not journal.exists() and table.read_bytes() != snapshot


def test_relative_root_is_a_warning_that_explains_yolov5(tmp_path):
    yaml_file = build(tmp_path, yaml_text="train: images/train\nval: images/val\nnames: [a, b]\n")
    found = codes(yaml_file)
    assert list(found) == ["path-relative"] and found["path-relative"][0].line == 1
    assert "install folder" in found["path-relative"][0].message


def test_missing_keys_duplicate_names_and_large_images(tmp_path, monkeypatch):
    from core.dataset import images

    root = tmp_path / "d"
    build(root)
    (root / "data.yaml").write_text(f"path: {root}\ntrain: images/train\nnames: [a, a]\n")
    found = codes(root / "data.yaml")
    assert "'val'" in found["yaml-missing-key"][0].message
    assert found["names-duplicate"][0].line == 3
    monkeypatch.setattr(images, "LARGE_PIXELS", 32 * 24 - 1)
    found = codes(build(tmp_path / "big"))
    assert len(found["image-too-large"]) == 3 and found["image-too-large"][0].severity == "warning"
    monkeypatch.undo()
    good = codes(build(tmp_path / "good"))
    assert not {"yaml-missing-key", "names-duplicate", "image-too-large"} & set(good)


def test_every_code_has_a_test():
    """The table of codes and the tests stay in step: each code is named in at least one dataset test."""
    here = Path(__file__).parent
    text = "".join(p.read_text() for p in here.glob("test_dataset_*.py"))
    missing = [code for code in CODES if f'"{code}"' not in text]
    assert missing == []


def test_an_unreadable_image_has_no_size_in_the_statistics(tmp_path):
    data = build(tmp_path, train={"t1": BOX, "t2": (b"not an image", BOX)})
    report = validate_dataset(data)
    assert "image-corrupt" in {f.code for f in report.findings}
    assert "0x0" not in report.stats["image_sizes"] and sum(report.stats["image_sizes"].values()) == 2
