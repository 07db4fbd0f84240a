"""A workspace under a folder with an apostrophe (``/home/o'brien``) trains, fine-tunes and resumes.

yolov5's ``attempt_download`` strips every ``'`` from a weights path; the worker's local-only replacement
(``core.worker.compat.local_weights``) had copied that, so the weights yolov5 loads at the end of every
training (``best.pt``), and the ones a resume or a fine-tuning starts from, were looked up at a path that does
not exist."""

from __future__ import annotations

import signal

from tests.e2e.conftest import Cli, assert_offline, by_type, runs_json, stop_while_held, train_args
from tests.e2e.shared_run import NAME


def test_training_fine_tuning_and_resume_under_an_apostrophe(completed_run, tiny_data, e2e_env, net_audit,
                                                             tmp_path, held):
    """The first run is the session's shared completed run (``tests/e2e/shared_run.py``), its workspace copied
    under the apostrophe; the fresh training there is the fine-tuning, whose resume ends with yolov5 loading
    its ``best.pt`` from the apostrophe path."""
    workspace = completed_run.copy_workspace(tmp_path / "o'brien")
    e2e_env["YOLOSTUDIO_WORKSPACE"] = str(workspace)
    assert completed_run.code == 0, completed_run.stderr
    done = completed_run.events[-1]
    assert done["status"] == "completed", done
    first = workspace / "runs" / NAME / "weights"
    assert "'" in str(first) and (first / "best.pt").is_file()

    # Fine-tuning from that run's checkpoint (a path with the apostrophe), stopped mid-epoch, then resumed.
    hold = held(2)  # 8 steps: held at the second until the stop is taken, so it lands mid-epoch
    tuned = Cli(train_args(tiny_data, name="tuned", epochs=1, batch=4, model=str(first / "last.pt")),
                hold.env(e2e_env))
    tuned.wait_for(lambda e: e["type"] == "batch")
    stop_while_held(tuned, hold, lambda: tuned.proc.send_signal(signal.SIGINT))
    assert tuned.finish() == 3, tuned.stderr()
    assert tuned.events[-1]["status"] == "stopped"
    resumed = Cli(["resume", "tuned"], e2e_env)
    assert resumed.finish() == 0, resumed.stderr()
    assert resumed.events[-1]["status"] == "completed"
    assert [e["epoch"] for e in by_type(resumed.events, "epoch_end")] == [0]
    assert {r["name"]: r["status"] for r in runs_json(e2e_env)} == {NAME: "completed", "tuned": "completed"}
    assert_offline(net_audit)
