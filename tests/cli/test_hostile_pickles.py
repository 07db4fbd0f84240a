"""Every verb that loads a .pt, against a pickle that acts when loaded: nothing runs without the user's word.

The CLI's verbs ask ``core.trust`` before a worker starts (train --weights, resume of a run from
elsewhere — whatever its config.json claims — and export); ``attach`` never loads a checkpoint. The
worker's own guard (``compat``'s ``torch.load``) is tested against the same file in
``tests/worker/test_hostile_pickles_worker.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import main
from core.job.protocol import encode, make_event
from core.runs.store import create_run
from core.run.files import EVENTS_FILE
from core.training.config import MachineFacts, TrainConfig, validate_config
from tests.fixtures.checkpoint_files import write_hostile_checkpoint


class NoWorker:
    """A worker must never be started here: every refusal comes first."""

    def __new__(cls, *args, **kwargs):  # type: ignore[misc]
        raise AssertionError("a worker was started for an untrusted checkpoint")


@pytest.fixture
def setting(tmp_path: Path, monkeypatch) -> dict[str, Path]:
    for verb in ("train", "resume", "export"):
        monkeypatch.setattr(f"cli.verbs.{verb}.render_job", NoWorker)
    data = tmp_path / "data.yaml"
    data.write_text("path: .\ntrain: a\nval: a\nnames: [x]\n")
    marker = tmp_path / "EXECUTED"
    foreign = create_run(tmp_path / "elsewhere", validate_config(TrainConfig(data=str(data), device="cpu"),
                                                                 MachineFacts(0)))
    write_hostile_checkpoint(foreign / "weights" / "last.pt", marker)
    with open(foreign / EVENTS_FILE, "w") as handle:
        handle.write(encode(make_event("stage", stage="starting", pid=1, create_time=1.0)))
        handle.write(encode(make_event("done", status="stopped", elapsed_s=1.0)))
    return {"ws": tmp_path / "ws", "data": data, "marker": marker, "foreign": foreign,
            "pt": write_hostile_checkpoint(tmp_path / "Downloads" / "yolov5s.pt", marker)}


def test_train_resume_export_and_attach_refuse_a_hostile_pickle(setting, capsys):
    ws, pt, foreign = str(setting["ws"]), str(setting["pt"]), str(setting["foreign"])
    verbs = [["train", str(setting["data"]), "--weights", pt, "--device", "cpu"],
             ["resume", foreign],
             ["export", pt, "--format", "onnx"]]
    for verb in verbs:
        assert main(["--workspace", ws, *verb]) == 2, verb
        assert "--trust-weights" in capsys.readouterr().err, verb
    # A run from elsewhere may claim any trust in its config.json: the claim counts for nothing.
    config_path = setting["foreign"] / "config.json"
    config = json.loads(config_path.read_text())
    config["spec"].update(workspace=str(setting["foreign"].parent.parent), trusted_weights=["/"])
    config_path.write_text(json.dumps(config))
    assert main(["--workspace", ws, "resume", foreign]) == 2
    main(["--workspace", ws, "attach", foreign])  # follows events only; it never loads a checkpoint
    assert not setting["marker"].exists()
