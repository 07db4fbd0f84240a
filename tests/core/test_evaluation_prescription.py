"""The accuracy prescription (core.evaluation.prescription): each rule fires on its facts, with evidence and a
fix, and stays quiet without them."""

from __future__ import annotations

from core.evaluation.accuracy_facts import box_min_sides
from core.evaluation.prescription import AccuracyFacts, finding_json, prescribe


def codes(facts: AccuracyFacts) -> set[str]:
    return {f.code for f in prescribe(facts)}


def test_no_facts_no_findings():
    assert prescribe(AccuracyFacts()) == []


def test_small_objects_after_letterbox_ask_for_a_larger_imgsz():
    images = [{"width": 1280, "height": 720, "labels": [[0, 10, 10, 14, 14]] * 5 + [[0, 0, 0, 200, 200]] * 5}]
    sides = box_min_sides(images, 320)  # 4 px * 0.25 = 1 px; 200 px → 50 px
    assert sorted(set(sides)) == [1.0, 50.0]
    found = [f for f in prescribe(AccuracyFacts(imgsz=320, box_min_sides_px=sides)) if f.code == "small-objects"]
    assert found and found[0].settings() == {"imgsz": 640} and found[0].evidence["share"] == 0.5
    assert "small-objects" not in codes(AccuracyFacts(imgsz=1280, box_min_sides_px=box_min_sides(images, 1280)))


def test_overfitting_and_still_improving_read_the_curves():
    val = [3.0, 2.0, 1.5, 1.6, 1.8, 1.9, 2.0, 2.1, 2.2, 2.3]
    train = [3.0, 2.5, 2.0, 1.8, 1.6, 1.4, 1.2, 1.0, 0.9, 0.8]
    over = AccuracyFacts(epochs=10, best_epoch=2, val_loss=val, train_loss=train)
    assert codes(over) == {"overfitting"}
    assert prescribe(over)[0].settings() == {"patience": 7}
    improving = AccuracyFacts(epochs=10, best_epoch=9, val_loss=sorted(val, reverse=True), train_loss=train)
    assert codes(improving) == {"still-improving"}
    assert prescribe(improving)[0].settings() == {"epochs": 20}


def test_from_scratch_on_few_images_suggests_the_pretrained_checkpoint():
    found = prescribe(AccuracyFacts(pretrained=False, train_images=300, model="yolov5s.yaml"))
    assert [f.code for f in found] == ["from-scratch"] and found[0].settings() == {"weights": "yolov5s.pt"}
    assert not prescribe(AccuracyFacts(pretrained=True, train_images=300))
    assert not prescribe(AccuracyFacts(pretrained=False, train_images=5000))


def test_a_rare_class_with_low_ap_is_named_with_how_many_more_it_needs():
    per_class = [{"name": "cat", "map50": 0.8, "instances": 50}, {"name": "dog", "map50": 0.7, "instances": 50},
                 {"name": "emu", "map50": 0.1, "instances": 40}]
    found = [f for f in prescribe(AccuracyFacts(per_class=per_class,
                                                train_instances={"cat": 1000, "dog": 900, "emu": 20}))
             if f.code == "rare-class"]
    assert len(found) == 1 and found[0].evidence["class"] == "emu" and "880" in found[0].fix  # to the median (900)


def test_label_mistakes_and_an_untrustworthy_val_set():
    found = codes(AccuracyFacts(image_scores=[0.05, 0.9, 0.95], val_images=3, interval_half_width=0.2))
    assert {"label-mistakes", "val-too-small"} <= found
    mix = AccuracyFacts(per_class=[{"name": "a", "instances": 90}, {"name": "b", "instances": 10}],
                        train_instances={"a": 100, "b": 900})
    assert "val-unlike-train" in codes(mix)
    assert finding_json(prescribe(mix)[0])["evidence"]["distance"] == 0.8
