"""``train --model``, a ``train --config`` naming a model and ``resume``, against a model YAML whose strings
would reach yolov5's ``eval``: refused before any worker, unless ``--trust-model`` (then the spec says so)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from cli.main import main
from core.model_catalog import yolov5_package_dir
from core.job.protocol import encode, make_event
from core.runs.store import load_run_config
from core.run.files import EVENTS_FILE
from tests.fixtures.checkpoint_files import record_as_own, write_hostile_checkpoint

MARKER_CODE = "__import__('os').system('touch {marker}')"


class NoWorker:
    def __new__(cls, *args, **kwargs):  # type: ignore[misc]
        raise AssertionError("a worker was started for an unconfirmed model YAML")


@pytest.fixture
def setting(tmp_path: Path, monkeypatch) -> dict[str, Path]:
    for verb in ("train", "resume"):
        monkeypatch.setattr(f"cli.verbs.{verb}.render_job", NoWorker)
    (tmp_path / "images").mkdir()
    data = tmp_path / "data.yaml"
    data.write_text("path: .\ntrain: images\nval: images\nnames: [x]\n")
    doc = yaml.safe_load((yolov5_package_dir() / "models" / "yolov5n.yaml").read_text())
    doc["activation"] = MARKER_CODE.format(marker=tmp_path / "EXECUTED")
    evil = tmp_path / "evil.yaml"
    evil.write_text(yaml.safe_dump(doc))
    config = tmp_path / "options.yaml"
    config.write_text(yaml.safe_dump({"data": str(data), "model": str(evil), "device": "cpu"}))
    return {"ws": tmp_path / "ws", "data": data, "evil": evil, "config": config}


def test_train_refuses_an_unconfirmed_model_yaml_by_flag_and_by_config(setting, capsys) -> None:
    ws = str(setting["ws"])
    for argv in (["train", str(setting["data"]), "--model", str(setting["evil"]), "--device", "cpu", "--no-check"],
                 ["train", "--config", str(setting["config"]), "--no-check"]):
        assert main(["--workspace", ws, *argv]) == 2, argv
        err = capsys.readouterr().err
        assert "--trust-model" in err and "activation" in err, err
    assert not (setting["ws"] / "runs").exists() or not any((setting["ws"] / "runs").iterdir())


def test_trust_model_starts_the_run_with_the_confirmation_in_its_spec(setting, monkeypatch) -> None:
    started: list[dict] = []
    monkeypatch.setattr("cli.verbs.train.render_job", lambda renderer, door, **kw: started.append(door.spec().spec) or "done")
    monkeypatch.setattr("cli.verbs.train.exit_code_of", lambda outcome: 0)
    argv = ["train", "--config", str(setting["config"]), "--no-check", "--trust-model"]
    assert main(["--workspace", str(setting["ws"]), *argv]) == 0
    assert started and started[0]["trusted_model"] is True


def test_a_packaged_model_needs_no_confirmation(setting, monkeypatch) -> None:
    started: list[dict] = []
    monkeypatch.setattr("cli.verbs.train.render_job", lambda renderer, door, **kw: started.append(door.spec().spec) or "done")
    monkeypatch.setattr("cli.verbs.train.exit_code_of", lambda outcome: 0)
    argv = ["train", str(setting["data"]), "--model", "yolov5n.yaml", "--device", "cpu", "--no-check"]
    assert main(["--workspace", str(setting["ws"]), *argv]) == 0
    assert started and started[0]["trusted_model"] is False


def test_resume_asks_again_whatever_the_run_claims(setting, monkeypatch, capsys) -> None:
    monkeypatch.setattr("cli.verbs.train.render_job", lambda renderer, door, **kw: "done")
    monkeypatch.setattr("cli.verbs.train.exit_code_of", lambda outcome: 0)
    ws = str(setting["ws"])
    assert main(["--workspace", ws, "train", "--config", str(setting["config"]), "--no-check", "--trust-model"]) == 0
    run_dir = next((setting["ws"] / "runs").iterdir())
    write_hostile_checkpoint(run_dir / "weights" / "last.pt", setting["ws"] / "UNPICKLED")  # a whole archive
    record_as_own(setting["ws"], run_dir / "weights" / "last.pt")  # as the run's worker did: only the model asks
    with open(run_dir / EVENTS_FILE, "w") as handle:
        handle.write(encode(make_event("stage", stage="starting", pid=1, create_time=1.0)))
        handle.write(encode(make_event("done", status="stopped", elapsed_s=1.0)))
    assert load_run_config(run_dir)["spec"]["trusted_model"] is True  # what the run claims counts for nothing
    assert main(["--workspace", ws, "resume", str(run_dir)]) == 2
    assert "--trust-model" in capsys.readouterr().err
    started: list[dict] = []
    monkeypatch.setattr("cli.verbs.resume.render_job", lambda renderer, door, **kw: started.append(door.spec().spec) or "done")
    monkeypatch.setattr("cli.verbs.resume.exit_code_of", lambda outcome: 0)
    assert main(["--workspace", ws, "resume", str(run_dir), "--trust-model"]) == 0
    assert started[0]["trusted_model"] is True
    assert json.loads((run_dir / "config.json").read_text())["spec"]["trusted_model"] is True
