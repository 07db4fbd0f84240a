"""The search space comes from the installed yolov5's own evolve table; a ``--space FILE`` mistake names the
file, the key and the value; the budget's trial count follows the wizard's measured epoch time."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from core.model_catalog import builtin_hyp_path
from core.tune.budget import trials_in_budget, wizard_epoch_s
from core.tune.space import (LEFT_OUT, SearchSpace, SpaceError, default_space, load_space, yolov5_evolve_meta,
                             yolov5_train_file)


def test_the_table_is_yolov5s_own():
    meta = yolov5_evolve_meta()
    source = yolov5_train_file().read_text(encoding="utf-8")
    # Each entry as train.py writes it: 'lr0': (1, 1e-5, 1e-1) — read back by a second, textual route.
    for name, (scale, low, high) in meta.items():
        found = re.search(rf"'{name}': \(([^)]*)\)", source)
        assert found, name
        assert tuple(float(x) for x in found.group(1).split(",")) == (scale, low, high)
    assert len(meta) == 29  # yolov5 7.0.14's table


def test_default_space_is_what_evolve_mutates_with_yolov5s_bounds():
    meta = yolov5_evolve_meta()
    space = default_space(meta)
    searched = {b.name: (b.low, b.high) for b in space.bounds}
    assert searched == {n: (lo, hi) for n, (scale, lo, hi) in meta.items() if scale > 0 and n not in LEFT_OUT}
    assert {"iou_t", "fl_gamma", "perspective", "fliplr", "anchors"}.isdisjoint(searched)  # scale 0, or left out
    assert next(b for b in space.bounds if b.name == "lr0").log
    # every searched key is a key of yolov5's own hyp file, so a trial's hyp.yaml is one yolov5 reads
    hyp = yaml.safe_load(builtin_hyp_path("hyp.scratch-low.yaml").read_text(encoding="utf-8"))
    assert set(searched) <= set(hyp)


def test_a_space_file_narrows_the_search_and_round_trips(tmp_path):
    path = tmp_path / "space.yaml"
    path.write_text("lr0: [0.001, 0.02]\nmosaic: {low: 0.5, high: 1.0}\nimgsz: [32, 64]\nmodel: [yolov5n.yaml]\n")
    space = load_space(path)
    assert [(b.name, b.low, b.high, b.log) for b in space.bounds] == [("lr0", 0.001, 0.02, True),
                                                                      ("mosaic", 0.5, 1.0, False)]
    assert space.choices == {"imgsz": [32, 64], "model": ["yolov5n.yaml"]}
    assert SearchSpace.from_dict(json.loads(json.dumps(space.to_dict()))) == space


@pytest.mark.parametrize("text,words", [
    ("lr: [0.001, 0.02]\n", ["lr ", "lr0"]),
    ("lr0: [0.02, 0.001]\n", ["lr0", "0.02", "0.001"]),
    ("lr0: [0, 0.01]\n", ["lr0", "log"]),
    ("mosaic: 0.5\n", ["mosaic", "0.5", "[0.0, 1.0]"]),
    ("imgsz: [320, 100]\n", ["imgsz", "100", "32"]),
    ("batch: 16\n", ["batch", "16", "list"]),
    ("- lr0\n", ["no search space"]),
    ("lr0: [0.001\n", ["Cannot read"]),
])
def test_a_bad_space_file_is_named_with_key_and_value(tmp_path, text, words):
    path = tmp_path / "space.yaml"
    path.write_text(text)
    with pytest.raises(SpaceError) as caught:
        load_space(path)
    message = str(caught.value)
    assert str(path) in message
    for word in words:
        assert word in message, message


def test_trials_in_budget_counts_full_trials_per_slot():
    assert trials_in_budget(8 * 3600, epoch_s=60, epochs=30, slots=4) == 16 * 4  # 8 h / 30 min, four at a time
    assert trials_in_budget(60, epoch_s=60, epochs=30, slots=2) == 2  # never fewer than one per slot's start
    assert trials_in_budget(3600, epoch_s=10, epochs=10, slots=1) == 36


def test_the_wizards_document_gives_its_measured_epoch_time(tmp_path):
    wizard = tmp_path / "wizard.json"
    wizard.write_text(json.dumps({"config": {"epochs": 10}, "predicted": {"epoch_s": 42.5, "images_per_s": 9}}))
    plain = tmp_path / "plain.yaml"
    plain.write_text("epochs: 10\n")
    assert wizard_epoch_s(wizard) == 42.5
    assert wizard_epoch_s(plain) is None and wizard_epoch_s(None) is None
    assert wizard_epoch_s(tmp_path / "missing.json") is None
