"""A workspace under a folder with an apostrophe (``/home/o'brien``) trains, fine-tunes and resumes.

yolov5's ``attempt_download`` strips every ``'`` from a weights path; the worker's local-only replacement
(``core.worker.compat.local_weights``) had copied that, so the weights yolov5 loads at the end of every
training (``best.pt``), and the ones a resume or a fine-tuning starts from, were looked up at a path that does
not exist."""

from __future__ import annotations

import signal
from pathlib import Path

from tests.e2e.conftest import Cli, assert_offline, by_type, runs_json, stop_while_held, train_args


def test_training_fine_tuning_and_resume_under_an_apostrophe(tiny_data, e2e_env, net_audit, tmp_path, held):
    workspace = tmp_path / "o'brien" / "ws"
    e2e_env["YOLOSTUDIO_WORKSPACE"] = str(workspace)

    first = Cli(train_args(tiny_data, name="first", epochs=1), e2e_env)
    assert first.finish() == 0, first.stderr()
    done = first.events[-1]
    assert done["status"] == "completed", done
    assert "'" in done["best"] and Path(done["best"]).is_file()

    # Fine-tuning from that run's checkpoint (a path with the apostrophe), stopped mid-epoch, then resumed.
    hold = held(2)  # 8 steps: held at the second until the stop is taken, so it lands mid-epoch
    tuned = Cli(train_args(tiny_data, name="tuned", epochs=1, batch=4, model=done["last"]), hold.env(e2e_env))
    tuned.wait_for(lambda e: e["type"] == "batch")
    stop_while_held(tuned, hold, lambda: tuned.proc.send_signal(signal.SIGINT))
    assert tuned.finish() == 3, tuned.stderr()
    assert tuned.events[-1]["status"] == "stopped"
    resumed = Cli(["resume", "tuned"], e2e_env)
    assert resumed.finish() == 0, resumed.stderr()
    assert resumed.events[-1]["status"] == "completed"
    assert [e["epoch"] for e in by_type(resumed.events, "epoch_end")] == [0]
    assert {r["name"]: r["status"] for r in runs_json(e2e_env)} == {"first": "completed", "tuned": "completed"}
    assert_offline(net_audit)
