"""``yolostudio evaluate`` on a run trained here (yolov5n, 2 epochs, imgsz 64, CPU), through the real CLI and
worker: the numbers are training's own final validation of best.pt, the result is stored in the run folder
and read back without a worker, a changed label makes a new evaluation. Network refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core.demo.dataset import DemoSpec, generate_demo_dataset
from core.job.protocol import read_events
from tests.e2e.conftest import ROOT, assert_offline, e2e_environment, run_cli, train_args

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("evaluate")
    data = generate_demo_dataset(root / "data", DemoSpec(n_train=16, n_val=8, image_size=64, seed=3))
    env = e2e_environment(root, root / "net-audit.log")
    out = run_cli(train_args(data, name="weak", epochs=2, batch=8), env)
    assert out.returncode == 0, out.stderr[-3000:]
    return {"root": root, "env": env, "run": root / "ws" / "runs" / "weak", "data": data}


def test_evaluate_gives_trainings_final_numbers_stores_them_and_reads_them_back(trained):
    done = [e for e in read_events(trained["run"] / "events.jsonl") if e["type"] == "done"][-1]
    final = done["final_metrics"]
    out = run_cli(["evaluate", "weak", "--json"], trained["env"])
    assert out.returncode == 0, out.stderr[-3000:]
    doc = json.loads(out.stdout)
    assert doc["from_store"] is False
    for ours, theirs in (("precision", "precision"), ("recall", "recall"), ("map50", "map50"), ("map", "map50_95")):
        assert doc["metrics"][ours] == pytest.approx(final[theirs], rel=1e-9, abs=1e-12), ours
    assert [r["name"] for r in doc["per_class"]] == ["circle", "square", "triangle"]
    assert sum(r["instances"] for r in doc["per_class"]) == doc["instances"] > 0
    assert doc["confusion"]["labels"][-1] == "background" and len(doc["confusion"]["matrix"]) == 4
    # every label is in one of the classes' columns once (matched, or missed in the background row)
    assert sum(sum(row[:3]) for row in doc["confusion"]["matrix"]) == doc["instances"]
    assert len(doc["curves"]["f1"]["confidence"]) == 100 and set(doc["curves"]["pr"]["classes"]) <= {
        "circle", "square", "triangle"}
    assert doc["speed_ms"]["inference"] > 0 and doc["images"] == 8
    assert doc["interval"]["images"] == 8 and doc["interval"]["low"] <= doc["metrics"]["map"] <= doc["interval"]["high"]
    store = Path(doc["store"])
    assert store.parent.parent == trained["run"] / "evaluations" and store.is_file()
    images = json.loads((store.parent / "images.json").read_text())
    assert len(images) == 8 and sum(len(im["labels"]) for im in images) == doc["instances"]
    assert sum(doc["error_counts"].values()) == len(doc["errors"]) + doc["error_counts"]["true_positive"]
    assert {"prescription", "dataset"} <= set(doc) and doc["dataset"]["train_images"] == 16

    again = run_cli(["evaluate", "weak", "--json"], trained["env"])
    assert again.returncode == 0 and json.loads(again.stdout)["from_store"] is True
    assert json.loads(again.stdout)["metrics"] == doc["metrics"]

    listed = trained["root"] / "review.txt"
    human = run_cli(["evaluate", "weak", "--export-list", str(listed)], trained["env"])
    assert human.returncode == 0 and "read back from the store" in human.stdout and "background" in human.stdout
    assert listed.read_text().splitlines() == list(dict.fromkeys(e["image"] for e in doc["errors"]))

    label = Path(images[0]["image"].replace(f"{os.sep}images{os.sep}", f"{os.sep}labels{os.sep}")).with_suffix(".txt")
    label.write_text(label.read_text() + "0 0.5 0.5 0.1 0.1\n")
    changed = run_cli(["evaluate", "weak", "--json"], trained["env"])
    assert changed.returncode == 0, changed.stderr[-3000:]
    redo = json.loads(changed.stdout)
    assert redo["from_store"] is False and redo["store"] != doc["store"] and redo["instances"] == doc["instances"] + 1
    assert_offline(trained["root"] / "net-audit.log")


def test_evaluate_refuses_a_missing_test_split_in_words(trained):
    out = run_cli(["evaluate", "weak", "--split", "test"], trained["env"])
    assert out.returncode == 2
    assert "test split has no images" in out.stderr + out.stdout and "Traceback" not in out.stderr


def test_the_apps_evaluate_window_runs_the_real_worker_and_agrees_with_the_cli(trained, qtbot, monkeypatch):
    """The GUI path (gui/evaluate/evaluate_window.py): planned in the background, the real evaluate worker,
    the same store folder and numbers as ``yolostudio evaluate``."""
    import shutil

    from core.evaluation.store import list_evaluations
    from gui.evaluate.evaluate_window import EvaluateWindow

    monkeypatch.setenv("YOLOSTUDIO_CONFIG_DIR", str(trained["root"] / "config"))
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    before = {Path(r["store"]).parent.name: r for r in list_evaluations(trained["run"])}
    evaluations = trained["run"] / "evaluations"
    if evaluations.exists():
        shutil.move(str(evaluations), str(trained["run"] / "evaluations.cli"))
    window = EvaluateWindow(trained["run"], trained["root"] / "ws")
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.view is not None or window.banner.level == "error", timeout=300_000)
    assert window.view is not None, window.banner.text
    shown = window.view.result
    assert shown["from_store"] is False and window.runner.outcome.status == "completed"
    key = Path(shown["store"]).parent.name
    assert key in before  # the CLI evaluated these inputs last (after the label change): the same folder,
    assert shown["metrics"] == before[key]["metrics"]  # and the same numbers from the app's worker
    assert [r["name"] for r in shown["per_class"]] == ["circle", "square", "triangle"] and shown["prescription"] is not None


def test_held_out_kfold_predictions_cover_every_training_image_exactly_once(trained):
    """``--split train --kfold 3 --kfold-epochs 2``: three 2-epoch trainings of the run's settings (two: an epoch
    that is not the last is where yolov5's train() can trip), each predicting the fold it did not learn; stored as
    the train split's evaluation, read back the second time."""
    refused = run_cli(["evaluate", "weak", "--split", "train"], trained["env"])
    assert refused.returncode == 2 and "--kfold" in refused.stderr and "biased" in refused.stderr
    out = run_cli(["evaluate", "weak", "--split", "train", "--kfold", "3", "--kfold-epochs", "2", "--json"],
                  trained["env"], timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "Held-out predictions for the 16 training images" in out.stderr and "own timings" in out.stderr
    assert "Results saved" not in out.stderr  # the job's events speak, not yolov5's log
    doc = json.loads(out.stdout)
    train = sorted(str(p) for p in (trained["data"].parent / "images" / "train").iterdir())
    assert doc["predictions"] == "kfold" and doc["split"] == "train" and doc["from_store"] is False
    assert doc["kfold"]["k"] == 3 and doc["kfold"]["epochs"] == 2 and sum(doc["kfold"]["folds"]) == 16
    images = json.loads((Path(doc["store"]).parent / "images.json").read_text())
    assert sorted(im["image"] for im in images) == train  # every training image predicted, each exactly once
    assert doc["images"] == 16 and sum(r["instances"] for r in doc["per_class"]) == doc["instances"] == sum(
        len(im["labels"]) for im in images)
    assert {e["image"] for e in doc["errors"]} <= set(train) and doc["prescription"] == []
    assert not list(Path(doc["store"]).parent.glob("folds/*/weights/*.pt"))  # the fold models are not kept
    val = json.loads(run_cli(["evaluate", "weak", "--json"], trained["env"]).stdout)
    assert val["store"] != doc["store"] and val["split"] == "val"  # its own key beside the val evaluation
    again = run_cli(["evaluate", "weak", "--split", "train", "--kfold", "3", "--kfold-epochs", "2"], trained["env"])
    assert again.returncode == 0 and "read back from the store" in again.stdout and not again.stderr.strip()
    assert "every training image once" in again.stdout
    assert_offline(trained["root"] / "net-audit.log")


def test_a_stopped_held_out_evaluation_keeps_nothing(trained, held):
    """Ctrl+C during a fold's training: the worker stops before its next batch (exit 3), nothing is stored and its
    work folder (fold lists, fold models) is removed."""
    before = set((trained["run"] / "evaluations").iterdir())
    hold = held(2)  # one step an epoch: fold 1's epoch 2 waits there until the stop is taken
    proc = subprocess.Popen([sys.executable, "-m", "cli", "evaluate", "weak", "--split", "train", "--kfold", "2",
                             "--kfold-epochs", "3"], cwd=ROOT, env=hold.env(trained["env"]),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if "fold 1 of 2: epoch 2 of 3" in line:  # a kfold_progress event: the fold is training
            proc.send_signal(signal.SIGINT)
        elif "stop requested" in line:  # the worker's stage: stopping
            hold.release()
            break
    proc.communicate(timeout=300)
    assert proc.returncode == 3
    assert set((trained["run"] / "evaluations").iterdir()) == before
