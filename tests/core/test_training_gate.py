"""The check before a training run: which dataset errors abort training, which make yolov5 drop images."""

from __future__ import annotations

from core.dataset.findings import ABORTS, CODES, DROPS, ERROR, TRAINING_EFFECT, training_effect
from core.dataset.training_gate import check_for_training
from tests.core.test_dataset_validate import BOX, build


def test_every_error_code_says_what_it_does_to_training():
    errors = {code for code, severity in CODES.items() if severity == ERROR}
    assert errors <= set(TRAINING_EFFECT), errors - set(TRAINING_EFFECT)
    assert set(TRAINING_EFFECT.values()) == {ABORTS, DROPS}
    assert set(TRAINING_EFFECT) <= set(CODES)


def test_a_clean_dataset_passes(tmp_path):
    gate = check_for_training(build(tmp_path / "d"), tmp_path / "ws")
    assert gate.ok and not gate.blockers


def test_class_id_beyond_nc_aborts_and_a_corrupt_label_drops(tmp_path):
    data = build(tmp_path / "d", train={"t1": BOX, "t2": "5 0.5 0.5 0.2 0.2\n", "t3": "0 0.5 0.5 0.2\n"})
    gate = check_for_training(data, tmp_path / "ws")
    assert [f.code for f in gate.aborts] == ["label-class-range"]
    assert gate.aborts[0].where.endswith("t2.txt:1")
    assert [f.code for f in gate.drops] == ["label-columns"]
    assert not gate.ok and not gate.startable_anyway


def test_only_droppable_errors_may_start_anyway(tmp_path):
    data = build(tmp_path / "d", train={"t1": BOX, "t2": BOX, "t3": "0 1.5 0.5 0.2 0.2\n"})
    gate = check_for_training(data, tmp_path / "ws")
    assert gate.startable_anyway and [training_effect(f) for f in gate.blockers] == [DROPS]
    assert (tmp_path / "ws" / ".cache" / "dataset-check").is_dir()  # the re-check is cheap: files are cached
