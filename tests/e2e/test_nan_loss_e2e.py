"""A loss that turns NaN stops the run there: a failed run naming the epoch and batch, not a "completed" one.

The front ends refuse a NaN option (``core.training.config``); this is the worker's own guard, for what they
cannot see (a learning rate that diverges, a spec written by hand): the spec is given ``label_smoothing: NaN``
directly, which makes yolov5's first class loss NaN."""

from __future__ import annotations

import math
import subprocess
from pathlib import Path

from core.job.jobs import JobSpec
from core.job.protocol import LineDecoder
from core.runs.store import create_run, load_run_config
from core.training.config import MachineFacts, TrainConfig, validate_config
from tests.e2e.conftest import ROOT, by_type, runs_json


def test_a_nan_loss_fails_the_run_at_its_first_batch(tiny_data, e2e_env, tmp_path):
    workspace = Path(e2e_env["YOLOSTUDIO_WORKSPACE"])
    checked = validate_config(TrainConfig(data=str(tiny_data), model="yolov5n.yaml", epochs=2, imgsz=64, batch=8,
                                          workers=1, device="cpu", name="nan"), MachineFacts(gpu_count=0), workspace)
    assert checked.ok, checked.problems
    run_dir = create_run(workspace, checked)
    spec = load_run_config(run_dir)["spec"]
    spec["config"]["label_smoothing"] = math.nan
    argv = JobSpec.for_run("train", run_dir, spec).argv()
    out = subprocess.run(argv, cwd=ROOT, env=e2e_env, capture_output=True, timeout=480)
    events = [d.event for d in LineDecoder().feed(out.stdout) if d.event is not None]
    done, error = events[-1], by_type(events, "error")
    assert done["type"] == "done" and done["status"] == "failed", events[-3:]
    assert error and error[0]["kind"] == "diverged"
    assert "epoch 1, batch 1" in error[0]["message"] and "nan" in error[0]["message"]
    batches = by_type(events, "batch")
    assert len(batches) == 1 and batches[0]["losses"]["cls"] is None  # JSON's null: "not a number", never 0
    assert not by_type(events, "epoch_end")  # it stopped there, not at the end of the training
    info = {r["name"]: r for r in runs_json(e2e_env)}["nan"]
    assert info["status"] == "failed" and info["error"]["kind"] == "diverged"
