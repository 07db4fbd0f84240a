"""Issue 21: a label edited at the same size after a training is what the next training reads — the worker sets
yolov5's stale labels/*.cache aside before yolov5 builds its dataset, and yolov5 scans the labels again."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.dataset.yolo_cache import inspect, split_caches
from core.demo.dataset import generate_demo_dataset
from tests.e2e.conftest import TINY, Cli, by_type, train_args

pytestmark = pytest.mark.e2e


def test_a_same_size_label_edit_is_trained_not_the_cached_label(e2e_env, tmp_path):
    data = generate_demo_dataset(tmp_path / "data", TINY)
    first = Cli(train_args(data, name="before", epochs=1), e2e_env)
    assert first.finish() == 0, first.stderr()
    [(cache, images), *_] = split_caches(data)
    assert cache.is_file()  # yolov5 wrote its cache beside the labels

    label = Path(images[0].replace("/images/", "/labels/").rsplit(".", 1)[0] + ".txt")
    text = label.read_text()
    edited = ("1" if text[0] == "0" else "0") + text[1:]  # a class id changed: same size, same path
    label.write_text(edited)
    assert inspect(cache, images).stale == [images[0]]  # yolov5's own hash would still accept it

    second = Cli(train_args(data, name="after", epochs=1), e2e_env)
    assert second.finish() == 0, second.stderr()
    messages = [e["message"] for e in by_type(second.events, "log")]
    assert any("set aside" in m and str(cache) in m for m in messages), messages
    assert any("New cache created" in m for m in messages), messages  # yolov5 scanned the labels again
    assert cache.with_name(cache.name + ".stale").is_file()
    assert inspect(cache, images).stale == []  # the cache yolov5 wrote now holds the edited label
