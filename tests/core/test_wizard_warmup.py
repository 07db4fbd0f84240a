"""The wizard's prediction includes what a run pays once (the first epoch's warm-up, the cache fill), and the
wizard never recommends a setting its own measurements predict no faster than yolov5's defaults (issue 36).
Injected measurements only: no timing is taken here."""

from __future__ import annotations

from dataclasses import replace

from core.wizard import tables as T
from core.wizard.defaults import default_workers, defaults_rate
from core.wizard.inputs import DatasetSummary, Goal, Gpu, Hardware, Measurements
from core.wizard.recommend import recommend
from core.wizard.warmup import predicted, warmup_s

CPU = Hardware(usable_cores=2, ram_available_gb=22.0, shm_free_gb=3.0)
SMALL = DatasetSummary("/d.yaml", train_images=200, val_images=20, nc=3, long_side=320)
LARGE = DatasetSummary("/d.yaml", train_images=200, val_images=20, nc=3, long_side=2400)
# The small-images case issue 36 measured (wizard.json of its bench): every path feeds the model, the prepared
# copy only 4% ahead by the CPU rule — and 12% slower in the run.
SMALL_M = Measurements(imgsz=128, batch=16, model="yolov5n.yaml", loader={0: 560.0, 1: 533.0, 2: 953.0},
                       loader_cached={0: 2161.0, 1: 1541.0, 2: 2236.0}, loader_prepared={0: 1144.0, 1: 933.0, 2: 1595.0},
                       demand=79.0, cache_ram_gb=0.007, first_step_s=1.2)
LARGE_M = replace(SMALL_M, loader={0: 9.0, 1: 8.5, 2: 15.0})  # decoding 2400 px JPEGs starves the model


def test_the_first_epoch_is_predicted_with_the_first_steps_excess_and_the_whole_run_with_it():
    rec = recommend(CPU, LARGE, Goal(imgsz=128), LARGE_M)
    p = rec.predicted
    excess = 1.2 - 16 / 79.0  # the first step less a steady one, at the measured batch and model
    assert abs(p["warmup_s"] - round(excess, 1)) < 0.051
    assert p["first_epoch_s"] == round(p["epoch_s"] + p["warmup_s"], 1)
    epochs = rec.config["epochs"]
    assert abs(p["total_s"] - (p["start_s"] + p["warmup_s"] + p["epoch_s"] * epochs)) < 0.1 * epochs
    assert p["run_images_per_s"] < p["images_per_s"]  # the run's images/s counts the warm-up and validation


def test_no_first_step_measured_means_no_warmup_and_a_larger_model_warms_up_longer():
    assert warmup_s(replace(SMALL_M, first_step_s=None), 79.0) == 0.0
    assert warmup_s(SMALL_M, 79.0 / 4) > 3.9 * warmup_s(SMALL_M, 79.0)  # a model 4x the work: 4x the excess
    assert warmup_s(replace(SMALL_M, first_step_s=0.1), 79.0) == 0.0  # never negative


def test_a_short_run_is_predicted_slower_per_image_than_its_steady_epochs():
    three = predicted(rate=80.0, epoch_s=2.8, warm_s=1.4, start_s=0.0, epochs=3, train_images=200)
    hundred = predicted(rate=80.0, epoch_s=2.8, warm_s=1.4, start_s=0.0, epochs=100, train_images=200)
    assert abs(three["total_s"] - (2.8 * 3 + 1.4)) < 1e-6
    assert three["run_images_per_s"] < hundred["run_images_per_s"] < 200 / 2.8


