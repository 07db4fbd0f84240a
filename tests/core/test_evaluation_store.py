"""The evaluation's interval (bootstrap over images, yolov5's ap_per_class), its key and its store."""

from __future__ import annotations

import numpy as np
from yolov5.utils.metrics import ap_per_class

from core.worker.compat import _patch_numpy

from core.evaluation.bootstrap import bootstrap_map, interval_words, pooled
from core.evaluation.fingerprint import dataset_fingerprint
from core.evaluation.store import (evaluation_folder, evaluation_key, list_evaluations, load_evaluation,
                                   load_images, save_evaluation)


_patch_numpy()  # yolov5's compute_ap calls np.trapz, gone in numpy 2: the worker aliases it the same way


def yolov5_map(tp, conf, pcls, tcls):
    if not len(conf):
        return 0.0, 0.0
    *_, ap, _ = ap_per_class(tp, conf, pcls, tcls, names={0: "a"})
    return float(ap[:, 0].mean()), float(ap.mean(1).mean())


def image_stats(rng, good: bool):
    n = 3
    correct = np.repeat((rng.uniform(size=(n, 1)) < (0.9 if good else 0.4)), 10, 1)
    return correct, rng.uniform(0.3, 1, n), np.zeros(n), np.zeros(n)


def test_the_interval_holds_the_value_and_narrows_with_more_images():
    rng = np.random.default_rng(0)
    few = [image_stats(rng, i % 2 == 0) for i in range(20)]
    many = [image_stats(rng, i % 2 == 0) for i in range(400)]
    a, b = bootstrap_map(few, yolov5_map), bootstrap_map(many, yolov5_map)
    assert a.low <= a.value <= a.high and b.low <= b.value <= b.high
    assert b.half_width < a.half_width
    assert a.value == yolov5_map(*pooled(few))[1]
    assert "± " in interval_words(a) and "20 images" in interval_words(a)
    assert interval_words(a).startswith("mAP@0.5:0.95 ")  # which mAP, said (issue 32)


def test_a_spread_nobody_measured_is_not_shown_as_plus_minus_zero():
    """Issue 32: "mAP 0.00 ± 0.00" on a tiny val set where the model found nothing — every draw the same."""
    from core.evaluation.bootstrap import Interval
    from core.evaluation.prescription import THRESHOLDS, AccuracyFacts, _val_trust

    for flat in (Interval(0.0, 0.0, 0.0, 64, 200), Interval(0.4, 0.4, 0.4, 1, 0)):
        words = interval_words(flat)
        assert "±" not in words and "too few images" in words and words.startswith("mAP@0.5:0.95 ")
    facts = AccuracyFacts(val_images=64, interval_half_width=0.0)
    (finding,) = [f for f in _val_trust(facts, dict(THRESHOLDS)) if f.code == "val-too-small"]
    assert "±" not in finding.message and "64 images" in finding.message and "mAP@0.5:0.95" in finding.message


def test_one_image_has_no_interval():
    rng = np.random.default_rng(0)
    one = bootstrap_map([image_stats(rng, True)], yolov5_map)
    assert one.low == one.high == one.value and one.draws == 0


def test_the_key_changes_with_each_input():
    base = evaluation_key({"imgsz": 640}, "w1", "d1")
    assert base == evaluation_key({"imgsz": 640}, "w1", "d1")
    assert len({base, evaluation_key({"imgsz": 320}, "w1", "d1"), evaluation_key({"imgsz": 640}, "w2", "d1"),
                evaluation_key({"imgsz": 640}, "w1", "d2")}) == 4


def test_the_dataset_fingerprint_sees_an_edited_label(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    image = tmp_path / "images" / "a.jpg"
    image.write_bytes(b"x")
    label = tmp_path / "labels" / "a.txt"
    label.write_text("0 0.5 0.5 0.2 0.2\n")
    data = tmp_path / "data.yaml"
    data.write_text("train: images\nval: images\nnames: [a]\n")
    before = dataset_fingerprint(data, "val", [str(image)])
    assert before == dataset_fingerprint(data, "val", [str(image)])
    label.write_text("0 0.5 0.5 0.3 0.3\n")
    assert dataset_fingerprint(data, "val", [str(image)]) != before


def test_a_saved_evaluation_reads_back_and_an_unfinished_one_is_ignored(tmp_path):
    folder = evaluation_folder(tmp_path, "k1")
    save_evaluation(folder, {"metrics": {"map": 0.5}, "created": 2}, [{"image": "a.jpg"}])
    assert load_evaluation(folder)["metrics"]["map"] == 0.5
    assert load_images(folder) == [{"image": "a.jpg"}]
    unfinished = evaluation_folder(tmp_path, "k2")
    unfinished.mkdir(parents=True)
    (unfinished / "images.json").write_text("[]")
    listed = list_evaluations(tmp_path)
    assert [r["store"] for r in listed] == [str(folder / "result.json")]


def test_the_default_settings_are_trainings_final_validation():
    from core.evaluation.plan import default_settings

    run = default_settings({"batch": 16, "imgsz": 320, "single_cls": True})
    assert (run.batch, run.imgsz, run.conf, run.iou, run.max_det, run.single_cls) == (32, 320, 0.001, 0.6, 300, True)
    assert default_settings({"batch": 64, "imgsz": 640}, world_size=4).batch == 32  # batch // WORLD_SIZE * 2
    assert default_settings({}, imgsz=512, iou=0.7).batch == 32 and default_settings({}, imgsz=512).imgsz == 512
