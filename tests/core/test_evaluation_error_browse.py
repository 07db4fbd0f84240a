"""The Errors browser's list and fixes as pure functions (core.evaluation.error_browse): filters keep the stored
order, a row's boxes come from images.json, and only the fixes its boxes allow are offered."""

from __future__ import annotations

from core.evaluation.error_browse import (ErrorFilter, can_accept, can_change_class, can_delete, class_choices,
                                          filtered, row_boxes)

NAMES = {0: "cat", 1: "emu", 2: "owl"}

ERRORS = [
    {"image": "a.jpg", "kind": "false_positive", "class": "cat", "predicted_name": "cat", "label": None,
     "prediction": 0, "label_class": None, "predicted_class": 0, "confidence": 0.9},
    {"image": "b.jpg", "kind": "wrong_class", "class": "emu", "predicted_name": "cat", "label": 0,
     "prediction": 0, "label_class": 1, "predicted_class": 0, "confidence": 0.8},
    {"image": "a.jpg", "kind": "missed", "class": "emu", "predicted_name": None, "label": 0, "prediction": None,
     "label_class": 1, "predicted_class": None, "confidence": None},
    {"image": "c.jpg", "kind": "false_positive", "class": "emu", "predicted_name": "emu", "label": None,
     "prediction": 0, "label_class": None, "predicted_class": 1, "confidence": 0.3},
]


def test_filters_keep_the_stored_order():
    assert filtered(ERRORS, ErrorFilter()) == ERRORS
    assert [r["image"] for r in filtered(ERRORS, ErrorFilter(kind="false_positive"))] == ["a.jpg", "c.jpg"]
    # a wrong-class row belongs to both its label's class and the predicted one
    assert [r["kind"] for r in filtered(ERRORS, ErrorFilter(name="cat"))] == ["false_positive", "wrong_class"]
    # a missed object has no confidence: a threshold on predictions never hides it
    assert [r["kind"] for r in filtered(ERRORS, ErrorFilter(min_confidence=0.5))] == [
        "false_positive", "wrong_class", "missed"]


def test_a_rows_boxes_and_the_fixes_they_allow():
    image = {"image": "b.jpg", "width": 80, "height": 60, "labels": [[1, 10, 10, 30, 30]],
             "predictions": [[11, 9, 31, 29, 0.8, 0]]}
    wrong = row_boxes(ERRORS[1], image)
    assert wrong.label == [1, 10, 10, 30, 30] and wrong.prediction == [11, 9, 31, 29, 0.8, 0]
    assert can_delete(wrong) and can_change_class(ERRORS[1], wrong, NAMES) and can_accept(wrong)
    extra = row_boxes(ERRORS[0], image)
    assert extra.label is None and not can_delete(extra) and not can_change_class(ERRORS[0], extra, NAMES)
    assert can_accept(extra)
    missed = row_boxes(ERRORS[2], image)
    assert can_delete(missed) and not can_accept(missed) and can_change_class(ERRORS[2], missed, NAMES)
    stale = row_boxes({**ERRORS[1], "label": 5}, image)  # an index the stored image does not have
    assert stale.label is None


def test_change_class_offers_every_other_class_the_predicted_one_first():
    image = {"image": "b.jpg", "width": 80, "height": 60, "labels": [[1, 10, 10, 30, 30]],
             "predictions": [[11, 9, 31, 29, 0.8, 2]]}
    wrong = {**ERRORS[1], "predicted_class": 2}
    assert class_choices(wrong, row_boxes(wrong, image), NAMES) == [2, 0]  # the predicted owl, then the rest
    assert class_choices(ERRORS[2], row_boxes(ERRORS[2], image), NAMES) == [0, 2]  # missed: no prediction
    assert class_choices(wrong, row_boxes(wrong, image), {1: "emu"}) == []  # one class: nothing to change to
    assert class_choices(ERRORS[0], row_boxes(ERRORS[0], image), NAMES) == []  # no label


def test_after_an_edit_a_rows_label_is_the_files():
    image = {"image": "b.jpg", "width": 80, "height": 60, "labels": [[1, 10, 10, 30, 30]],
             "predictions": [[11, 9, 31, 29, 0.8, 0]]}
    changed = row_boxes(ERRORS[1], image, labels_now=[[0, 10.0, 10.0, 30.0, 30.0]])
    assert changed.label == [0, 10.0, 10.0, 30.0, 30.0]  # its class changed to the predicted cat
    assert class_choices(ERRORS[1], changed, NAMES) == [1, 2]  # so cat is no longer offered
    assert can_accept(changed, [[0, 10.0, 10.0, 30.0, 30.0]])  # IoU 0.82 with the prediction: another box
    assert not can_accept(changed, [[0, 11.0, 9.0, 31.0, 29.0]])  # accepted already: the file holds it
    deleted = row_boxes(ERRORS[1], image, labels_now=[])
    assert deleted.label is None and not can_delete(deleted) and can_accept(deleted, [])
