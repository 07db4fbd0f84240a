"""Trust at the door, from provenance alone: what a stored file claims makes nothing trusted.

``evaluate RUN --split train --kfold K`` once built its fold trainings' spec from the ``trusted_weights`` /
``trusted_model`` of the run's own ``config.json``: a run folder copied in with a hostile start ``.pt`` listed as
trusted had it unpickled. And ``tune --resume NAME`` handed ``tune/NAME/ray/tuner.pkl`` to Ray's
``Tuner.restore`` (a ``pickle.loads``) with nothing proving the app wrote it, NAME accepting ``../``. Each case
here uses a real pickle whose payload writes a marker file when unpickled, and asserts it never ran.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from cli.main import main
from cli.verbs import tune as tune_verb
from core.tune.folder import TuneFolder
from tests.fixtures.checkpoint_files import write_hostile_checkpoint
from tests.fixtures.evaluable_run import evaluable_run


class NoWorker:
    """A worker must never be started here: every refusal comes first."""

    def __new__(cls, *args, **kwargs):  # type: ignore[misc]
        raise AssertionError("a worker was started for an untrusted file")


class Payload:
    """Unpickled, it writes its marker: the proof that code in the file ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self) -> tuple:
        return (Path.write_text, (Path(self.marker), "ran"))


def copied_run(tmp_path: Path, start: str, cfg: str) -> Path:
    """A run folder copied in, whose config.json claims its hostile start weights and model are trusted."""
    run, data = evaluable_run(tmp_path, train=6, val=2)
    config = {"data": str(data), "epochs": 3, "imgsz": 64, "batch": 4, "device": "cpu", "name": "exp"}
    spec = {"config": config, "resolved": {"data": str(data), "cfg": cfg, "weights": start, "hyp": "hyp.yaml"},
            "trusted_weights": [start, "/"], "trusted_model": True}
    (run / "config.json").write_text(json.dumps({"spec": spec}))
    (run / "events.jsonl").write_text("")
    return run


def test_kfold_refuses_a_copied_runs_hostile_start_weights_whatever_its_config_claims(tmp_path, monkeypatch,
                                                                                      capsys):
    monkeypatch.setattr("cli.verbs.evaluate.render_job", NoWorker)
    marker = tmp_path / "EXECUTED"
    start = write_hostile_checkpoint(tmp_path / "Downloads" / "start.pt", marker)
    copied_run(tmp_path, str(start), "yolov5n.yaml")
    code = main(["--workspace", str(tmp_path / "ws"), "evaluate", "exp", "--split", "train", "--kfold", "3"])
    err = capsys.readouterr().err
    assert code == 2 and str(start) in err and "--trust-weights" in err, err
    assert not marker.exists()


