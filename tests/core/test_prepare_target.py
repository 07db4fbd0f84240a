"""Where ``dataset prepare`` may write its copy, and what a full disk leaves behind (issue 23).

Found by the fault campaign (``bench/faults_values.py`` counts each): ``--out`` the dataset's own folder
rewrote every original image and replaced the user's data.yaml, exit 0; any non-empty folder had its
data.yaml and train.txt replaced; a full disk said a bare "[Errno 28]" and left the disk full."""

from __future__ import annotations

import errno
import hashlib
import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from cli.main import main
from core.dataset import prepare as prepare_module
from core.dataset.prepare import JOURNAL, PrepareCancelled, PrepareError, default_out_dir, prepare_dataset
from tests.worker.tmpfs import small_tmpfs

BOX = "0 0.5 0.5 0.2 0.2\n"


def dataset(root: Path, n: int = 3, size: tuple[int, int] = (300, 200), noise: bool = False) -> Path:
    rng = np.random.default_rng(0)
    for split, count in (("train", n), ("val", 1)):
        (root / "images" / split).mkdir(parents=True, exist_ok=True)
        (root / "labels" / split).mkdir(parents=True, exist_ok=True)
        for i in range(count):
            pixels = rng.integers(0, 255, (size[1], size[0], 3), dtype=np.uint8) if noise else \
                np.full((size[1], size[0], 3), 90, dtype=np.uint8)
            Image.fromarray(pixels).save(root / "images" / split / f"{split}{i}.jpg", quality=90)
            (root / "labels" / split / f"{split}{i}.txt").write_text(BOX)
    data = root / "data.yaml"
    data.write_text("path: .\ntrain: images/train\nval: images/val\nnames: [thing]\n")
    return data


def fingerprint(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("where", [".", "images", "images/train", "labels/train", "prepared", "link"])
def test_an_output_inside_or_equal_to_the_dataset_is_refused_and_nothing_changes(tmp_path, where):
    data = dataset(tmp_path / "ds")
    before = fingerprint(tmp_path / "ds")
    out = tmp_path / "ds" / where
    if where == "link":
        out = tmp_path / "link"
        out.symlink_to(tmp_path / "ds", target_is_directory=True)  # links followed: the link is the dataset
    with pytest.raises(PrepareError, match="(is|inside) the dataset's own folder"):
        prepare_dataset(data, 64, out)
    assert fingerprint(tmp_path / "ds") == before


def test_an_output_in_a_listed_image_folder_outside_the_root_is_refused(tmp_path):
    data = dataset(tmp_path / "ds")
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "images").mkdir(parents=True)
    Image.new("RGB", (64, 48)).save(elsewhere / "images" / "x.jpg")
    (tmp_path / "ds" / "list.txt").write_text(f"{elsewhere / 'images' / 'x.jpg'}\n")
    data.write_text("path: .\ntrain: [images/train, list.txt]\nval: images/val\nnames: [thing]\n")
    with pytest.raises(PrepareError, match="(is|inside) the dataset's own folder"):
        prepare_dataset(data, 64, elsewhere / "images" / "copy")


def test_a_non_empty_folder_that_is_not_a_copy_of_this_dataset_is_refused(tmp_path):
    data = dataset(tmp_path / "ds")
    other = dataset(tmp_path / "other")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "data.yaml").write_text("my own\n")
    (mine / "train.txt").write_text("my list\n")
    with pytest.raises(PrepareError, match="not empty and is not a prepared copy"):
        prepare_dataset(data, 64, mine)
    assert (mine / "data.yaml").read_text() == "my own\n" and (mine / "train.txt").read_text() == "my list\n"
    copy_of_other = tmp_path / "copy-of-other"
    prepare_dataset(other, 64, copy_of_other)
    with pytest.raises(PrepareError, match="not a prepared copy"):
        prepare_dataset(data, 64, copy_of_other)
    (tmp_path / "afile").write_text("x")
    with pytest.raises(PrepareError, match="is a file"):
        prepare_dataset(data, 64, tmp_path / "afile")


