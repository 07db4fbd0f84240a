"""Re-checks from the cache: the same report as a full check, and only changed files are read again."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from core.dataset import dirs, files, scan as scan_module
from core.dataset.scan import ScanCancelled
from core.dataset.validate import Report, validate_dataset
from tests.core.test_dataset_validate import BOX, build, image_bytes

OLD = time.time_ns() - 3600 * 10**9  # an hour ago: folder listings this old are trusted by the memo


def age_folders(root: Path) -> None:
    """Date every folder back, as for a dataset not created this second (recent folders are re-listed)."""
    for folder, _, _ in os.walk(root):
        os.utime(folder, ns=(OLD, OLD))


def assert_same_report(a: Report, b: Report) -> None:
    assert a.findings == b.findings
    assert {k: v for k, v in a.stats.items() if k != "scan"} == {k: v for k, v in b.stats.items() if k != "scan"}
    assert list(a.images) == list(b.images) and len(a.images) == len(b.images)
    assert a.names == b.names and a.ok == b.ok


def varied(root: Path) -> Path:
    twin, leak = image_bytes(), image_bytes()
    train = {f"t{i}": "".join(f"{(i + k) % 3} 0.{k + 1} 0.5 0.{k + 1} 0.2\n" for k in range(i % 4)) for i in range(24)}
    train.update({
        "dup_a": (twin, BOX), "dup_b": (twin, "1 .5 .5 .1 .1\n"), "leak": (leak, BOX),
        "range": "0 .5 .5 .2 .2\n3 .5 .5 .1 .1\n", "bg": None, "bad": (b"not an image", BOX),
        "poly": "1 0.1 0.1 0.4 0.1 0.4 0.5 0.1 0.5\n", "nan": "0 nan .5 .1 .1\n",
        "wide": (image_bytes(size=(64, 16)), BOX),
    })
    val = {"v1": BOX, "v2": "2 .3 .3 .2 .1\n", "leakv": (leak, "1 .2 .2 .1 .1\n")}
    yaml_file = build(root, train=train, val=val, yaml_text=f"path: {root}\ntrain: images/train\nval: images/val\n"
                                                             "names: [a, b, c]\n")
    (root / "labels" / "train" / "orphan.txt").write_text(BOX)
    age_folders(root)
    return yaml_file


def touch(path: Path, text: str) -> None:
    path.write_text(text)
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 7))


def test_recheck_reports_exactly_what_a_full_check_reports(tmp_path):
    root = tmp_path / "ds"
    yaml_file = varied(root)
    cache = tmp_path / "cache"
    first = validate_dataset(yaml_file, cache_dir=cache)
    assert_same_report(first, validate_dataset(yaml_file))
    assert {"image-duplicate", "train-val-leak", "label-class-range", "label-missing", "image-corrupt", "label-nan",
            "label-orphan"} <= {f.code for f in first.findings}
    unchanged = validate_dataset(yaml_file, cache_dir=cache)
    assert unchanged.scan.read == 0
    assert_same_report(unchanged, first)

    touch(root / "labels" / "train" / "t5.txt", "2 .5 .5 .3 .3\n2 .5 .5 .3 .3\n")  # written in place: the
    touch(root / "labels" / "train" / "range.txt", "0 .5 .5 .2 .2\n")  # folders keep their mtime
    edited = validate_dataset(yaml_file, cache_dir=cache)
    assert edited.scan.read == 2
    assert_same_report(edited, validate_dataset(yaml_file))
    assert "label-class-range" not in {f.code for f in edited.findings}

    (root / "images" / "train" / "t9.png").unlink()  # a deleted image (its label becomes an orphan)
    (root / "images" / "train" / "new.png").write_bytes(image_bytes(size=(48, 48)))  # a new one, no label
    (root / "labels" / "train" / "orphan.txt").unlink()  # an orphan moved aside
    (root / "images" / "val" / "copy.png").write_bytes((root / "images" / "train" / "dup_a.png").read_bytes())
    again = validate_dataset(yaml_file, cache_dir=cache)
    assert (again.scan.read, again.scan.total) == (2, len(first.images) + 1)  # -t9, +new, +copy
    assert_same_report(again, validate_dataset(yaml_file))
    assert [f.file for f in again.findings if f.code == "label-orphan"] == [str(root / "labels" / "train" / "t9.txt")]
    duplicates = [f.file for f in again.findings if f.code == "image-duplicate"]
    assert duplicates == [str(root / "images" / "train" / "dup_b.png")]

    (root / "data.yaml").write_text(f"path: {root}\ntrain: images/train\nval: images/val\nnames: [a, b]\n")
    renamed = validate_dataset(yaml_file, cache_dir=cache)  # class ids judged against the new names
    assert renamed.scan.read == 0
    assert_same_report(renamed, validate_dataset(yaml_file))
    assert "label-class-range" in {f.code for f in renamed.findings}


def test_only_the_changed_file_of_a_pair_is_read(tmp_path, monkeypatch):
    yaml_file = build(tmp_path, train={f"t{i}": BOX for i in range(10)})
    cache = tmp_path / "cache"
    validate_dataset(yaml_file, cache_dir=cache)
    read: list[str] = []
    real_image, real_label = scan_module.check_image, scan_module.check_label
    monkeypatch.setattr(scan_module, "check_image", lambda p: read.append(p) or real_image(p))
    monkeypatch.setattr(scan_module, "check_label", lambda p: read.append(p) or real_label(p))
    touch(tmp_path / "labels" / "train" / "t4.txt", BOX + "1 .2 .2 .1 .1\n")
    report = validate_dataset(yaml_file, cache_dir=cache)
    assert read == [str(tmp_path / "labels" / "train" / "t4.txt")]
    assert report.stats["splits"]["train"]["instances"] == 11
    read.clear()
    image = tmp_path / "images" / "train" / "t2.png"
    image.write_bytes(image_bytes(size=(40, 30)))
    report = validate_dataset(yaml_file, cache_dir=cache)
    assert read == [str(image)] and "40x30" in report.stats["image_sizes"]


def test_folder_listings_are_reused_only_when_the_folder_is_old_enough(tmp_path, monkeypatch):
    yaml_file = build(tmp_path, train={f"t{i}": BOX for i in range(5)})
    cache = tmp_path / "cache"
    validate_dataset(yaml_file, cache_dir=cache)  # folders made this second: listed, but not trusted later
    folder = tmp_path / "images" / "train"
    before = folder.stat().st_mtime_ns
    (folder / "late.png").write_bytes(image_bytes())
    os.utime(folder, ns=(before, before))  # a change in the same clock tick as the listing: mtime unchanged
    assert validate_dataset(yaml_file, cache_dir=cache).scan.total == 7  # still noticed

    age_folders(tmp_path)
    validate_dataset(yaml_file, cache_dir=cache)
    monkeypatch.setattr(files, "_classify", lambda folder: pytest.fail("an unchanged folder was listed again"))
    assert validate_dataset(yaml_file, cache_dir=cache).scan.total == 7
    monkeypatch.undo()
    (folder / "later.png").write_bytes(image_bytes())  # the folder's mtime moves on: listed again
    assert validate_dataset(yaml_file, cache_dir=cache).scan.total == 8
    assert dirs.MARGIN_NS >= 2 * 10**9  # covers the coarsest common file-system clock (FAT: 2 s)


def test_a_damaged_cache_is_ignored(tmp_path):
    yaml_file = build(tmp_path)
    cache = tmp_path / "cache"
    first = validate_dataset(yaml_file, cache_dir=cache)
    for path in cache.iterdir():
        path.write_bytes(b"YOLOSTUDIO-SCAN-TABLE\n\xff\xff garbage")
    again = validate_dataset(yaml_file, cache_dir=cache)
    assert again.scan.read == again.scan.total == 3
    assert_same_report(again, first)


def test_a_cancelled_check_keeps_what_it_read(tmp_path):
    yaml_file = build(tmp_path, train={f"t{i}": BOX for i in range(80)})
    cache = tmp_path / "cache"
    calls = []
    with pytest.raises(ScanCancelled):
        validate_dataset(yaml_file, cache_dir=cache, workers=1, cancelled=lambda: calls.append(1) or len(calls) > 1)
    resumed = validate_dataset(yaml_file, cache_dir=cache, workers=1)
    assert (resumed.scan.read, resumed.scan.total) == (81 - 32, 81)
    assert_same_report(resumed, validate_dataset(yaml_file))


def test_stat_helper_gives_what_stat_gives_and_falls_back(tmp_path, monkeypatch):
    from core.dataset import statkeys

    paths = []
    for i in range(40):
        path = tmp_path / f"f{i}.txt"
        path.write_text("x" * i)
        paths.append(str(path))
    paths += [str(tmp_path / "missing.txt"), str(tmp_path / "caf\udce9.txt")]  # absent; not valid UTF-8
    expected = [[os.stat(p).st_size, os.stat(p).st_mtime_ns] if os.path.exists(p) else [-1, -1] for p in paths]
    monkeypatch.setattr(statkeys, "HELPER_MIN", 10)
    monkeypatch.setattr(statkeys, "_helper_possible", lambda: True)
    assert statkeys.stat_pairs(paths).tolist() == expected  # half of them stat'ed by the helper process
    helper = statkeys._Helper(paths)  # and it really delivers
    deadline = time.monotonic() + 30
    while helper.done < len(paths) and not helper.failed and time.monotonic() < deadline:
        time.sleep(0.01)
    assert helper.stop(len(paths)).tolist() == expected
    monkeypatch.setattr(statkeys.sys, "executable", str(tmp_path / "no-python-here"))
    assert statkeys.stat_pairs(paths).tolist() == expected  # the helper cannot start: all stat'ed here
    keys = statkeys.stat_keys(paths[:21], paths[21:])
    assert keys.shape == (21, 4) and keys[:, :2].tolist() == expected[:21] and keys[:, 2:].tolist() == expected[21:]


def test_a_check_in_another_language_does_not_show_the_cached_words_of_the_first(tmp_path):
    from core import i18n

    yaml_file = build(tmp_path / "ds", train={"t1": BOX, "t2": "0 0.5 0.5 0.2 1.5\n"})
    cache = tmp_path / "cache"
    before = i18n.language()
    try:
        i18n.set_language("en")
        [english] = [f.message for f in validate_dataset(yaml_file, cache_dir=cache).findings
                     if f.code == "label-not-normalized"]
        i18n.set_language("zh_CN")
        [chinese] = [f.message for f in validate_dataset(yaml_file, cache_dir=cache).findings
                     if f.code == "label-not-normalized"]
    finally:
        i18n.set_language(before)
    assert english != chinese and "yolov5" in chinese and "Values outside" not in chinese
