"""Real CPU training through the worker subprocess: the full event stream, yolov5's own tools on the weights,
trainings refused or failing at the start — all with the network refused. yolov5n from YAML on a tiny generated
dataset. Stops, kills and failures mid-run: ``test_train_interrupted_e2e.py``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import ROOT, Cli, assert_offline, by_type, run_cli, runs_json, train_args

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
    # yolov5's TensorBoard graph is drawn before the first epoch's clock, not inside batch 1's data wait (issue 36)
    training = [e for e in by_type(events, "stage") if e["stage"] == "training"]
    assert training and training[0]["tensorboard_graph_s"] > 0

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