def test_an_earlier_copy_of_the_same_source_is_updated_finished_or_interrupted(tmp_path):
    data = dataset(tmp_path / "ds")
    out = tmp_path / "out"
    assert prepare_dataset(data, 64, out).written == 4
    assert prepare_dataset(data, 64, out).up_to_date
    assert prepare_dataset(data, 96, out).written == 4  # another size into the same copy: redone there
    calls = []

    def cancel_after_first() -> bool:
        calls.append(1)
        return True

    with pytest.raises(PrepareCancelled):
        prepare_dataset(data, 128, out, workers=1, cancelled=cancel_after_first)
    assert (out / JOURNAL).is_file() and not (out / "data.yaml").exists()  # interrupted: only its journal says
    result = prepare_dataset(data, 128, out)
    assert result.resumed >= 1 and result.data_yaml.is_file()


def test_the_apps_own_place_may_lie_inside_the_dataset(tmp_path):
    data = dataset(tmp_path / "ds")
    out = default_out_dir(tmp_path / "ds" / "ws" / ".cache", data, 64, "jpg")  # a workspace inside the dataset
    assert prepare_dataset(data, 64, out).data_yaml.is_file()


def test_the_cli_refuses_the_datasets_own_folder_with_exit_2(tmp_path, capsys):
    data = dataset(tmp_path / "ds")
    before = fingerprint(tmp_path / "ds")
    code = main(["--workspace", str(tmp_path / "ws"), "dataset", "prepare", str(data), "--imgsz", "64",
                 "--out", str(tmp_path / "ds")])
    err = capsys.readouterr().err
    assert code == 2 and "the dataset's own folder" in err and "Traceback" not in err
    assert fingerprint(tmp_path / "ds") == before


def test_a_full_disk_mid_copy_removes_the_copy_and_says_the_space_needed(tmp_path, monkeypatch):
    data = dataset(tmp_path / "ds", n=8)
    before = fingerprint(tmp_path / "ds")
    out = tmp_path / "out"
    real = prepare_module._resize_one
    count = [0]

    def fills_the_disk(item, out_dir, imgsz, fmt):
        count[0] += 1
        if count[0] <= 3:
            return real(item, out_dir, imgsz, fmt)
        stuck = out_dir / "images" / "train" / f".{Path(item.source).name}.tmp"
        stuck.parent.mkdir(parents=True, exist_ok=True)
        stuck.write_bytes(b"")  # what a write cut short by ENOSPC leaves
        raise OSError(errno.ENOSPC, "No space left on device", str(stuck))

    monkeypatch.setattr(prepare_module, "_resize_one", fills_the_disk)
    with pytest.raises(PrepareError) as refused:
        prepare_dataset(data, 64, out, workers=1)
    message = str(refused.value)
    assert "No space left on device" in message and "needs about" in message and "[Errno" not in message
    assert "removed" in message
    assert not [p for p in out.rglob("*") if p.is_file()] if out.exists() else True  # nothing left behind
    assert fingerprint(tmp_path / "ds") == before


def test_a_real_full_disk_leaves_no_files_and_no_temporaries(tmp_path):
    data = dataset(tmp_path / "ds", n=12, size=(600, 400), noise=True)
    with small_tmpfs(tmp_path / "small", 1) as disk:
        if disk is None:
            pytest.skip("cannot mount a tmpfs here (needs root on Linux)")
        with pytest.raises(PrepareError, match="No space left on device"):
            prepare_dataset(data, 640, disk / "copy", workers=2)
        left = [p for p in disk.rglob("*") if p.is_file()]
        assert left == [], left
        assert os.statvfs(disk).f_bfree * os.statvfs(disk).f_frsize > 900 * 1024  # the space is given back
