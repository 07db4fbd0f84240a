"""The CLI asks core.trust before unpickling: train --weights, export and resume of a run from elsewhere."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cli.main import main
from core.job.jobs import JobOutcome, fold_outcome
from core.job.protocol import encode, make_event
from core.runs.store import create_run, spec_path
from core.run.files import EVENTS_FILE
from core.training.config import MachineFacts, TrainConfig, validate_config
from core.usecases.door import Door
from tests.fixtures.checkpoint_files import record_as_own, write_checkpoint_file
from tests.stored_weights import store_file


class NoWorker:
    """Stands in for ``cli.jobs.render_job``: records the door's job argv instead of starting a process."""

    started: list[list[str]] = []

    def __new__(cls, renderer, door: Door, **kwargs) -> JobOutcome:  # type: ignore[misc]
        NoWorker.started.append(door.spec().argv())
        return fold_outcome({"type": "done", "status": "completed"}, None, exit_code=0)


@pytest.fixture
def stopped_run_elsewhere(tmp_path: Path) -> Path:
    data = tmp_path / "data.yaml"
    data.write_text("path: .\ntrain: a\nval: a\nnames: [x]\n")
    run = create_run(tmp_path / "other-ws", validate_config(TrainConfig(data=str(data), device="cpu"),
                                                             MachineFacts(0)))
    write_checkpoint_file(run / "weights" / "last.pt")
    with open(run / EVENTS_FILE, "w") as handle:
        handle.write(encode(make_event("stage", stage="starting", pid=1, create_time=1.0)))
        handle.write(encode(make_event("done", status="stopped", elapsed_s=1.0)))
    return run


def test_resume_of_a_run_outside_the_workspace_asks_first(stopped_run_elsewhere, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("cli.verbs.resume.render_job", NoWorker)
    NoWorker.started.clear()
    workspace = tmp_path / "ws"
    assert main(["--workspace", str(workspace), "resume", str(stopped_run_elsewhere)]) == 2
    assert "--trust-weights" in capsys.readouterr().err and not NoWorker.started
    assert main(["--workspace", str(workspace), "resume", str(stopped_run_elsewhere), "--trust-weights"]) == 0
    spec = json.loads(spec_path(stopped_run_elsewhere).read_text())
    assert spec["trusted_weights"] == [str((stopped_run_elsewhere / "weights").resolve())]  # the run's checkpoints


def test_resume_of_a_run_in_the_workspace_needs_no_confirmation(stopped_run_elsewhere, tmp_path, monkeypatch):
    monkeypatch.setattr("cli.verbs.resume.render_job", NoWorker)
    NoWorker.started.clear()
    workspace = tmp_path / "other-ws"  # the run's own workspace
    record_as_own(workspace, stopped_run_elsewhere / "weights" / "last.pt")  # as its worker did when it saved it
    assert main(["--workspace", str(workspace), "resume", stopped_run_elsewhere.name]) == 0
    assert json.loads(spec_path(stopped_run_elsewhere).read_text())["trusted_weights"] == []
    assert NoWorker.started


def test_train_from_outside_weights_asks_first(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("cli.verbs.train.render_job", NoWorker)
    data = tmp_path / "data.yaml"
    data.write_text("path: .\ntrain: a\nval: a\nnames: [x]\n")
    weights = tmp_path / "Downloads" / "yolov5s.pt"
    weights.parent.mkdir()
    weights.write_bytes(b"pickle")
    base = ["--workspace", str(tmp_path / "ws"), "train", str(data), "--weights", str(weights), "--device", "cpu",
            "--no-check"]  # about trust: the dataset here is only a name
    assert main(base) == 2 and "--trust-weights" in capsys.readouterr().err
    assert main(base + ["--trust-weights"]) == 0
    [run] = (tmp_path / "ws" / "runs").iterdir()
    assert json.loads(spec_path(run).read_text())["trusted_weights"] == [str(weights.resolve())]
    inside = tmp_path / "ws" / "runs" / run.name / "weights" / "best.pt"
    inside.parent.mkdir()
    shutil.copyfile(weights, inside)
    assert main(["--workspace", str(tmp_path / "ws"), "train", str(data), "--weights", str(inside),
                 "--device", "cpu", "--no-check"]) == 2  # copied in by hand: not recorded, so not the app's own
    assert "no record of writing it" in capsys.readouterr().err
    record_as_own(tmp_path / "ws", inside)
    assert main(["--workspace", str(tmp_path / "ws"), "train", str(data), "--weights", str(inside),
                 "--device", "cpu", "--no-check"]) == 0  # the app's own run: no question


def test_export_of_an_official_name_reads_the_weights_store_and_never_downloads(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("cli.verbs.export.render_job", NoWorker)
    monkeypatch.chdir(tmp_path)  # no yolov5s.pt where it is named
    workspace = tmp_path / "ws"
    assert main(["--workspace", str(workspace), "export", "yolov5s.pt", "--format", "onnx"]) == 2
    err = capsys.readouterr().err
    assert "yolov5s.pt is not on this machine" in err and "yolostudio weights get yolov5s" in err
    store = store_file(workspace, "yolov5s.pt")
    NoWorker.started.clear()
    assert main(["--workspace", str(workspace), "export", "yolov5s.pt", "--format", "onnx"]) == 0  # no question
    [argv] = NoWorker.started
    spec = json.loads(Path(argv[-1]).read_text())
    assert Path(spec["options"]["weights"]) == store.path("yolov5s.pt").resolve() and spec["trusted_weights"] == []
