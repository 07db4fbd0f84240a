"""The demo dataset on disk: YOLO-format correctness, determinism, reuse, safety and cancellation."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml
from PIL import Image

from core.demo.dataset import (
    DEMO_CLASSES,
    MANIFEST_NAME,
    DemoCancelled,
    DemoSpec,
    ensure_demo_dataset,
    generate_demo_dataset,
)

SMALL = DemoSpec(n_train=12, n_val=4, image_size=96, seed=3)


def _hashes(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != "data.yaml"  # data.yaml names its own absolute path
    }


def _labels(root: Path, split: str) -> dict[str, list[list[float]]]:
    return {
        p.stem: [[float(v) for v in line.split()] for line in p.read_text().splitlines()]
        for p in sorted((root / "labels" / split).glob("*.txt"))
    }


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ws") / "demo"
    generate_demo_dataset(root, SMALL)
    return root


def test_layout_and_counts_match_the_spec(small: Path) -> None:
    for split, n in (("train", SMALL.n_train), ("val", SMALL.n_val)):
        images = sorted(p.stem for p in (small / "images" / split).iterdir())
        labels = sorted(p.stem for p in (small / "labels" / split).iterdir())
        assert len(images) == n
        assert images == labels
        for p in (small / "images" / split).iterdir():
            with Image.open(p) as im:
                assert im.size == (SMALL.image_size, SMALL.image_size)
                assert im.mode == "RGB"
    assert not [p for p in small.parent.iterdir() if p.name != "demo"], "no temp folders left beside it"


def test_labels_are_valid_yolo_and_cover_every_class(small: Path) -> None:
    for split in ("train", "val"):
        seen = set()
        for stem, rows in _labels(small, split).items():
            text = (small / "labels" / split / f"{stem}.txt").read_text()
            for line in text.splitlines():
                cls, *vals = line.split()
                assert len(vals) == 4 and all(len(v.split(".")[1]) == 6 for v in vals), line
            for cls, cx, cy, w, h in rows:
                assert cls == int(cls) and 0 <= cls < len(DEMO_CLASSES)
                assert 0 < w <= 1 and 0 < h <= 1
                assert 0 <= cx - w / 2 + 1e-6 and cx + w / 2 - 1e-6 <= 1
                assert 0 <= cy - h / 2 + 1e-6 and cy + h / 2 - 1e-6 <= 1
                assert 0.1 <= max(w, h) <= 0.7  # objects are sized for a tiny model at a tiny imgsz
                seen.add(int(cls))
            assert len(rows) <= 4
        assert seen == set(range(len(DEMO_CLASSES))), split


def test_data_yaml_is_what_yolov5_expects(small: Path) -> None:
    text = (small / "data.yaml").read_text(encoding="utf-8")
    assert text.startswith("#") and "YOLO Studio" in text.splitlines()[0]
    data = yaml.safe_load(text)
    assert data == {
        "path": str(small.resolve()),
        "train": "images/train",
        "val": "images/val",
        "nc": len(DEMO_CLASSES),
        "names": list(DEMO_CLASSES),
    }
    manifest = json.loads((small / MANIFEST_NAME).read_text())
    assert manifest["format_version"] >= 1
    assert manifest["spec"] == {"n_train": 12, "n_val": 4, "image_size": 96, "seed": 3}


def test_boxes_are_tight_around_drawn_shapes(tmp_path: Path) -> None:
    """For each box clear of the others, pixels of the shape's colour (sampled at the box centre) reach to
    within a few pixels of every side (sharp triangle tips are anti-aliased away) and no further."""
    spec = DemoSpec(n_train=64, n_val=4, image_size=128, seed=7)
    root = generate_demo_dataset(tmp_path / "demo", spec).parent
    gaps = []
    for stem, rows in _labels(root, "train").items():
        with Image.open(root / "images" / "train" / f"{stem}.jpg") as im:
            px = np.asarray(im.convert("RGB"), dtype=np.float32)
        size = px.shape[0]
        boxes = [
            tuple(round(v * size) for v in (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
            for _, cx, cy, w, h in rows
        ]
        for i, (x0, y0, x1, y1) in enumerate(boxes):
            others = [b for j, b in enumerate(boxes) if j != i]
            if min(x0, y0) < 5 or max(x1, y1) > size - 5 or any(
                not (b[2] < x0 - 5 or b[0] > x1 + 5 or b[3] < y0 - 5 or b[1] > y1 + 5) for b in others
            ):
                continue
            my, mx = (y0 + y1) // 2, (x0 + x1) // 2
            colour = px[my - 1 : my + 2, mx - 1 : mx + 2].mean(axis=(0, 1))
            window = px[y0 - 4 : y1 + 4, x0 - 4 : x1 + 4]  # the box plus a 4 px margin
            ys, xs = np.nonzero(np.abs(window - colour).sum(axis=2) < 80)
            gaps.append((xs.min() - 4, ys.min() - 4, x1 - x0 + 3 - xs.max(), y1 - y0 + 3 - ys.max()))
    assert len(gaps) >= 20, len(gaps)
    assert all(-1 <= g <= 3 for box in gaps for g in box), gaps


def test_same_spec_gives_byte_identical_files(small: Path, tmp_path: Path) -> None:
    again = generate_demo_dataset(tmp_path / "other", SMALL).parent
    assert _hashes(again) == _hashes(small)
    other_seed = DemoSpec(n_train=12, n_val=4, image_size=96, seed=4)
    assert _hashes(generate_demo_dataset(tmp_path / "seeded", other_seed).parent) != _hashes(small)


def test_second_call_reuses_the_dataset(tmp_path: Path) -> None:
    root = tmp_path / "demo"
    first = generate_demo_dataset(root, SMALL)
    (root / "labels" / "train.cache").write_bytes(b"yolov5 writes label caches beside the labels")
    before = {p: p.stat().st_mtime_ns for p in root.rglob("*")}
    assert generate_demo_dataset(root, SMALL) == first
    assert {p: p.stat().st_mtime_ns for p in root.rglob("*")} == before


def test_a_different_or_damaged_dataset_of_ours_is_replaced(tmp_path: Path) -> None:
    root = tmp_path / "demo"
    generate_demo_dataset(root, SMALL)
    generate_demo_dataset(root, DemoSpec(n_train=6, n_val=3, image_size=64, seed=1))
    assert len(list((root / "images" / "train").iterdir())) == 6
    (root / "labels" / "val" / "val_00001.txt").unlink()  # damaged: must be rebuilt, not reused
    generate_demo_dataset(root, DemoSpec(n_train=6, n_val=3, image_size=64, seed=1))
    assert (root / "labels" / "val" / "val_00001.txt").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo"]


def test_moved_dataset_gets_its_path_fixed(tmp_path: Path) -> None:
    generate_demo_dataset(tmp_path / "a" / "demo", SMALL)
    (tmp_path / "a").rename(tmp_path / "b")
    data_yaml = generate_demo_dataset(tmp_path / "b" / "demo", SMALL)
    assert yaml.safe_load(data_yaml.read_text())["path"] == str((tmp_path / "b" / "demo").resolve())


def test_foreign_folder_is_never_touched(tmp_path: Path) -> None:
    root = tmp_path / "demo"
    (root / "images").mkdir(parents=True)
    (root / "images" / "holiday.jpg").write_bytes(b"precious")
    (root / "notes.txt").write_text("mine")
    with pytest.raises(FileExistsError, match="demo"):
        generate_demo_dataset(root, SMALL)
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == [
        "images",
        "images/holiday.jpg",
        "notes.txt",
    ]
    assert (root / "images" / "holiday.jpg").read_bytes() == b"precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo"]


def test_empty_folder_and_abandoned_temp_are_fine(tmp_path: Path) -> None:
    (tmp_path / "demo").mkdir()
    abandoned = tmp_path / ".demo.partial-deadbeef"
    (abandoned / "images").mkdir(parents=True)
    (abandoned / ".demo-partial").touch()
    stranger = tmp_path / ".demo.partial-notours"  # looks like ours but has no marker: left alone
    stranger.mkdir()
    (stranger / "x").write_text("x")
    generate_demo_dataset(tmp_path / "demo", SMALL)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".demo.partial-notours", "demo"]


def test_cancel_leaves_nothing_behind(tmp_path: Path) -> None:
    calls: list[tuple[int, int]] = []
    with pytest.raises(DemoCancelled):
        generate_demo_dataset(
            tmp_path / "demo",
            SMALL,
            progress=lambda d, t: calls.append((d, t)),
            cancelled=lambda: len(calls) >= 5,
        )
    assert calls and calls[-1][0] < calls[-1][1]
    assert list(tmp_path.iterdir()) == []


def test_cancel_keeps_an_existing_dataset(tmp_path: Path) -> None:
    root = tmp_path / "demo"
    generate_demo_dataset(root, SMALL)
    before = _hashes(root)
    with pytest.raises(DemoCancelled):
        generate_demo_dataset(root, DemoSpec(n_train=6, n_val=3, seed=9), cancelled=lambda: True)
    assert _hashes(root) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo"]


def test_progress_is_monotonic_bounded_and_reaches_total(tmp_path: Path) -> None:
    calls: list[tuple[int, int]] = []
    spec = DemoSpec(n_train=180, n_val=30, image_size=32)
    generate_demo_dataset(tmp_path / "demo", spec, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (210, 210)
    assert all(t == 210 for _, t in calls)
    assert [d for d, _ in calls] == sorted({d for d, _ in calls})
    assert len(calls) <= 110


def test_ensure_demo_dataset_uses_workspace_demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import core.demo.dataset as demo

    monkeypatch.setattr(demo, "DemoSpec", lambda: SMALL)  # keep the test fast; the path logic is what matters
    data_yaml = ensure_demo_dataset(tmp_path)
    assert data_yaml == (tmp_path / "demo" / "data.yaml").resolve()
    assert data_yaml.is_file()
    assert ensure_demo_dataset(tmp_path) == data_yaml


def test_default_spec_is_small_and_fast_to_learn() -> None:
    spec = DemoSpec()
    assert 100 <= spec.n_train <= 1000 and 16 <= spec.n_val <= spec.n_train
    assert spec.image_size <= 192


def test_imports_no_heavy_or_gui_modules() -> None:
    code = (
        "import sys, core.demo.dataset; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('cv2', 'torch', 'yolov5', 'PySide6')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_small_objects_spec_draws_small_boxes_and_the_default_manifest_is_unchanged(tmp_path):
    """``DemoSpec.object_size``/``max_objects`` (bench/gpu_augment.py --small-objects); a default spec's manifest
    names neither, so a demo dataset made before they existed is still recognised as complete."""
    small = DemoSpec(n_train=8, n_val=2, image_size=128, seed=3, object_size=(0.05, 0.1), max_objects=8)
    root = generate_demo_dataset(tmp_path / "small", small).parent
    sides = [max(float(w), float(h)) for f in (root / "labels" / "train").glob("*.txt")
             for _c, _x, _y, w, h in (line.split() for line in f.read_text().splitlines())]
    assert sides and max(sides) <= 0.1 + 2 / 128  # anti-aliased edges may add a pixel each side
    manifest = json.loads((root / MANIFEST_NAME).read_text())
    assert manifest["spec"]["object_size"] == [0.05, 0.1] and manifest["spec"]["max_objects"] == 8
    default_root = generate_demo_dataset(tmp_path / "default", SMALL).parent
    assert set(json.loads((default_root / MANIFEST_NAME).read_text())["spec"]) == {"n_train", "n_val", "image_size",
                                                                                    "seed"}
    before = _hashes(root), (root / MANIFEST_NAME).stat().st_ino
    generate_demo_dataset(tmp_path / "small", small)  # reused, not rebuilt: its manifest reads back equal
    assert (_hashes(root), (root / MANIFEST_NAME).stat().st_ino) == before
