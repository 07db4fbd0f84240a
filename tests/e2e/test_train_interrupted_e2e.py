"""Real CPU trainings that do not end as planned, through the worker subprocess: a stop mid-epoch and its resume,
a killed worker, a dataset vanishing under the trainer — all with the network refused. yolov5n from YAML on a
tiny generated dataset. Apart from ``test_train_e2e.py`` (the shared completed run's checks) so the two halves
run on both test processes at once (``--dist loadfile`` keeps a file whole)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests.e2e.conftest import Cli, assert_offline, by_type, runs_json, stop_while_held, train_args

pytestmark = pytest.mark.e2e


def test_graceful_stop_mid_epoch_then_resume(tiny_data, e2e_env, net_audit, held):
    # 32 images at batch 4: 8 batches per epoch; held at its second step until the stop is taken, the run stops
    # inside epoch 0 however slow the machine.
    hold = held(2)
    cli = Cli(train_args(tiny_data, name="stopme", epochs=2, batch=4), hold.env(e2e_env))
    cli.wait_for(lambda e: e["type"] == "batch")

    def stop() -> None:
        cli.proc.send_signal(signal.SIGINT)  # Ctrl+C in the terminal: a graceful stop
        assert cli.proc.stdin is not None
        cli.proc.stdin.write(b'{"v":1,"type":"stop"}\n')  # and once more through the control channel: harmless
        cli.proc.stdin.flush()

    stop_while_held(cli, hold, stop)
    assert cli.finish() == 3, cli.stderr()  # 3 = stopped
    stop_ckpt = [e for e in by_type(cli.events, "checkpoint") if e["reason"] == "stop"]
    assert len(stop_ckpt) == 1 and 1 <= stop_ckpt[0]["batches_done"] < stop_ckpt[0]["batches"]
    done = cli.events[-1]
    assert done["type"] == "done" and done["status"] == "stopped" and done["stopped_at"]["epoch"] == 0

    listed = {r["name"]: r for r in runs_json(e2e_env)}
    assert listed["stopme"]["status"] == "stopped" and listed["stopme"]["can_resume"]

    resumed = Cli(["resume", "stopme"], e2e_env)
    assert resumed.finish() == 0, resumed.stderr()
    assert resumed.events[-1]["status"] == "completed"
    assert [e["epoch"] for e in by_type(resumed.events, "epoch_end")] == [0, 1]  # epoch 0 redone, then 1
    listed = {r["name"]: r for r in runs_json(e2e_env)}
    assert listed["stopme"]["status"] == "completed" and listed["stopme"]["epochs_done"] == 2
    assert_offline(net_audit)


def test_sigkilled_worker_is_failed_not_running_and_resumable(tiny_data, e2e_env, net_audit, held):
    hold = held(6)  # 4 steps an epoch: held in epoch 1, the kill lands before the run ends
    cli = Cli(train_args(tiny_data, name="killme", epochs=3), hold.env(e2e_env))
    first = cli.wait_for(lambda e: e["type"] == "stage" and e["stage"] == "starting")
    cli.wait_for(lambda e: e["type"] == "checkpoint" and e["reason"] == "epoch")
    os.kill(first["pid"], signal.SIGKILL)
    code = cli.finish(timeout=60)  # the CLI must notice and not hang
    assert code == 1
    assert cli.events[-1]["type"] == "done" and cli.events[-1]["status"] == "failed" and cli.events[-1]["synthetic"]

    info = {r["name"]: r for r in runs_json(e2e_env)}["killme"]
    assert info["status"] == "failed" and info["error"]["kind"] == "worker_died"
    assert info["can_resume"] and Path(info["last_weights"]).is_file()
    run_dir = Path(info["path"])
    assert (run_dir / "config.json").is_file() and (run_dir / "results.csv").is_file()
    assert_offline(net_audit)


def test_worker_failing_mid_epoch_reports_the_file(tiny_data, e2e_env, tmp_path, held):
    data = tmp_path / "fragile"
    import shutil

    shutil.copytree(tiny_data.parent, data)
    yaml_path = data / "data.yaml"
    # A relative dataset folder, as people write it: yolov5 alone would look for it in its install folder.
    yaml_path.write_text(yaml_path.read_text().replace(str(tiny_data.parent), "."))
    hold = held(2)  # held at its second step while the images go: the run cannot end before it meets the gap
    cli = Cli(train_args(yaml_path, name="fragile", epochs=2, batch=4), hold.env(e2e_env))
    cli.wait_for(lambda e: e["type"] == "batch")
    for image in (data / "images" / "train").iterdir():
        image.unlink()  # the dataset vanishes under the running trainer (a network drive going away)
    hold.release()
    assert cli.finish() == 1
    error = by_type(cli.events, "error")[0]
    assert error["kind"] == "dataset" and "Image Not Found" in error["message"]
    assert str(data / "images" / "train") in error["message"] and error["hint"]
    assert cli.events[-1]["status"] == "failed"