def test_kfold_refuses_a_copied_runs_model_yaml_that_evals_code(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("cli.verbs.evaluate.render_job", NoWorker)
    marker = tmp_path / "EXECUTED"
    model = tmp_path / "Downloads" / "evil.yaml"
    model.parent.mkdir(parents=True)
    model.write_text(f"nc: 2\ndepth_multiple: 0.33\nwidth_multiple: 0.25\nanchors: 3\nbackbone:\n"
                     f"  [[-1, 1, \"__import__('pathlib').Path('{marker}').write_text('ran') or Conv\", "
                     f"[16, 3, 2]]]\nhead:\n  [[-1, 1, Detect, [nc, anchors]]]\n")
    copied_run(tmp_path, "", str(model))
    code = main(["--workspace", str(tmp_path / "ws"), "evaluate", "exp", "--split", "train", "--kfold", "3"])
    err = capsys.readouterr().err
    assert code == 2 and str(model) in err and "--trust-model" in err, err
    assert not marker.exists()


def test_kfold_spec_carries_only_the_users_grant_never_the_runs_claim(tmp_path):
    from core.usecases.evaluate import KfoldDoor

    marker = tmp_path / "EXECUTED"
    start = write_hostile_checkpoint(tmp_path / "Downloads" / "start.pt", marker)
    run = copied_run(tmp_path, str(start), "yolov5n.yaml")
    spec = KfoldDoor(run, tmp_path / "ws", trust_weights=True).spec().spec
    assert spec["trusted_weights"] == [str(start.resolve())] and spec["trusted_model"] is False
    assert "trusted_weights" not in spec["run_spec"] and "trusted_model" not in spec["run_spec"]
    assert not marker.exists()


@pytest.fixture
def tune_setting(tmp_path, monkeypatch):
    monkeypatch.setattr(tune_verb, "missing_tune_packages", lambda: [])
    monkeypatch.setattr(tune_verb, "render_job", NoWorker)
    _, data = evaluable_run(tmp_path, train=4, val=2)
    return {"ws": tmp_path / "ws", "data": data, "marker": tmp_path / "EXECUTED"}


def tune(setting: dict[str, Path], name: str) -> list[str]:
    return ["--workspace", str(setting["ws"]), "tune", str(setting["data"]), "--time-budget", "10m", "--device",
            "cpu", "--model", "yolov5n.yaml", "--resume", name]


@pytest.mark.parametrize("name", ["../elsewhere", "/tmp/search", "a/b", ".."])
def test_tune_resume_confines_the_name_to_the_tune_folder(tune_setting, capsys, name):
    outside = tune_setting["ws"].parent / "elsewhere" / "ray"
    outside.mkdir(parents=True, exist_ok=True)
    (outside / "tuner.pkl").write_bytes(pickle.dumps(Payload(tune_setting["marker"])))
    assert main(tune(tune_setting, name)) == 2
    assert "not the name of a search" in capsys.readouterr().err
    assert not tune_setting["marker"].exists()


@pytest.mark.parametrize("how", ["planted", "tampered"])
def test_tune_resume_restores_only_state_the_app_recorded(tune_setting, capsys, how):
    folder = TuneFolder.named(tune_setting["ws"], "paused")
    folder.experiment.mkdir(parents=True)
    if how == "tampered":  # the app's own state, changed afterwards
        folder.tuner_state.write_bytes(pickle.dumps({"trainable": "TrainTrial"}))
        folder.record_state(tune_setting["ws"])
        assert folder.state_problem(tune_setting["ws"]) is None
    folder.tuner_state.write_bytes(pickle.dumps(Payload(tune_setting["marker"])))
    assert main(tune(tune_setting, "paused")) == 2
    err = capsys.readouterr().err
    assert str(folder.tuner_state) in err and "not loaded" in err, err
    assert not tune_setting["marker"].exists()


def test_a_planted_state_file_beside_a_recorded_tuner_pkl_is_refused(tune_setting):
    folder = TuneFolder.named(tune_setting["ws"], "paused")
    folder.experiment.mkdir(parents=True)
    folder.tuner_state.write_bytes(pickle.dumps({}))
    folder.record_state(tune_setting["ws"])
    (folder.experiment / "searcher-state-1.pkl").write_bytes(pickle.dumps(Payload(tune_setting["marker"])))
    assert "searcher-state-1.pkl" in (folder.state_problem(tune_setting["ws"]) or "")
    assert not tune_setting["marker"].exists()


def test_resume_never_connects_to_a_meeting_point_a_run_folder_names(tmp_path, monkeypatch, capsys):
    """Machine 1+ of a several-machines run has no checkpoint to ask about: a planted run folder whose config.json
    names a far meeting point would make resume connect there (c10d unpickles what it serves). The door refuses
    until the user gives the endpoint now, as ``resume_commands`` prints it."""
    from core.job.protocol import encode, make_event
    from core.runs.store import create_run
    from core.run.files import EVENTS_FILE
    from core.training.config import MachineFacts, TrainConfig, validate_config

    monkeypatch.setattr("cli.verbs.resume.render_job", NoWorker)
    _, data = evaluable_run(tmp_path, train=2, val=2)
    ws = tmp_path / "ws"
    config = TrainConfig(data=str(data), device="cpu", name="planted", nnodes=2, node_rank=1,
                         rdzv_endpoint="203.0.113.5:29400", rdzv_id="0" * 32)
    run = create_run(ws, validate_config(config, MachineFacts(0), ws))
    with open(run / EVENTS_FILE, "w") as handle:
        handle.write(encode(make_event("stage", stage="starting", pid=1, create_time=1.0)))
        handle.write(encode(make_event("done", status="failed", elapsed_s=1.0)))
    assert main(["--workspace", str(ws), "resume", "planted"]) == 2
    err = capsys.readouterr().err
    assert "203.0.113.5:29400" in err and "--rdzv-endpoint" in err and "config.json" in err, err
