"""One rule for "the best epoch" (yolov5's fitness): the Train page, the Runs page and `yolostudio runs` agree."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core.run.best_epoch import BestEpoch, best_epoch, epoch_candidate, fitness, update_best
from core.run.progress import RunProgress
from core.job.protocol import make_event, read_events
from core.runs.store import create_run, read_run
from core.run.files import EVENTS_FILE
from core.training.config import MachineFacts, TrainConfig, validate_config

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "recorded_train_events.jsonl"
M50, M95 = "metrics/mAP_0.5", "metrics/mAP_0.5:0.95"


def epoch_end(epoch: int, m50: float, m95: float, **extra) -> dict:
    return make_event("epoch_end", epoch=epoch, epochs=3, metrics={M50: m50, M95: m95}, epoch_time_s=1.0, **extra)


def test_fitness_is_yolov5s_weighting():
    assert fitness({M50: 0.5, M95: 0.3, "metrics/precision": 1.0}) == pytest.approx(0.1 * 0.5 + 0.9 * 0.3)
    assert fitness({M50: 0.5}) is None


def test_best_is_the_fittest_epoch_not_each_metrics_maximum():
    events = [epoch_end(0, 0.60, 0.10), epoch_end(1, 0.50, 0.30), epoch_end(2, 0.55, 0.20)]
    best = best_epoch(events)
    assert best is not None and best.epoch == 1 and (best.map50, best.map50_95) == (0.50, 0.30)


def test_reported_fitness_wins_over_the_computed_one():
    events = [epoch_end(0, 0.9, 0.9, fitness=0.1), epoch_end(1, 0.1, 0.1, fitness=0.5)]
    assert best_epoch(events).epoch == 1


def test_a_tie_goes_to_the_later_epoch_as_yolov5_overwrites_best_pt():
    first, second = BestEpoch(0, 0.5), BestEpoch(3, 0.5)
    assert update_best(first, second) is second
    assert update_best(second, BestEpoch(4, 0.4)) is second
    assert update_best(first, None) is first


def test_epochs_without_metrics_are_no_candidates():
    assert epoch_candidate(0, {}) is None
    assert best_epoch([make_event("epoch_end", epoch=0, epochs=1, metrics={})]) is None


def test_train_page_and_runs_page_show_the_same_best_on_the_recorded_run(tmp_path):
    events = read_events(RECORDED)
    ends = [e for e in events if e["type"] == "epoch_end"]
    by_map50 = max(ends, key=lambda e: e["metrics"][M50])["epoch"]
    by_fitness = max(ends, key=lambda e: e["fitness"])["epoch"]
    assert by_map50 != by_fitness  # the fixture is one where the two rules disagree

    progress = RunProgress()  # the Train page's and the CLI progress's fold
    for ev in events:
        progress.feed(ev)

    data = tmp_path / "data.yaml"
    data.write_text("train: a\nval: b\nnames: [x]\n", encoding="utf-8")
    run = create_run(tmp_path / "ws", validate_config(TrainConfig(data=str(data), device="cpu"), MachineFacts(0)))
    shutil.copyfile(RECORDED, run / EVENTS_FILE)
    info = read_run(run, alive=lambda pid, ct: False)  # the Runs page's and `yolostudio runs`' summary

    assert info.best_epoch == progress.best_epoch == by_fitness
    assert info.best_map50 == progress.best_map50 == ends[by_fitness]["metrics"][M50]
    assert info.best_map50_95 == progress.best_map50_95 == ends[by_fitness]["metrics"][M95]


def test_results_csv_fallback_uses_the_same_rule(tmp_path):
    data = tmp_path / "data.yaml"
    data.write_text("train: a\nval: b\nnames: [x]\n", encoding="utf-8")
    run = create_run(tmp_path / "ws", validate_config(TrainConfig(data=str(data), device="cpu"), MachineFacts(0)))
    (run / "results.csv").write_text(
        "               epoch,     metrics/mAP_0.5,metrics/mAP_0.5:0.95\n"
        "                   0,             0.6,          0.10\n"
        "                   1,             0.5,          0.30\n", encoding="utf-8")
    info = read_run(run, alive=lambda pid, ct: False)
    assert (info.best_epoch, info.best_map50, info.best_map50_95) == (1, 0.5, 0.3)
