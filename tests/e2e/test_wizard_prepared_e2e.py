"""The README's terminal path as a user types it, in a folder of large photos: ``yolostudio wizard data.yaml --save
wizard.json`` then ``yolostudio train --config wizard.json`` trains on the prepared copy the wizard recommends
(made first, said on the terminal, recorded in the run's spec), and after a photo changes the next run
refreshes the copy first — never stale pixels. Real CPU trainings of one epoch, the network refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from PIL import Image

from core.run.folder import RunFolder
from core.runs.store import load_run_config
from core.wizard.prepared_copy import read_request
from tests.core.test_dataset_prepare import dataset
from tests.e2e.conftest import ROOT, assert_offline

pytestmark = pytest.mark.e2e

YOLOSTUDIO = Path(sys.executable).with_name("yolostudio")  # the command the README types


def typed(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**env, "PYTHONPATH": os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])}
    return subprocess.run([str(YOLOSTUDIO), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=480)


def trained_on(workspace: Path, name: str) -> tuple[str, str]:
    """(the data.yaml the run's spec gave the worker, the one yolov5's own opt.yaml says it trained on)."""
    run = RunFolder(workspace / "runs" / name)
    opt = yaml.safe_load(run.opt_yaml.read_text(encoding="utf-8"))
    return load_run_config(run.path)["spec"]["resolved"]["data"], str(opt["data"])


def test_wizard_then_train_config_trains_on_the_fresh_prepared_copy(tmp_path, e2e_env, net_audit):
    folder = tmp_path / "photos"
    dataset(folder, {f"p{n}": (1600, 1200) for n in range(6)})  # large photos: decoding them would starve
    workspace = Path(e2e_env["YOLOSTUDIO_WORKSPACE"])
    wizard = typed(["wizard", "data.yaml", "--save", "wizard.json", "--no-measure", "--imgsz", "128"], e2e_env,
                   folder)
    assert wizard.returncode == 0, wizard.stderr
    request = read_request(folder / "wizard.json")
    assert request is not None and request.imgsz == 128 and request.source == folder / "data.yaml"
    copy = request.data_yaml(workspace)

    first = typed(["train", "--config", "wizard.json", "--epochs", "1", "--name", "first"], e2e_env, folder)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "Training on the prepared copy of" in first.stdout and "7 images resized now" in first.stdout
    assert trained_on(workspace, "first") == (str(copy), str(copy))
    assert (workspace / "runs" / "first" / "weights" / "last.pt").is_file()

    photo = folder / "images" / "train" / "p2.jpg"
    Image.new("RGB", (1200, 1600), (10, 200, 10)).save(photo, quality=90)  # another picture, after the copy
    os.utime(photo, ns=(photo.stat().st_atime_ns, photo.stat().st_mtime_ns + 10**9))
    second = typed(["train", "--config", "wizard.json", "--epochs", "1", "--name", "second"], e2e_env, folder)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "1 image resized now, 6 kept" in second.stdout
    assert trained_on(workspace, "second") == (str(copy), str(copy))
    with Image.open(copy.parent / "images" / "train" / "p2.jpg") as im:
        assert im.size == (96, 128) and im.getpixel((48, 64))[1] > 150  # the new photo, resized
    assert_offline(net_audit)
