"""yolov5's own labels/*.cache, on yolov5 7.0.14's own code: a same-size label edit keeps its hash, so yolov5
trains on the old labels; the dataset check reports it, and the worker's guard sets it aside so yolov5 reads
the current labels. A cache that is more than label data (a pickle calling os.system) is never unpickled."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import numpy as np
import pytest

from core.dataset.validate import validate_dataset
from core.dataset.yolo_cache import safe_load, set_aside_unproven
from tests.core.test_dataset_validate import build

pytest.importorskip("yolov5")


def _yolov5_labels(images: Path) -> list[np.ndarray]:
    from yolov5.utils.dataloaders import LoadImagesAndLabels

    return LoadImagesAndLabels(str(images), img_size=64, batch_size=2, workers=0).labels


def test_a_same_size_edit_trains_old_labels_under_yolov5_and_current_ones_after_the_guard(tmp_path):
    yaml_file = build(tmp_path, train={"t1": "1 0.5 0.5 0.2 0.2\n", "t2": "0 0.3 0.3 0.1 0.1\n"})
    images = tmp_path / "images" / "train"
    assert _yolov5_labels(images)[0][0, 0] == 1  # yolov5 wrote labels/train.cache
    cache = tmp_path / "labels" / "train.cache"
    assert cache.is_file()
    (tmp_path / "labels" / "train" / "t1.txt").write_text("0 0.5 0.5 0.2 0.2\n")  # class 1 -> 0, same size
    assert _yolov5_labels(images)[0][0, 0] == 1  # yolov5 itself: the old label, silently

    [hit] = [f for f in validate_dataset(yaml_file).findings if f.code == "yolo-cache-stale"]
    assert hit.file == str(cache) and "t1.txt" in hit.message

    moved = set_aside_unproven(yaml_file)
    assert moved == [cache.with_name("train.cache.stale")] and not cache.exists()
    assert _yolov5_labels(images)[0][0, 0] == 0  # the current label
    assert set_aside_unproven(yaml_file) == []  # the cache yolov5 just wrote is current: kept
    assert "yolo-cache-stale" not in {f.code for f in validate_dataset(yaml_file).findings}


def test_a_label_fixed_at_the_same_size_is_read_again(tmp_path):
    """The image was dropped as corrupt when the cache was written; its fixed label has the same size."""
    yaml_file = build(tmp_path, train={"t1": "0 0.5 0.5 0.2 1.2\n", "t2": "0 0.3 0.3 0.1 0.1\n"})
    images = tmp_path / "images" / "train"
    assert len(_yolov5_labels(images)) == 1
    (tmp_path / "labels" / "train" / "t1.txt").write_text("0 0.5 0.5 0.2 0.2\n")
    assert len(_yolov5_labels(images)) == 1  # yolov5 still trains without it
    assert set_aside_unproven(yaml_file)
    assert len(_yolov5_labels(images)) == 2


class _Boom:
    def __reduce__(self):
        return (os.system, ("echo pwned",))


def test_a_cache_that_would_run_code_is_refused_unread_reported_and_set_aside(tmp_path):
    yaml_file = build(tmp_path)
    cache = tmp_path / "labels" / "train.cache"
    with open(cache, "wb") as handle:
        np.lib.format.write_array_header_1_0(handle, {"descr": "|O", "fortran_order": False, "shape": ()})
        pickle.dump({"hash": "x", "version": 0.6, "boom": _Boom()}, handle, protocol=3)
    data, reason = safe_load(cache)
    assert data is None and "system" in reason
    [hit] = [f for f in validate_dataset(yaml_file).findings if f.code == "yolo-cache-unsafe"]
    assert hit.file == str(cache)
    assert set_aside_unproven(yaml_file) == [cache.with_name("train.cache.stale")]


class _Ctx:
    def __init__(self) -> None:
        self.events: list[tuple[str, dict]] = []

    def emit(self, kind: str, **fields) -> None:
        self.events.append((kind, fields))


def test_the_worker_guard_sets_a_stale_cache_aside_once_per_machine(tmp_path, monkeypatch):
    from core.worker.train_guards import label_caches_current

    yaml_file = build(tmp_path, train={"t1": "1 0.5 0.5 0.2 0.2\n", "t2": "0 0.3 0.3 0.1 0.1\n"})
    _yolov5_labels(tmp_path / "images" / "train")
    (tmp_path / "labels" / "train" / "t1.txt").write_text("0 0.5 0.5 0.2 0.2\n")
    cache = tmp_path / "labels" / "train.cache"
    monkeypatch.setenv("LOCAL_RANK", "1")  # another rank on this machine: rank 0 does it before its dataset
    assert label_caches_current(_Ctx(), yaml_file) == [] and cache.exists()
    monkeypatch.setenv("LOCAL_RANK", "0")
    ctx = _Ctx()
    assert label_caches_current(ctx, yaml_file) == [cache.with_name("train.cache.stale")]
    assert any(kind == "log" and str(cache) in fields["message"] for kind, fields in ctx.events)
