"""``yolostudio wizard --save`` → ``yolostudio train --config``: a recommendation whose data path is a prepared copy
says so in the saved file, and train makes the copy (or refreshes it) before the run is created, says so, and
the run's spec trains on it. The worker itself is not started here (``tests/e2e/test_wizard_prepared_e2e.py``
trains for real); the run folder and its spec are."""

from __future__ import annotations

import json
import os
from pathlib import Path

from PIL import Image

from cli.main import main
from cli.verbs import train as train_verb
from core.job.jobs import JobOutcome
from core.runs.store import load_run_config
from core.wizard.prepared_copy import DOC_KEY, read_request
from tests.core.test_dataset_prepare import dataset


def wizard_doc(tmp_path: Path, capsys) -> tuple[Path, Path, Path]:
    data = dataset(tmp_path / "ds", {f"i{n}": (1600, 1200) for n in range(3)})
    saved, ws = tmp_path / "wizard.json", tmp_path / "ws"
    assert main(["--workspace", str(ws), "wizard", str(data), "--no-measure", "--device", "cpu", "--imgsz", "128",
                 "--save", str(saved)]) == 0
    capsys.readouterr()
    return data, saved, ws


def started_spec(monkeypatch) -> list[dict]:
    seen: list[dict] = []

    def render_job(renderer, door, **kwargs):
        seen.append(door.spec().spec)
        return JobOutcome("completed")

    monkeypatch.setattr(train_verb, "render_job", render_job)
    return seen


def test_the_saved_recommendation_names_its_copy_and_train_makes_it_first(tmp_path, capsys, monkeypatch):
    data, saved, ws = wizard_doc(tmp_path, capsys)
    doc = json.loads(saved.read_text())
    assert doc["data_choice"].startswith("prepared") and doc[DOC_KEY] == {"source": str(data.absolute()),
                                                                          "imgsz": 128, "format": "jpg"}
    request = read_request(saved)
    assert not request.data_yaml(ws).exists()  # not made by the wizard without --prepare
    commands = doc["commands"]  # copied elsewhere: make the copy first, then train on it, never the originals
    assert list(commands)[0] == "prepare" and f"--data {request.data_yaml(ws)}" in commands["yolov5"]
    seen = started_spec(monkeypatch)
    assert main(["--workspace", str(ws), "train", "--config", str(saved), "--epochs", "1"]) == 0
    out = capsys.readouterr()
    assert "Training on the prepared copy of" in out.out and "4 images resized now" in out.out
    copy = request.data_yaml(ws)
    assert copy.is_file() and seen[0]["resolved"]["data"] == str(copy)
    run = sorted((ws / "runs").iterdir())[-1]
    assert load_run_config(run)["spec"]["resolved"]["data"] == str(copy)  # recorded in the run: the copy trains
    with Image.open(copy.parent / "images" / "train" / "i0.jpg") as im:
        assert max(im.size) == 128


def test_a_changed_image_refreshes_the_copy_before_training(tmp_path, capsys, monkeypatch):
    data, saved, ws = wizard_doc(tmp_path, capsys)
    seen = started_spec(monkeypatch)
    assert main(["--workspace", str(ws), "train", "--config", str(saved), "--epochs", "1"]) == 0
    capsys.readouterr()
    changed = data.parent / "images" / "train" / "i1.jpg"
    Image.new("RGB", (1200, 1600), (10, 200, 10)).save(changed, quality=90)  # turned and green
    os.utime(changed, ns=(changed.stat().st_atime_ns, changed.stat().st_mtime_ns + 10**9))
    assert main(["--workspace", str(ws), "train", "--config", str(saved), "--epochs", "1"]) == 0
    out = capsys.readouterr().out
    assert "1 image resized now, 3 kept" in out  # only the changed one is redone (3 = the other two and val)
    copy = Path(seen[1]["resolved"]["data"])
    with Image.open(copy.parent / "images" / "train" / "i1.jpg") as im:
        assert im.size == (96, 128) and im.getpixel((48, 64))[1] > 150  # the new picture, not the stale one
    assert main(["--workspace", str(ws), "train", "--config", str(saved), "--epochs", "1"]) == 0
    assert "(images resized to 128 px; up to date)" in capsys.readouterr().out


def test_a_dataset_given_on_the_line_wins_and_train_says_the_copy_is_not_used(tmp_path, capsys, monkeypatch):
    _data, saved, ws = wizard_doc(tmp_path, capsys)
    other = dataset(tmp_path / "other", {"a": (320, 240)})
    seen = started_spec(monkeypatch)
    assert main(["--workspace", str(ws), "train", str(other), "--config", str(saved), "--epochs", "1"]) == 0
    assert "as given: the prepared copy" in capsys.readouterr().out
    assert seen[0]["config"]["data"] == str(other) and not read_request(saved).data_yaml(ws).exists()


def test_a_broken_copy_entry_is_refused_by_name(tmp_path, capsys):
    bad = tmp_path / "wizard.json"
    bad.write_text(json.dumps({"config": {"epochs": 1}, DOC_KEY: {"source": "/d.yaml", "imgsz": "big"}}))
    assert main(["--workspace", str(tmp_path / "ws"), "train", "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "prepared_copy" in err and "big" in err and "Save the options again" in err


def test_a_copy_whose_source_is_gone_exits_2_naming_it_and_starts_nothing(tmp_path, capsys, monkeypatch):
    data, saved, ws = wizard_doc(tmp_path, capsys)
    seen = started_spec(monkeypatch)
    data.unlink()
    assert main(["--workspace", str(ws), "train", "--config", str(saved)]) == 2
    err = capsys.readouterr().err
    assert str(data) in err and "yolostudio dataset check" in err
    assert not seen and not (ws / "runs").exists()