def test_a_ram_cache_is_filled_before_the_first_epoch_and_that_time_is_predicted():
    # Originals decode slowly and a cache makes the loader 10x faster: the cache is chosen, and filling it costs
    # the difference per image on yolov5's cache threads (min(8, cores - 1) = 1 here).
    m = replace(SMALL_M, loader={0: 20.0, 1: 19.0, 2: 30.0}, loader_prepared={},
                loader_cached={0: 400.0, 1: 380.0, 2: 600.0})
    ds = replace(SMALL, long_side=200)
    rec = recommend(CPU, ds, Goal(imgsz=128), m)
    assert rec.config["cache"] == "ram"
    assert abs(rec.predicted["start_s"] - 200 * (1 / 20.0 - 1 / 400.0)) < 0.1
    p, epochs = rec.predicted, rec.config["epochs"]
    assert abs(p["total_s"] - (p["start_s"] + p["warmup_s"] + p["epoch_s"] * epochs)) < 0.1 * epochs


def test_small_images_keep_yolov5s_defaults_when_the_pick_is_not_clearly_faster_and_say_so():
    rec = recommend(CPU, SMALL, Goal(imgsz=128), SMALL_M)
    assert rec.data_choice == "originals" and rec.prepare_imgsz is None and rec.config["cache"] == ""
    assert rec.config["workers"] == default_workers(CPU, 16) == 2  # yolov5's 8, capped at the cores
    assert "defaults" in rec.reasons["data"].why and "prepared copy" in rec.reasons["data"].why
    assert "default" in rec.reasons["workers"].why and "default" in rec.reasons["cache"].why


def test_the_wizard_never_predicts_less_than_the_defaults_it_measured():
    for loader in ({0: 560.0, 1: 533.0, 2: 953.0}, {0: 9.0, 1: 8.5, 2: 15.0}, {0: 90.0, 1: 60.0, 2: 160.0}):
        for prepared in ({}, {0: 1144.0, 1: 933.0, 2: 1595.0}, {0: 70.0, 1: 75.0, 2: 140.0}):
            m = replace(SMALL_M, loader=loader, loader_prepared=prepared)
            for ds in (SMALL, LARGE):
                rec = recommend(CPU, ds, Goal(imgsz=128), m)
                _w, baseline = defaults_rate(CPU, m, 16, m.demand)
                assert rec.predicted["images_per_s"] >= round(baseline, 1) - 0.05, (loader, prepared, ds)
                if rec.data_choice != "originals" or rec.config["workers"] != 2:  # a change must be worth it
                    assert rec.predicted["images_per_s"] >= baseline * (1 + T.DEFAULTS_MARGIN) - 0.05


def test_large_photos_still_get_the_prepared_copy_far_ahead_of_the_defaults():
    rec = recommend(CPU, LARGE, Goal(imgsz=128), LARGE_M)
    assert rec.data_choice in ("prepared", "prepared+cache")
    assert "defaults" not in rec.reasons["data"].why


def test_on_a_gpu_the_originals_with_fewer_workers_than_8_stay_the_wizards_choice():
    hw = Hardware(usable_cores=16, ram_available_gb=60, shm_free_gb=30,
                  gpus=(Gpu("NVIDIA GeForce RTX 4090", 24, 0.0, (8, 9)),))
    m = Measurements(imgsz=640, batch=32, model="yolov5s.yaml", loader={0: 50.0, 2: 400.0, 4: 800.0, 8: 1500.0},
                     demand=300.0, first_step_s=3.0)
    rec = recommend(hw, replace(SMALL, long_side=640, train_images=5000), Goal(imgsz=640), m)
    assert rec.data_choice == "originals" and rec.config["workers"] == 2  # enough with headroom, fewer cores
    assert "defaults" not in rec.reasons["workers"].why


def test_the_wizards_text_says_what_a_run_pays_once(tmp_path):
    from cli.verbs.wizard import result_text
    from core.wizard.session import result_document

    rec = recommend(CPU, LARGE, Goal(imgsz=128), LARGE_M)
    text = result_text(result_document(rec, LARGE_M, tmp_path, source_data="/d.yaml"))
    assert f"the first epoch {rec.predicted['warmup_s']:.1f} s longer" in text
    assert f"{rec.predicted['run_images_per_s']:.0f} images/s over the whole run" in text
