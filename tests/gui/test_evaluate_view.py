"""The Evaluate view (gui/evaluate/view.py) shows a stored result as it is: the per-class table, the confusion
matrix with its words, the curves yolov5 computed, the prescription, and which split it judged."""

from __future__ import annotations

from typing import Any

from gui.evaluate.view import EvaluationView


def result() -> dict[str, Any]:
    conf = [i / 100 for i in range(100)]
    return {
        "weights": "/runs/exp/weights/best.pt", "split": "test", "images": 40, "instances": 90,
        "metrics": {"precision": 0.8, "recall": 0.7, "map50": 0.75, "map": 0.5},
        "interval": {"value": 0.5, "low": 0.42, "high": 0.58, "images": 40, "draws": 200},
        "best_f1": {"confidence": 0.31, "f1": 0.74},
        "speed_ms": {"preprocess": 0.5, "inference": 4.0, "nms": 1.0},
        "per_class": [{"name": "cat", "instances": 60, "precision": 0.9, "recall": 0.8, "map50": 0.85, "map": 0.6},
                      {"name": "emu", "instances": 30, "precision": None, "recall": None, "map50": None,
                       "map": None}],
        "confusion": {"labels": ["cat", "emu", "background"], "matrix": [[50, 3, 4], [2, 20, 1], [8, 7, 0]],
                      "conf": 0.25, "iou": 0.45},
        "curves": {"pr": {"recall": conf, "classes": {"cat": [1 - c for c in conf]}, "all": [1 - c for c in conf]},
                   "f1": {"confidence": conf, "classes": {"cat": [c * (1 - c) for c in conf]},
                          "all": [c * (1 - c) for c in conf]}},
        "prescription": [{"title": "Still improving at the last epoch (50 of 50)", "detail": "more epochs",
                          "fix": "Train more (yolostudio train --epochs 100).", "changes": []}],
    }


def test_the_view_shows_the_stored_numbers_and_words(qtbot):
    view = EvaluationView(result())
    qtbot.addWidget(view)
    assert view.classes.rowCount() == 2
    assert [view.classes.item(0, j).text() for j in range(6)] == ["cat", "60", "0.900", "0.800", "0.850", "0.600"]
    assert view.classes.item(1, 2).text() == "—"  # no labels of it: no metric, not a zero
    assert view.confusion.rowCount() == 3 and view.confusion.item(2, 0).text() == "8"
    assert view.confusion.verticalHeaderItem(2).text() == "predicted background"
    words = view.confusion_words.text()
    assert "15 labelled objects that no detection found" in words and "5 detections where no object" in words
    assert "mAP@0.5:0.95 0.50 ± 0.08 on 40 images" in view.headline.text()
    assert "Predictions of best.pt on the test split" in view.scope.text() and "held-out (k-fold)" in view.scope.text()
    assert "Train more" in view.prescription.text()
    assert len(view.pr_plot.getPlotItem().listDataItems()) == 2 and len(view.f1_plot.getPlotItem().listDataItems()) == 2


def test_an_evaluation_without_curves_or_prescription_still_shows(qtbot):
    bare = {k: v for k, v in result().items() if k not in ("curves", "prescription")}
    view = EvaluationView(bare)
    qtbot.addWidget(view)
    assert not view.pr_plot.getPlotItem().listDataItems()
    assert "Nothing to change" in view.prescription.text()


def test_a_held_out_evaluation_says_it_shows_k_fold_predictions_on_the_train_split(qtbot):
    held = {**result(), "split": "train", "predictions": "kfold", "run": "exp", "prescription": [],
            "kfold": {"k": 3, "epochs": 2, "folds": [14, 13, 13]}, "weights": "yolov5n.pt"}
    view = EvaluationView(held)
    qtbot.addWidget(view)
    assert "Held-out (k-fold) predictions of run exp on the train split: 40 images" in view.title.text()
    assert view.scope.text().startswith("Held-out (k-fold) predictions on the train split: 3 fold models")
    assert "every training image once" in view.scope.text()
    assert "few images" in view.headline.text() and "val set" not in view.headline.text()
    assert "judges the val evaluation" in view.prescription.text()
