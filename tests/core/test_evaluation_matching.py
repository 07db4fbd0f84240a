"""Matching predictions to labels (core.evaluation.matching): yolov5's rule for true positives, then the kinds."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from yolov5.val import process_batch

from core.evaluation.matching import box_iou, count_kinds, match_image


def kinds(labels, preds, conf=0.25):
    return sorted(m.kind for m in match_image(np.array(labels, float), np.array(preds, float), conf=conf))


def test_exact_box_same_class_is_a_true_positive():
    assert kinds([[0, 10, 10, 50, 50]], [[10, 10, 50, 50, 0.9, 0]]) == ["true_positive"]


def test_each_kind_of_mistake_is_named():
    assert kinds([[0, 10, 10, 50, 50]], [[10, 10, 50, 50, 0.9, 1]]) == ["wrong_class"]
    assert kinds([[0, 10, 10, 50, 50]], [[30, 30, 70, 70, 0.9, 0]]) == ["poor_box"]  # IoU 0.14
    assert kinds([[0, 10, 10, 50, 50]], [[200, 200, 240, 240, 0.9, 0]]) == ["false_positive", "missed"]
    assert kinds([[0, 10, 10, 50, 50]], [[10, 10, 50, 50, 0.9, 0], [11, 11, 50, 50, 0.8, 0]]) == [
        "duplicate", "true_positive"]
    assert kinds([[0, 10, 10, 50, 50]], []) == ["missed"]


def test_predictions_under_the_confidence_take_no_part():
    assert kinds([[0, 10, 10, 50, 50]], [[10, 10, 50, 50, 0.1, 0]], conf=0.25) == ["missed"]


def test_every_label_and_kept_prediction_is_in_exactly_one_match():
    rng = np.random.default_rng(1)
    for _ in range(50):
        labels = np.c_[rng.integers(0, 3, 6), rng.uniform(0, 200, (6, 2)) + [[0, 0]]]
        labels = np.c_[labels, labels[:, 1:3] + rng.uniform(5, 60, (6, 2))]
        preds = np.c_[rng.uniform(0, 200, (8, 2))]
        preds = np.c_[preds, preds + rng.uniform(5, 60, (8, 2)), rng.uniform(0, 1, 8), rng.integers(0, 3, 8)]
        matches = match_image(labels, preds, conf=0.3)
        assert sorted(m.label for m in matches if m.label is not None and m.kind != "duplicate") == list(range(6))
        kept = sorted(np.nonzero(preds[:, 4] >= 0.3)[0].tolist())
        assert sorted(m.prediction for m in matches if m.prediction is not None) == kept


@pytest.mark.parametrize("seed", range(20))
def test_true_positives_agree_with_yolov5_process_batch_at_iou_05(seed):
    """The same detections count as correct at IoU 0.5 as in yolov5's own val.process_batch."""
    rng = np.random.default_rng(seed)
    labels = np.c_[rng.integers(0, 2, 5), rng.uniform(0, 100, (5, 2))]
    labels = np.c_[labels, labels[:, 1:3] + rng.uniform(10, 40, (5, 2))]
    jitter = labels[rng.integers(0, 5, 9), 1:5] + rng.normal(0, 6, (9, 4))
    preds = np.c_[jitter, rng.uniform(0, 1, 9), rng.integers(0, 2, 9)]
    correct = process_batch(torch.tensor(preds), torch.tensor(labels), torch.linspace(0.5, 0.95, 10))[:, 0].numpy()
    ours = {m.prediction for m in match_image(labels, preds, conf=0.0) if m.kind == "true_positive"}
    assert ours == set(np.nonzero(correct)[0].tolist())


def test_box_iou_agrees_with_yolov5():
    from yolov5.utils.metrics import box_iou as theirs

    a = np.array([[0, 0, 10, 10], [5, 5, 20, 25]], float)
    b = np.array([[0, 0, 10, 10], [8, 8, 30, 30], [100, 100, 110, 110]], float)
    assert np.allclose(box_iou(a, b), theirs(torch.tensor(a), torch.tensor(b)).numpy(), atol=1e-6)


def test_count_kinds_lists_every_kind():
    counts = count_kinds(match_image(np.array([[0, 0, 0, 10, 10]]), np.zeros((0, 6))))
    assert counts["missed"] == 1 and counts["true_positive"] == 0 and len(counts) == 6
