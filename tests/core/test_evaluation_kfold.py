"""Held-out (k-fold) predictions for the train split (core.evaluation.kfold, core.evaluation.kfold_request): every
image in exactly one fold, each fold's data.yaml trains on the others and holds its own out, the time estimated
from the run's own epochs with its basis said, and the plan keyed apart from the val evaluation; refusals in
words. The CLI refuses a plain --split train and says why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from cli.main import main as cli_main
from core.evaluation.kfold import KfoldEstimate, MeasuredRun, assign_folds, estimate, estimate_text, fold_data, \
    fold_epochs, measured_run
from core.evaluation.kfold_request import build_kfold_spec, fold_identity, plan_kfold_evaluation
from core.evaluation.request import EvaluationRefused, plan_run_evaluation
from core.evaluation.store import save_evaluation
from tests.fixtures.evaluable_run import evaluable_run

IMAGES = [f"/d/images/train/{i:02d}.jpg" for i in range(10)]


def test_folds_cover_every_image_exactly_once_and_are_the_same_each_time():
    folds = assign_folds(reversed(IMAGES), 3)
    assert sorted(p for fold in folds for p in fold) == IMAGES  # each once
    assert sorted(len(f) for f in folds) == [3, 3, 4]
    assert folds == assign_folds(IMAGES, 3)  # seeded: the input's order does not matter
    assert assign_folds(IMAGES, 3, seed=1) != folds
    with pytest.raises(ValueError, match="too few for 11 folds"):
        assign_folds(IMAGES, 11)
    with pytest.raises(ValueError, match="at least 2 folds"):
        assign_folds(IMAGES, 1)


def test_a_folds_data_trains_on_the_others_and_holds_its_own_out(tmp_path):
    folds = assign_folds(IMAGES, 3)
    data = fold_data(tmp_path, 1, folds, ["cat", "emu"])
    doc = yaml.safe_load(data.read_text())
    assert doc["names"] == ["cat", "emu"] and doc["nc"] == 2 and "download" not in doc
    train = Path(doc["train"]).read_text().splitlines()
    held = Path(doc["val"]).read_text().splitlines()
    assert held == folds[1] and sorted(train) == sorted(folds[0] + folds[2]) and not set(train) & set(held)


def test_fold_epochs_are_the_runs_capped_unless_asked():
    assert fold_epochs(300) == 10 and fold_epochs(4) == 4 and fold_epochs(None) == 10 and fold_epochs(300, 2) == 2


def events(epoch_times, finish=4.0):
    out = [{"type": "stage", "stage": "starting", "t": 100.0}, {"type": "epoch_start", "epoch": 0, "t": 112.0}]
    out += [{"type": "epoch_end", "epoch": i, "epoch_time_s": s, "t": 200.0 + i} for i, s in enumerate(epoch_times)]
    return out + [{"type": "done", "status": "completed", "t": 200.0 + len(epoch_times) - 1 + finish}]


def test_the_estimate_comes_from_the_runs_own_timings_and_says_its_basis():
    # the first epoch pays for warm-up; later ones are their median; finishing is yolov5's final validation
    assert measured_run(events([30.0, 10.0, 12.0, 11.0])) == MeasuredRun(12.0, 30.0, 11.0, 4.0)
    cost = estimate(events([30.0, 10.0, 12.0, 11.0]), k=3, epochs=6, run_name="exp")
    assert cost.seconds == pytest.approx(3 * (12 + 2 / 3 * (30.0 + 5 * 11.0) + 4))
    assert "3 trainings" in cost.basis and "30.0 s for the first epoch + 5 more × 11.0 s" in cost.basis
    assert "2/3 of the images" in cost.basis and "4 s to finish" in cost.basis
    assert estimate_text(cost).startswith("about 3:38 (")  # 218 s
    unknown = estimate([], k=3, epochs=6, run_name="exp")
    assert unknown.seconds is None and "no measured epoch" in unknown.basis
    assert estimate_text(unknown) == unknown.basis
    assert isinstance(unknown, KfoldEstimate)


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    run, data_yaml = evaluable_run(tmp_path, train=7, val=2)
    config = {"data": str(data_yaml), "imgsz": 64, "batch": 4, "epochs": 30, "device": "0,1",
              "name": "exp"}
    spec = {"config": config, "resolved": {"data": config["data"], "cfg": "yolov5n.yaml", "weights": "",
                                           "hyp": "hyp.yaml"}, "trusted_weights": [], "trusted_model": False}
    (run / "config.json").write_text(json.dumps({"spec": spec}))
    (run / "events.jsonl").write_text("".join(json.dumps({"v": 1, **e}) + "\n" for e in events([5.0, 2.0, 2.0])))
    return run


def test_a_runs_plan_keys_apart_from_val_reads_back_and_trains_on_one_device(run_dir):
    workspace = run_dir.parents[1]
    plan = plan_kfold_evaluation(run_dir, workspace)
    assert plan.k == 3 and plan.epochs == 10 and sorted(p for f in plan.folds for p in f) == sorted(
        str(p) for p in (run_dir.parents[2] / "data" / "images" / "train").iterdir())
    assert plan.settings.split == "train" and plan.settings.batch == 8  # the run's validation: batch × 2
    assert plan.folder.parent == run_dir / "evaluations" and plan.stored is None
    assert plan.key != plan_run_evaluation(run_dir, workspace).plan.key
    assert plan.estimate.seconds == pytest.approx(3 * (12 + 2 / 3 * (5.0 + 9 * 2.0) + 4))
    assert plan_kfold_evaluation(run_dir, workspace, epochs=2).key != plan.key
    spec = build_kfold_spec(plan, workspace)
    assert spec["job"] == "evaluate_kfold" and spec["device"] == "0" and spec["folds"] == plan.folds
    assert spec["run_spec"]["config"]["epochs"] == 30 and spec["epochs"] == 10
    save_evaluation(plan.folder, {"predictions": "kfold", "split": "train"}, [])
    assert plan_kfold_evaluation(run_dir, workspace).stored == {"predictions": "kfold", "split": "train"}


def test_what_a_fold_learns_from_is_keyed_but_not_where_it_runs(run_dir):
    spec = json.loads((run_dir / "config.json").read_text())["spec"]
    moved = {**spec, "config": {**spec["config"], "device": "cpu", "workers": 8, "name": "other"}}
    assert fold_identity(moved) == fold_identity(spec)
    assert fold_identity({**spec, "config": {**spec["config"], "imgsz": 320}}) != fold_identity(spec)


def test_refusals_say_why(run_dir):
    workspace = run_dir.parents[1]
    with pytest.raises(EvaluationRefused, match="too few for 9 folds") as too_many:
        plan_kfold_evaluation(run_dir, workspace, k=9)
    assert "--kfold 2" in too_many.value.hint
    (run_dir / "config.json").write_text("{}")
    with pytest.raises(EvaluationRefused, match="no readable config.json"):
        plan_kfold_evaluation(run_dir, workspace)


def test_the_cli_refuses_a_plain_train_split_and_offers_kfold(run_dir, monkeypatch, capsys):
    monkeypatch.setenv("YOLOSTUDIO_WORKSPACE", str(run_dir.parents[1]))
    assert cli_main(["evaluate", "exp", "--split", "train"]) == 2
    err = capsys.readouterr().err
    assert "biased" in err and "--split train --kfold 3" in err
    assert cli_main(["evaluate", "exp", "--kfold", "3"]) == 2
    assert "Add --split train" in capsys.readouterr().err


def test_the_cli_lists_the_evaluations_stored_with_a_run(run_dir, monkeypatch, capsys):
    monkeypatch.setenv("YOLOSTUDIO_WORKSPACE", str(run_dir.parents[1]))
    assert cli_main(["evaluate", "exp", "--list"]) == 0
    assert "no stored evaluation yet" in capsys.readouterr().out
    workspace = run_dir.parents[1]
    held = plan_kfold_evaluation(run_dir, workspace)
    save_evaluation(held.folder, {"created": 2.0, "split": "train", "predictions": "kfold", "images": 7,
                                  "metrics": {"map50": 0.5, "map": 0.25}}, [])
    val = plan_run_evaluation(run_dir, workspace).plan
    save_evaluation(val.folder, {"created": 1.0, "split": "val", "images": 2, "metrics": {"map50": 0.75, "map": 0.5}},
                    [])
    assert cli_main(["evaluate", "exp", "--list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(r["split"], r.get("predictions")) for r in listed] == [("train", "kfold"), ("val", None)]  # newest first
    assert listed[0]["store"] == str(held.folder / "result.json")
    assert cli_main(["evaluate", "exp", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "held-out k-fold, train" in lines[1] and "0.500" in lines[1] and lines[2].split()[2] == "val"
