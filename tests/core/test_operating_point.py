"""The operating point and its intervals from an evaluation's stored matches (core/evaluation/operating_point.py):
the bootstrap interval holds the point estimate and narrows with more images; a target recall is reached on the
stored matches at the highest confidence that reaches it; a false-alarm limit holds; the matching is the Errors
browser's (yolov5's rule at IoU 0.5)."""

from __future__ import annotations

import numpy as np
import pytest

from core.evaluation.matching import match_image
from core.evaluation.operating_point import _candidates, at_confidence, choose, counts_at, stored_matches
from tests.fixtures.report_run import NAMES, synthetic_images

NC = len(NAMES)


def test_the_true_positives_are_the_matchings_own():
    images = synthetic_images(40, seed=3)
    m = stored_matches(images, NC)
    tp, fp = counts_at(m, 0.01)
    theirs = [k.kind for im in images for k in match_image(im["labels"], im["predictions"], conf=0.01)]
    assert tp.sum() == theirs.count("true_positive") > 0
    assert tp.sum() + fp.sum() == sum(len(im["predictions"]) for im in images)
    assert (m.labels.sum(0) == np.bincount([lab[0] for im in images for lab in im["labels"]], minlength=NC)).all()


def test_the_interval_holds_the_estimate_and_narrows_with_more_images():
    widths = {}
    for n in (30, 600):
        fig = at_confidence(stored_matches(synthetic_images(n, seed=1), NC), 0.3, draws=400, seed=0)
        for row in [*fig["per_class"], fig["overall"]]:
            for key in ("precision", "recall", "false_alarms_per_100"):
                f = row[key]
                assert f["low"] <= f["value"] <= f["high"], (n, key, f)
        o = fig["overall"]
        widths[n] = {k: o[k]["high"] - o[k]["low"] for k in ("precision", "recall", "false_alarms_per_100")}
    for key in widths[30]:
        assert widths[600][key] < widths[30][key] / 2, key  # √20 ≈ 4.5 times narrower in theory


def test_the_same_seed_gives_the_same_interval():
    m = stored_matches(synthetic_images(50), NC)
    assert at_confidence(m, 0.2, draws=100, seed=7) == at_confidence(m, 0.2, draws=100, seed=7)


@pytest.mark.parametrize("target", [0.5, 0.7, 0.79])
def test_a_target_recall_is_reached_at_the_highest_confidence_that_reaches_it(target):
    m = stored_matches(synthetic_images(80, seed=2), NC)
    point = choose(m, target_recall=target)
    assert point.rule == "recall" and point.reached
    assert at_confidence(m, point.confidence, draws=1)["overall"]["recall"]["value"] >= target
    higher = _candidates(m)[_candidates(m) > point.confidence]
    assert at_confidence(m, float(higher[0]), draws=1)["overall"]["recall"]["value"] < target


def test_an_unreachable_recall_is_said_and_the_lowest_confidence_used():
    m = stored_matches(synthetic_images(80, seed=2, found=0.5), NC)
    point = choose(m, target_recall=0.99)
    assert not point.reached and point.confidence == pytest.approx(0.01)


@pytest.mark.parametrize("limit", [0.0, 5.0, 30.0])
def test_a_false_alarm_limit_holds_at_the_lowest_confidence_that_keeps_it(limit):
    m = stored_matches(synthetic_images(80, seed=4), NC)
    point = choose(m, max_false_alarms=limit)
    assert at_confidence(m, point.confidence, draws=1)["overall"]["false_alarms_per_100"]["value"] <= limit
    lower = _candidates(m)[_candidates(m) < point.confidence]
    if len(lower):
        assert at_confidence(m, float(lower[-1]), draws=1)["overall"]["false_alarms_per_100"]["value"] > limit


def test_best_f1_is_the_evaluations_confidence_not_below_the_stored_floor():
    m = stored_matches(synthetic_images(10), NC)
    assert choose(m, best_f1=0.42).confidence == 0.42
    assert choose(m, best_f1=0.0).confidence == pytest.approx(0.01)  # a weak model's best F1 at 0: the store's floor


def test_no_detection_leaves_precision_undefined_and_recall_zero():
    images = [{"labels": [[0, 1, 1, 5, 5]], "predictions": []} for _ in range(5)]
    fig = at_confidence(stored_matches(images, NC), 0.25, draws=50)
    assert fig["overall"]["precision"]["value"] is None and fig["overall"]["recall"]["value"] == 0.0
