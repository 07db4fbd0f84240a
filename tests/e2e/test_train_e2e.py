"""Real CPU training through the worker subprocess: the full event stream, stop/resume, a killed worker,
failures mid-run — all with the network refused. yolov5n from YAML on a tiny generated dataset."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import (ROOT, Cli, assert_offline, by_type, run_cli, runs_json, stop_while_held,
                                train_args)

pytestmark = pytest.mark.e2e

REQUIRED_METRICS = ("train/box_loss", "metrics/precision", "metrics/recall", "metrics/mAP_0.5",
                    "metrics/mAP_0.5:0.95", "val/box_loss", "x/lr0")


def test_network_guard_is_live(e2e_env, net_audit):
    """The guard used by every test here really refuses and records a lookup."""
    code = "import socket\ntry:\n    socket.getaddrinfo('example.com', 443)\nexcept ConnectionRefusedError:\n    pass\n"
    subprocess.run([sys.executable, "-c", code], env=e2e_env, check=True, timeout=60)
    assert "getaddrinfo" in net_audit.read_text()


def test_train_completes_offline_and_yolov5_tools_load_the_weights(completed_run, e2e_env, net_audit, tmp_path):
    """The session's shared 2-epoch run (``tests/e2e/shared_run.py``), trained by ``yolostudio train --json``."""
    events, tiny_data = completed_run.events, completed_run.data
    types = [e["type"] for e in events]

    # The sequence a GUI relies on.
    assert events[0]["type"] == "stage" and events[0]["stage"] == "starting" and events[0]["pid"] > 0
    assert types.index("hello") < types.index("epoch_start") < types.index("batch") < types.index("epoch_end")
    assert types[-1] == "done" and events[-1]["status"] == "completed"
    assert all(e["v"] == 1 and isinstance(e["t"], float) for e in events)
    hello = by_type(events, "hello")[0]
    assert hello["versions"]["yolov5"] == "7.0.14" and hello["versions"]["torch"].startswith("2.")

    # Every batch is covered by the (throttled) windows; each epoch ends with all of yolov5's metrics.
    starts, ends = by_type(events, "epoch_start"), by_type(events, "epoch_end")
    assert [e["epoch"] for e in starts] == [0, 1] and [e["epoch"] for e in ends] == [0, 1]
    for start, end in zip(starts, ends):
        batches = [b for b in by_type(events, "batch") if b["epoch"] == start["epoch"]]
        assert sum(b["window"]["batches"] for b in batches) == start["batches"] == end["timing"]["batches"]
        assert batches[-1]["index"] == start["batches"] - 1
        assert all(b["data_wait_s"] >= 0 and b["step_s"] > 0 for b in batches)
        for key in REQUIRED_METRICS:
            assert isinstance(end["metrics"][key], float), key
        assert end["epoch_time_s"] > 0 and "fitness" in end
    assert by_type(events, "system"), "the sampler thread reported nothing"

    done = events[-1]
    run_dir = Path(done["best"]).parents[1]
    assert Path(done["best"]).is_file() and Path(done["last"]).is_file()
    assert set(done["final_metrics"]) >= {"map50", "map50_95"}
    assert (run_dir / "val_batch0_pred.jpg").is_file()  # drawn every epoch for the live view
    assert not list(run_dir.glob(".val_batch0_pred.tmp*"))
    rows = (run_dir / "results.csv").read_text().strip().splitlines()
    assert len(rows) == 3 and "metrics/mAP_0.5" in rows[0]
    assert (run_dir / "events.jsonl").read_text().count("\n") == len(events)

    listed = runs_json(completed_run.env)
    assert listed[0]["name"] == "e2e" and listed[0]["status"] == "completed"
    best_epoch = ends[0]
    for end in ends:  # the best epoch is the fittest (a tie goes to the later one), not the one of highest mAP@0.5
        best_epoch = end if end["fitness"] >= best_epoch["fitness"] else best_epoch
    assert listed[0]["best_map"] == pytest.approx(best_epoch["metrics"]["metrics/mAP_0.5"])

    # Peer compatibility: the package's own val and detect load best.pt (with the same offline fixes,
    # which the package needs on today's torch whatever produced the weights).
    peer = f"""
import sys
from pathlib import Path
from core.worker import compat
compat.apply(Path(r"{tmp_path / 'peer-cache'}"), trusted=[Path(r"{run_dir}")])
from yolov5 import val, detect
results = val.run(data=r"{tiny_data}", weights=r"{done['best']}", imgsz=64, batch_size=4, device="cpu",
                  project=r"{tmp_path / 'peer'}", name="val", plots=False)
print("VAL", results[0][2])
detect.run(weights=r"{done['best']}", source=r"{tiny_data.parent / 'images' / 'val'}", imgsz=(64, 64),
           device="cpu", project=r"{tmp_path / 'peer'}", name="detect", nosave=False)
print("DETECT-OK")
"""
    out = subprocess.run([sys.executable, "-c", peer], cwd=ROOT, env=e2e_env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "VAL" in out.stdout and "DETECT-OK" in out.stdout
    assert len(list((tmp_path / "peer" / "detect").glob("*.jpg"))) == 8
    assert_offline(completed_run.net_audit)  # the training
    assert_offline(net_audit)  # yolov5's own tools


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


def test_dataset_with_no_images_fails_clearly(e2e_env, tmp_path):
    empty = tmp_path / "empty"
    (empty / "images" / "train").mkdir(parents=True)
    (empty / "images" / "val").mkdir(parents=True)
    (empty / "data.yaml").write_text(f"path: {empty}\ntrain: images/train\nval: images/val\nnames: [a]\n")
    refused = run_cli(train_args(empty / "data.yaml", name="empty"), e2e_env)  # the check before training
    assert refused.returncode == 2 and "nothing was started" in refused.stderr
    assert f"{empty / 'data.yaml'}:2: train holds no images" in refused.stderr  # file:line
    assert not (tmp_path / "ws" / "runs").exists()
    cli = Cli(train_args(empty / "data.yaml", name="empty", extra=("--no-check",)), e2e_env)  # yolov5's own words
    assert cli.finish() == 1
    error = by_type(cli.events, "error")[0]
    assert error["kind"] == "dataset" and "No images found" in error["message"]
    assert str(empty / "images" / "train") in error["message"]


def test_usage_errors_exit_2_and_name_the_value(tiny_data, e2e_env, tmp_path):
    missing = run_cli(["train", str(tmp_path / "nope.yaml")], e2e_env)
    assert missing.returncode == 2 and str(tmp_path / "nope.yaml") in missing.stderr
    bad_model = run_cli(["train", str(tiny_data), "--model", "yolov5q.yaml"], e2e_env)
    assert bad_model.returncode == 2 and "yolov5q.yaml" in bad_model.stderr
    bad_device = run_cli(["train", str(tiny_data), "--device", "0"], e2e_env)
    assert bad_device.returncode == 2 and "no NVIDIA GPU" in bad_device.stderr
    assert not (tmp_path / "ws" / "runs").exists()  # nothing was created for a refused run


def test_demo_command_prints_data_yaml(e2e_env, tmp_path):
    out = run_cli(["demo", "--json"], e2e_env)
    assert out.returncode == 0, out.stderr
    path = Path(json.loads(out.stdout)["data"])
    assert path == tmp_path / "ws" / "demo" / "data.yaml" and path.is_file()
    again = run_cli(["demo"], e2e_env)
    assert again.stdout.strip() == str(path)
