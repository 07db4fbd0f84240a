"""The Errors browser's list and fixes as pure functions (core.evaluation.error_browse): filters keep the stored
order, a row's boxes come from images.json, and only the fixes its boxes allow are offered."""

from __future__ import annotations

from core.evaluation.error_browse import (ErrorFilter, can_accept, can_change_class, can_delete, filtered,
                                          row_boxes)

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
    assert can_delete(wrong) and can_change_class(ERRORS[1], wrong) and can_accept(wrong)
    extra = row_boxes(ERRORS[0], image)
    assert extra.label is None and not can_delete(extra) and not can_change_class(ERRORS[0], extra)
    assert can_accept(extra)
    missed = row_boxes(ERRORS[2], image)
    assert can_delete(missed) and not can_accept(missed) and not can_change_class(ERRORS[2], missed)
    stale = row_boxes({**ERRORS[1], "label": 5}, image)  # an index the stored image does not have
    assert stale.label is None
