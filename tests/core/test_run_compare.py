"""Comparing runs (core.run_compare): only the settings that differ, mAP from a stored evaluation when there is
one (per class too), else from training, and the runs' speed figures."""

from __future__ import annotations

from core.run_compare import ComparedRun, comparison_rows, differing_settings
from core.runs.store import RunInfo


def test_only_differing_settings_are_listed_nested_ones_by_dotted_name():
    rows = differing_settings([{"imgsz": 640, "epochs": 10, "hyp": {"lr0": 0.01, "mosaic": 1.0}, "data": "a"},
                               {"imgsz": 1280, "epochs": 10, "hyp": {"lr0": 0.01, "mosaic": 0.5}}])
    assert rows == [("data", ["a", None]), ("hyp.mosaic", [1.0, 0.5]), ("imgsz", [640, 1280])]


def test_rows_take_the_evaluation_when_present_else_training():
    evaluated = ComparedRun(RunInfo("a", "/r/a", "completed", best_map50=0.4, best_map50_95=0.2, images_per_s=51.23,
                                    data_wait_share=0.125, gpu_util_mean_percent=88.0, epochs_done=10, epochs_total=10),
                            {"imgsz": 640}, {"split": "val", "metrics": {"map50": 0.45, "map": 0.25},
                                             "per_class": [{"name": "cat", "map50": 0.6}, {"name": "emu", "map50": 0.3}]})
    trained = ComparedRun(RunInfo("b", "/r/b", "stopped", best_map50=0.5, best_map50_95=None, epochs_done=3,
                                  epochs_total=20), {"imgsz": 1280}, None)
    rows = dict(comparison_rows([evaluated, trained]))
    assert rows["imgsz"] == ["640", "1280"]
    assert rows["accuracy from"] == ["evaluation (val)", "training's best epoch"]
    assert rows["mAP@0.5"] == ["0.450", "0.500"] and rows["mAP@0.5:0.95"] == ["0.250", "—"]
    assert rows["mAP@0.5 of cat"] == ["0.600", "—"] and rows["mAP@0.5 of emu"] == ["0.300", "—"]
    assert rows["images/s"] == ["51.2", "—"] and rows["data wait"] == ["12 %", "—"]
    assert rows["GPU busy"] == ["88 %", "—"] and rows["epochs done"] == ["10/10", "3/20"]
