"""The provenance sidecar is invisible to yolov5 7.0.14's own loader and to the dataset check — wherever it lies,
even inside the images and labels folders (``core/labelling/provenance.py`` makes the claim)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.dataset.validate import validate_dataset
from core.labelling.provenance import MODEL_PROPOSED, SIDECAR_NAME, LineOrigin, record_label
from tests.core.test_dataset_validate import build

pytest.importorskip("yolov5")


def test_yolov5_and_the_check_ignore_the_sidecar(tmp_path: Path) -> None:
    yaml_file = build(tmp_path)
    before = sorted((f.code, f.file) for f in validate_dataset(yaml_file).findings)
    label = tmp_path / "labels" / "train" / "t1.txt"
    for root in (tmp_path, tmp_path / "images" / "train", tmp_path / "labels" / "train"):
        record_label(root, label, [LineOrigin(label.read_text().strip(), MODEL_PROPOSED, 0.9)])
        assert (root / SIDECAR_NAME).is_file()

    from yolov5.utils.dataloaders import LoadImagesAndLabels

    for split, count in (("train", 2), ("val", 1)):
        loaded = LoadImagesAndLabels(str(tmp_path / "images" / split), img_size=64, batch_size=1, workers=0)
        assert len(loaded.im_files) == count
        assert not [f for f in loaded.im_files + loaded.label_files if SIDECAR_NAME in f]
    # a split that is the whole dataset folder: yolov5's recursive search passes over it too
    loaded = LoadImagesAndLabels(str(tmp_path), img_size=64, batch_size=1, workers=0)
    assert len(loaded.im_files) == 3 and not [f for f in loaded.im_files if SIDECAR_NAME in f]
    after = sorted((f.code, f.file) for f in validate_dataset(yaml_file).findings)
    assert after == before == []
