"""The goal fitted to this machine: epochs from the measured epoch time and the time budget (the user's, else on
a CPU the goal's own), the words when a choice takes hours, and the hand-over that names what it set."""

from __future__ import annotations

import pytest

from core.wizard.inputs import DatasetSummary, Goal, Gpu, Hardware, Measurements
from core.wizard.recommend import recommend
from core.wizard.tables import EPOCHS
from core.wizard.time_fit import (CPU_GOAL_BUDGET_S, MIN_EPOCHS, duration_words, epochs_equation,
                                  exact_duration_words, fit_epochs, handover_words, hours_note)

CPU = Hardware(usable_cores=2, ram_available_gb=6.0, shm_free_gb=3.0)
GPU = Hardware(usable_cores=16, ram_available_gb=60, shm_free_gb=30, gpus=(Gpu("NVIDIA GeForce RTX 4090", 24,
                                                                               capability=(8, 9)),))
#: The issue's CPU box: a measured model speed (yolov5n at 640: 1.5 img/s on 2 cores) and the loader well ahead.
SLOW_CPU = Measurements(imgsz=640, batch=16, model="yolov5n.yaml", loader={0: 40.0, 1: 60.0, 2: 70.0},
                        demand=1.5, cache_ram_gb=0.5)
PHOTOS = DatasetSummary("/d.yaml", train_images=400, val_images=40, nc=3, long_side=640)


def test_balanced_on_a_cpu_fits_the_goals_hour_and_says_so_instead_of_100_epochs():
    rec = recommend(CPU, PHOTOS, Goal("balanced"), SLOW_CPU)
    epoch_s = rec.predicted["epoch_s"]
    assert epoch_s > 60  # the measured speed: minutes per epoch
    assert rec.config["epochs"] == max(MIN_EPOCHS, int(CPU_GOAL_BUDGET_S["balanced"] // epoch_s))
    assert rec.config["epochs"] < EPOCHS["balanced"][0]
    assert rec.predicted["total_s"] == pytest.approx(epoch_s * rec.config["epochs"], abs=1)
    why = rec.reasons["epochs"].why
    assert f"{EPOCHS['balanced'][0]} epochs would take" in why and "1 h" in why and "time budget" in why
    assert exact_duration_words(round(epoch_s)) in rec.reasons["epochs"].evidence


def test_the_users_budget_wins_over_the_goals_and_a_gpu_keeps_the_goals_epochs():
    rec = recommend(CPU, PHOTOS, Goal("balanced", time_budget_s=4 * 3600), SLOW_CPU)
    assert rec.config["epochs"] == int(4 * 3600 // rec.predicted["epoch_s"])
    assert "your time budget of 4 h" in rec.reasons["epochs"].why
    assert "Training takes about" in rec.hours_note and "CPU" in rec.hours_note  # hours: said in words
    gpu = recommend(GPU, PHOTOS, Goal("balanced"), Measurements())
    assert gpu.config["epochs"] == EPOCHS["balanced"][0] and gpu.hours_note == ""  # minutes on this GPU


def test_a_budget_shorter_than_the_fewest_useful_epochs_keeps_them_and_names_their_time():
    fit = fit_epochs(Goal("quick"), 10, "why", 1800.0, on_cpu=True)
    assert fit.epochs == MIN_EPOCHS and fit.cut
    assert "Even 3 epochs take 1 h 30 min here." in fit.why
    assert hours_note(MIN_EPOCHS * 1800.0, on_cpu=True).startswith("Training takes about 1 h 30 min")


def test_a_choice_that_fits_keeps_the_goals_epochs_with_its_time_as_evidence():
    fit = fit_epochs(Goal("quick"), 10, "A quick test.", 12.0, on_cpu=True)
    assert (fit.epochs, fit.why, fit.cut) == (10, "A quick test.", False)
    assert "× 10 = 2 min" in fit.evidence and "within 15 min" in fit.evidence
    assert hours_note(3599, on_cpu=True) == ""


def test_the_epoch_arithmetic_adds_up_as_shown():
    """Issue 32: "2 min × 3 = 5 min" (100 s an epoch) — the epoch to the second, "≈" only where rounded."""
    assert epochs_equation(100.0, 3) == "1 min 40 s per epoch predicted on this machine × 3 = 5 min"
    assert epochs_equation(12.0, 10).endswith("× 10 = 2 min")
    assert epochs_equation(61.0, 100).endswith("× 100 ≈ 1 h 42 min")  # 6100 s = 1 h 41 min 40 s
    assert epochs_equation(90.0, 40).endswith("× 40 = 1 h")


@pytest.mark.parametrize(("seconds", "words"), [(40, "40 s"), (89, "1 min"), (3600, "1 h"), (20520, "5 h 42 min"),
                                                (3599, "1 h")])
def test_durations_read_as_words(seconds, words):
    assert duration_words(seconds) == words


def test_the_hand_over_names_the_epochs_and_the_predicted_time():
    doc = {"config": {"epochs": 17, "model": "yolov5n.yaml", "imgsz": 320, "batch": 16, "workers": 1,
                      "data": "/cache/prepared/d/320-jpg/data.yaml"},
           "predicted": {"epoch_s": 205.0, "total_s": 3485.0}, "prepared_copy": {"imgsz": 320},
           "hours_note": ""}
    words = handover_words(doc)
    assert "17 epochs" in words and "predicted 58 min (3 min per epoch)" in words
    assert "prepared copy: /cache/prepared/d/320-jpg/data.yaml" in words
    doc["hours_note"] = "Training takes about 5 h 42 min on this machine's CPU."
    assert handover_words(doc).endswith(doc["hours_note"])
