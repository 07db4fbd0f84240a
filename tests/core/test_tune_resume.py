"""A resumed search runs with the settings it started with (core.tune.resume, the door core.usecases.tune):
the request's differing dataset, epochs or budget are listed in a warning and never applied (issue 32)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from core.demo.dataset import DemoSpec, generate_demo_dataset
from core.training.options import TrainConfig
from core.tune.folder import TuneFolder
from core.usecases.tune import TuneDoor


@pytest.fixture(scope="module")
def datasets(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("data")
    spec = DemoSpec(n_train=4, n_val=2, image_size=64, seed=3)
    return generate_demo_dataset(root / "first", spec), generate_demo_dataset(root / "other", spec)


def config(data: Path, epochs: int) -> TrainConfig:
    return TrainConfig.from_dict({"data": str(data), "model": "yolov5n.yaml", "epochs": epochs, "imgsz": 64,
                                  "device": "cpu"})


def stopped_search(workspace: Path, data: Path) -> str:
    """A search started (its spec.json written by the door) and stopped (Ray's state, recorded as the app's)."""
    door = TuneDoor(config(data, 3), workspace, 600.0, trials=4)
    assert door.ok, door.preflight()
    door.spec().write()
    folder = TuneFolder(door.tune_dir)
    folder.experiment.mkdir()
    folder.tuner_state.write_bytes(pickle.dumps({}))
    folder.record_state(workspace)
    return folder.name


def test_a_resume_keeps_the_searchs_dataset_and_says_what_differed(tmp_path, datasets):
    first, other = datasets
    name = stopped_search(tmp_path, first)
    door = TuneDoor(config(other, 5), tmp_path, 3600.0, trials=9, resume=name)
    problems = door.preflight()
    assert door.ok
    (warning,) = [p for p in problems if "resumes with the settings it started with" in p.message]
    assert not warning.is_error and str(other) in warning.message and str(first) in warning.message
    assert "epochs: 3 (given: 5)" in warning.message and "trials: 4 (given: 9)" in warning.message
    spec = door.spec().spec
    assert spec["resume"] is True and spec["base"]["config"]["data"] == str(first)
    assert spec["base"]["config"]["epochs"] == 3 and spec["time_budget_s"] == 600.0 and spec["trials"] == 4


def test_a_resume_as_started_has_nothing_to_say(tmp_path, datasets):
    first, _ = datasets
    name = stopped_search(tmp_path, first)
    door = TuneDoor(config(first, 3), tmp_path, 600.0, trials=4, resume=name)
    assert door.ok and not [p for p in door.preflight() if "resumes with" in p.message]


def test_a_search_without_its_record_is_refused(tmp_path, datasets):
    first, _ = datasets
    name = stopped_search(tmp_path, first)
    (tmp_path / "tune" / name / "spec.json").unlink()
    door = TuneDoor(config(first, 3), tmp_path, 600.0, resume=name)
    assert not door.ok and "spec.json" in door.preflight()[0].message
