"""The Errors browser's order (core.evaluation.ranking + cleanlab's scores in core/worker/label_scores.py):
a missing label, a swapped class and an offset box each rank first among the model's ordinary mistakes."""

from __future__ import annotations

import numpy as np
import pytest

from core.evaluation.matching import match_image
from core.evaluation.ranking import ranked_errors
from core.evaluation.words import error_line, issue_word
from core.worker.label_scores import cleanlab_inputs, score_images

CONF = 0.25


def clean_dataset(n: int = 12, seed: int = 0) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """n images of two objects each, predicted where they are, plus the model's own faint mistakes: a
    low-confidence box on empty background in every other image."""
    rng = np.random.default_rng(seed)
    labels, preds = [], []
    for i in range(n):
        lab = np.array([[0, 20, 20, 80, 90], [1, 150, 40, 230, 140]], float)
        lab[:, 1:] += rng.uniform(0, 30)
        pred = np.c_[lab[:, 1:] + rng.normal(0, 1.0, (2, 4)), [0.9, 0.88], lab[:, 0]]
        if i % 2:
            pred = np.r_[pred, [[300, 300, 340, 350, 0.3, 1]]]
        labels.append(lab)
        preds.append(pred)
    return labels, preds


def ranking(labels, preds):
    scores = score_images(labels, preds, nc=2)
    return ranked_errors([{"image": f"img{i}.jpg", "matches": match_image(lab, pred, conf=CONF), "scores": s}
                          for i, (lab, pred, s) in enumerate(zip(labels, preds, scores))])


def test_a_missing_label_ranks_first():
    labels, preds = clean_dataset()
    preds[5] = np.r_[preds[5], [[260, 20, 320, 90, 0.96, 0]]]  # an object the labeller overlooked
    top = ranking(labels, preds)[0]
    assert (top["image"], top["kind"], top["label_issue"]) == ("img5.jpg", "false_positive", "overlooked")


def test_a_swapped_class_ranks_first():
    labels, preds = clean_dataset()
    labels[7][1, 0] = 0  # the class-1 object labelled as class 0; the model says 1 with confidence
    preds[7][1, 4] = 0.97
    top = ranking(labels, preds)[0]
    assert (top["image"], top["kind"], top["label_issue"]) == ("img7.jpg", "wrong_class", "swap")


def test_an_offset_box_ranks_first():
    labels, preds = clean_dataset()
    labels[3][0, 1:] += [35, 30, 35, 30]  # the box drawn well off its object
    preds[3][0, 4] = 0.95
    top = ranking(labels, preds)[0]
    assert (top["image"], top["kind"], top["label_issue"]) == ("img3.jpg", "poor_box", "badloc")


def test_a_clean_dataset_has_only_the_models_faint_mistakes_and_no_doubt_about_labels():
    rows = ranking(*clean_dataset())
    assert {r["kind"] for r in rows} == {"false_positive"}
    assert all(r["confidence"] == pytest.approx(0.3) for r in rows)


def test_three_classes_stay_on_cleanlabs_per_class_layout():
    """Five boxes of class 0, two each of 1 and 2: the shape cleanlab would take for its other layout."""
    pred = np.r_[[[i * 10, 0, i * 10 + 8, 8, 0.9, 0] for i in range(5)],
                 [[0, 50, 8, 58, 0.9, 1]] * 2, [[0, 90, 8, 98, 0.9, 2]] * 2]
    _, cl_preds, orders = cleanlab_inputs([np.zeros((0, 5))], [pred], nc=3)
    assert len(cl_preds[0]) == 4 and [len(a) for a in cl_preds[0]] == [5, 2, 2, 0]
    assert sorted(orders[0].tolist()) == list(range(9))
    scores = score_images([np.array([[0, 0, 0, 8, 8]], float)], [pred], nc=3)
    assert len(scores[0].overlooked) == 9 and len(scores[0].swap) == 1


def unsure_model(n: int = 12) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The same images, predicted by a model that is right at about 60 % confidence (a short training): below
    cleanlab's fixed 95 % "sure" level for every box it gets right."""
    labels, preds = clean_dataset(n)
    for pred in preds:
        pred[:2, 4] = [0.6, 0.58]
    return labels, preds


def test_an_unsure_models_confident_box_on_an_unlabelled_object_is_a_missing_label_first():
    labels, preds = unsure_model()
    preds[5] = np.r_[preds[5], [[260, 20, 320, 90, 0.62, 0]]]
    top = ranking(labels, preds)[0]
    assert (top["image"], top["kind"], top["label_issue"]) == ("img5.jpg", "false_positive", "overlooked")
    assert top["label_score"] < 1.0
    # cleanlab's fixed 95 % never scores that box: it is not doubted at all
    raw = score_images(labels, preds, nc=2, calibrated=False)
    assert np.isnan(raw[5].overlooked[-1])


