"""The prepared copy: sizes, labels, orientation, resume after an interruption, up-to-date skip, the CLI verb."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from PIL import Image

from cli.main import main
from core.dataset.prepare import (DATA_YAML, JOURNAL, PrepareCancelled, PrepareError, default_out_dir,
                                  find_prepared, prepare_dataset, prepared_size)
from core.dataset.validate import validate_dataset

BOX = "0 0.5 0.5 0.2 0.2\n"


def dataset(root: Path, sizes: dict[str, tuple[int, int]], split_of=lambda name: "train") -> Path:
    for name, (w, h) in sizes.items():
        split = split_of(name)
        (root / "images" / split).mkdir(parents=True, exist_ok=True)
        (root / "labels" / split).mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (w, h), (200, 30, 30)).save(root / "images" / split / f"{name}.jpg", quality=90)
        (root / "labels" / split / f"{name}.txt").write_text(BOX)
    (root / "images" / "train").mkdir(parents=True, exist_ok=True)
    (root / "labels" / "train").mkdir(parents=True, exist_ok=True)
    (root / "images" / "val").mkdir(parents=True, exist_ok=True)
    (root / "labels" / "val").mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (64, 48)).save(root / "images" / "val" / "v.jpg")
    (root / "labels" / "val" / "v.txt").write_text(BOX)
    data = root / "data.yaml"
    data.write_text("path: .\ntrain: images/train\nval: images/val\nnames: [thing]\n")
    return data


@pytest.mark.parametrize(("size", "imgsz", "expected"), [
    ((4000, 3000), 640, (640, 480)), ((3000, 4000), 640, (480, 640)), ((1281, 721), 640, (640, 361)),
    ((320, 200), 640, (320, 200)), ((640, 640), 640, (640, 640))])
def test_long_side_becomes_imgsz_never_upscaled_rounded_like_yolov5(size, imgsz, expected):
    assert prepared_size(*size, imgsz) == expected


def test_copy_is_resized_labels_unchanged_and_validates_clean(tmp_path):
    data = dataset(tmp_path / "ds", {"big": (2000, 1500), "small": (100, 80)})
    result = prepare_dataset(data, 128, tmp_path / "out", workers=2)
    assert result.written == 3 and not result.failed and not result.up_to_date
    spec = yaml.safe_load(result.data_yaml.read_text())
    assert spec["names"] == {0: "thing"} and spec["prepared_from"] == str(data.absolute())
    with Image.open(tmp_path / "out" / "images" / "train" / "big.jpg") as im:
        assert im.size == (128, 96)
    with Image.open(tmp_path / "out" / "images" / "train" / "small.jpg") as im:
        assert im.size == (100, 80)
    assert (tmp_path / "out" / "labels" / "train" / "big.txt").read_text() == BOX
    report = validate_dataset(result.data_yaml)
    assert report.ok and report.stats["splits"]["train"]["images"] == 2, report.findings


def test_exif_rotation_is_applied_as_cv2_reads_the_original(tmp_path):
    data = dataset(tmp_path / "ds", {})
    image = tmp_path / "ds" / "images" / "train" / "turned.jpg"
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90: shown as 300 wide x 400 high
    Image.new("RGB", (400, 300)).save(image, exif=exif)
    (tmp_path / "ds" / "labels" / "train" / "turned.txt").write_text(BOX)
    prepare_dataset(data, 200, tmp_path / "out", workers=1)
    with Image.open(tmp_path / "out" / "images" / "train" / "turned.jpg") as im:
        assert im.size == (150, 200) and im.getexif().get(0x0112, 1) == 1


def test_interrupted_copy_is_not_usable_and_resumes(tmp_path):
    data = dataset(tmp_path / "ds", {f"i{n}": (300, 200) for n in range(12)})
    out = tmp_path / "out"
    calls = []

    def cancel_after_some() -> bool:
        calls.append(1)
        return len(calls) >= 1

    with pytest.raises(PrepareCancelled):
        prepare_dataset(data, 64, out, workers=1, cancelled=cancel_after_some)
    assert not (out / DATA_YAML).exists() and (out / JOURNAL).exists()
    assert find_prepared(data, 64, tmp_path) is None
    result = prepare_dataset(data, 64, out, workers=1)
    assert result.resumed >= 1 and result.resumed + result.written == 13
    assert (out / DATA_YAML).is_file() and not (out / JOURNAL).exists()


def test_up_to_date_copy_is_skipped_and_a_changed_source_redone(tmp_path):
    data = dataset(tmp_path / "ds", {"a": (300, 200), "b": (300, 200)})
    out = default_out_dir(tmp_path / "cache", data, 64, "jpg")
    prepare_dataset(data, 64, out)
    assert find_prepared(data, 64, tmp_path / "cache") == out / DATA_YAML
    again = prepare_dataset(data, 64, out)
    assert again.up_to_date and again.written == 0
    (tmp_path / "ds" / "labels" / "train" / "a.txt").write_text("0 0.4 0.4 0.1 0.1\n")
    assert find_prepared(data, 64, tmp_path / "cache") is None  # a changed label makes the copy stale
    redo = prepare_dataset(data, 64, out)
    assert redo.written == 1 and redo.resumed == 2
    assert (out / "labels" / "train" / "a.txt").read_text() == "0 0.4 0.4 0.1 0.1\n"
    assert find_prepared(data, 128, tmp_path / "cache") is None  # another size is another copy


def test_unreadable_image_is_copied_as_it_is_and_named(tmp_path):
    data = dataset(tmp_path / "ds", {"a": (300, 200)})
    (tmp_path / "ds" / "images" / "train" / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 not really a JPEG")
    (tmp_path / "ds" / "labels" / "train" / "broken.txt").write_text(BOX)
    result = prepare_dataset(data, 64, tmp_path / "out")
    [(image, _reason)] = result.failed
    assert image.endswith("broken.jpg")
    assert (tmp_path / "out" / "images" / "train" / "broken.jpg").read_bytes() == b"\xff\xd8\xff\xe0 not really a JPEG"


def test_broken_data_yaml_is_refused_with_its_reason(tmp_path):
    bad = tmp_path / "data.yaml"
    bad.write_text("train: images\nnames: []\n")
    with pytest.raises(PrepareError, match="data.yaml"):
        prepare_dataset(bad, 64, tmp_path / "out")


def test_cli_prepare_json_then_up_to_date(tmp_path, capsys):
    data = dataset(tmp_path / "ds", {"a": (900, 600)})
    argv = ["--workspace", str(tmp_path / "ws"), "dataset", "prepare", str(data), "--imgsz", "96", "--json"]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["written"] == 2 and Path(first["data_yaml"]).is_file()
    assert main(argv[:-1]) == 0
    assert "Up to date" in capsys.readouterr().out
    assert main(["dataset", "prepare", str(tmp_path / "nope.yaml")]) == 2