def test_an_unsure_models_other_class_on_a_label_is_a_swapped_class_first():
    labels, preds = unsure_model()
    labels[7][1, 0] = 0
    top = ranking(labels, preds)[0]
    assert (top["image"], top["kind"], top["label_issue"]) == ("img7.jpg", "wrong_class", "swap")
    assert top["label_score"] < 1.0
    assert score_images(labels, preds, nc=2, calibrated=False)[7].swap[1] == 1.0


def test_each_class_is_calibrated_on_how_often_the_model_is_right_for_it():
    """Class 1 is always right at 0.4 and wrong below it; class 0 right at 0.9: 0.4 means 'sure' for class 1 only."""
    from core.worker.label_belief import ClassCalibration

    labels, preds = clean_dataset()
    for pred in preds:
        pred[1, 4] = 0.4
    calibration = ClassCalibration.fit(labels, preds, nc=2)
    belief = calibration.belief(np.array([0.4, 0.4, 0.3, 0.95]), np.array([1, 0, 1, 0]))
    assert belief[0] == pytest.approx(1.0)  # every class-1 box at 0.4 was right
    assert belief[1] < 0.5  # class 0 is never that unsure when right
    assert belief[2] == pytest.approx(0.0)  # the faint class-1 boxes on background were all wrong
    assert belief[3] == pytest.approx(1.0)


def test_a_label_the_model_sees_as_another_class_below_the_threshold_is_a_swap():
    """The model is unsure (0.2, under the shown threshold) but sees only class 1 on a box labelled 0, as it does
    on every class-1 object: the 'missed' label is listed as a likely swapped class, ahead of the model's faint guesses."""
    labels, preds = clean_dataset()
    for pred in preds:
        pred[1, 4] = 0.2  # class 1 is found, but only at 20 %
        pred[2:, 4] = 0.1  # the faint boxes on background fainter still
    labels[4][1, 0] = 0
    top = ranking(labels, preds)[0]
    assert (top["image"], top["kind"], top["label_issue"]) == ("img4.jpg", "missed", "swap")


def test_a_box_the_model_sees_as_both_classes_is_its_confusion_not_a_label_mistake():
    labels, preds = clean_dataset()
    preds[6] = np.r_[preds[6], [[*labels[6][0, 1:5], 0.89, 1]]]  # class 0's object also seen as class 1
    labels[8][1, 0] = 0  # a real swap: the model sees only class 1 there
    rows = ranking(labels, preds)
    swaps = [r["image"] for r in rows if r["label_issue"] == "swap"]
    assert swaps[0] == "img8.jpg"
    scores = score_images(labels, preds, nc=2)
    assert scores[8].swap[1] < 0.1  # only the other class is seen on it
    assert scores[6].swap[0] > 0.9  # its own class is seen on it as surely as the other


def biased_model(n: int = 12) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """A short training's bias: on every class-0 object it says class 0 at 0.6 *and* class 1 at 0.55; on class-1
    objects class 1 at 0.6 and class 0 only at 0.2 (under the threshold). Each box alone is right as often; the pair says which is which."""
    labels, preds = clean_dataset(n)
    for lab, pred in zip(labels, preds):
        pred[:2, 4] = 0.6
        preds_other = np.c_[lab[:, 1:5], [0.55, 0.2], [1, 0]]
        pred.resize((len(pred) + 2, 6), refcheck=False)
        pred[-2:] = preds_other
    return labels, preds


def test_a_box_seen_as_both_classes_is_a_swap_when_this_models_bias_says_so():
    labels, preds = biased_model()
    labels[3][0, 0] = 1  # a class-0 object labelled 1: the model's usual "0 at 0.6, 1 at 0.55" is on it
    rows = ranking(labels, preds)
    both = [r for r in rows if r["kind"] == "duplicate" and r["predicted_class"] != r["label_class"]]
    assert len(both) == 12  # every class-0 object is seen as both classes, the swapped one too
    assert (both[0]["image"], both[0]["label_issue"]) == ("img3.jpg", "swap")
    assert both[0]["class_doubt"] > 0.5 > max(r["class_doubt"] for r in both[1:])
    assert "img3.jpg" in error_line(both[0]) and issue_word("swap") in error_line(both[0])
    assert issue_word("swap") not in error_line(both[1])


def test_class_doubt_never_reads_a_boxs_own_label_and_leaves_a_lone_class_alone():
    from core.worker.class_doubt import class_doubts

    labels, preds = biased_model()
    labels[3][0, 0] = 1
    labels[5][0, 0] = 2  # the only class-2 box: nothing to learn class 2 from
    doubts = class_doubts(labels, preds, nc=3)
    assert [len(d) for d in doubts] == [len(lab) for lab in labels]
    assert doubts[5][0] == 0.0
    assert doubts[3][0] > 0.5  # held out, its "1" is judged by the other boxes: they say class 0
    assert max(d[0] for i, d in enumerate(doubts) if i not in (3, 5)) < 0.5
    assert [len(d) for d in class_doubts([np.zeros((0, 5))], [np.zeros((0, 6))], nc=2)] == [0]
