"""The Predict page's filter (confidence, class-wise NMS, counts) and the sliced pass's tiles and merge: pure
Python, checked against yolov5's own NMS where they claim to do what it does."""

from __future__ import annotations

import random

import pytest

from core.predict.boxes import counts, iou, nms
from core.predict.slicing import merge, slice_cost_words, slice_problem, tiles


def test_iou_of_overlapping_touching_and_empty_boxes():
    assert iou([0, 0, 10, 10, 1, 0], [5, 0, 15, 10, 1, 0]) == pytest.approx(50 / 150)
    assert iou([0, 0, 10, 10, 1, 0], [10, 0, 20, 10, 1, 0]) == 0.0
    assert iou([0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 1, 0]) == 0.0


def test_nms_is_class_wise_and_keeps_the_most_confident():
    boxes = [[0, 0, 10, 10, 0.5, 0], [1, 0, 11, 10, 0.9, 0], [1, 0, 11, 10, 0.8, 1], [50, 50, 60, 60, 0.1, 0]]
    assert nms(boxes, 0.45) == [[1, 0, 11, 10, 0.9, 0], [1, 0, 11, 10, 0.8, 1], [50, 50, 60, 60, 0.1, 0]]
    assert nms(boxes, 0.45, conf_thres=0.2) == [[1, 0, 11, 10, 0.9, 0], [1, 0, 11, 10, 0.8, 1]]
    assert len(nms(boxes, 0.95)) == 4  # a looser IoU keeps the overlapping pair


def random_boxes(seed: int, n: int = 60) -> list[list[float]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        x, y = rng.uniform(0, 200), rng.uniform(0, 200)
        out.append([x, y, x + rng.uniform(10, 60), y + rng.uniform(10, 60), rng.uniform(0.001, 1), rng.randrange(3)])
    return out


@pytest.mark.parametrize("seed", range(5))
def test_the_sliders_filter_equals_yolov5s_nms_on_the_same_candidates(seed):
    """Confidence after NMS is exact; NMS at the slider's IoU after the floor's looser one matches yolov5's
    ``non_max_suppression`` at the slider's IoU on these candidates (the module says when it may not)."""
    torch = pytest.importorskip("torch")
    from yolov5.utils.general import non_max_suppression

    boxes = random_boxes(seed)

    def yolo(conf: float, iou_thres: float) -> list[list[float]]:
        pred = torch.zeros((1, len(boxes), 8))
        for i, (x1, y1, x2, y2, c, k) in enumerate(boxes):
            pred[0, i, :5] = torch.tensor([(x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1, 1.0])
            pred[0, i, 5 + k] = c
        kept = non_max_suppression(pred, conf, iou_thres, max_det=300)[0]
        return sorted((round(float(r[4]), 4), int(r[5])) for r in kept)

    floor = nms(boxes, 0.7, 0.001)
    for conf, iou_thres in ((0.25, 0.45), (0.5, 0.3), (0.001, 0.7)):
        mine = sorted((round(b[4], 4), int(b[5])) for b in nms(floor, iou_thres, conf))
        assert mine == yolo(conf, iou_thres)


def test_counts_by_class_name_most_first():
    boxes = [[0, 0, 1, 1, 0.9, 1], [0, 0, 1, 1, 0.9, 0], [0, 0, 1, 1, 0.9, 1], [0, 0, 1, 1, 0.9, 7]]
    assert counts(boxes, {0: "cat", 1: "dog"}) == [("dog", 2), ("7", 1), ("cat", 1)]


def test_tiles_cover_the_image_with_the_last_ones_at_its_edges():
    grid = tiles(2048, 1000, 640, 0.2)
    assert sorted({t[0] for t in grid}) == [0, 512, 1024, 1408] and sorted({t[1] for t in grid}) == [0, 360]
    assert all(t[2] - t[0] == 640 and t[3] - t[1] == 640 for t in grid) and len(grid) == 8
    assert tiles(500, 300, 640) == [(0, 0, 500, 300)]  # smaller than a tile: itself
    assert tiles(700, 640, 640, 0.0) == [(0, 0, 640, 640), (60, 0, 700, 640)]


def test_merge_moves_tile_boxes_into_the_image_and_merges_what_two_tiles_saw():
    seen_twice = [((0, 0, 640, 640), [[600, 10, 630, 40, 0.8, 0]]), ((512, 0, 1152, 640), [[88, 10, 118, 40, 0.7, 0]]),
                  ((512, 0, 1152, 640), [[100, 100, 120, 120, 0.6, 1]])]
    assert merge(seen_twice, 0.45) == [[600, 10, 630, 40, 0.8, 0], [612, 100, 632, 120, 0.6, 1]]


def test_slice_options_checked_and_the_cost_said():
    assert slice_problem(640, 0.2) == ""
    assert "32" in slice_problem(32, 0.2) and "0.95" in slice_problem(640, 0.95)
    words = slice_cost_words({"size": 640, "overlap": 0.2, "tiles_per_image": 16, "ms_per_image": 412.3,
                              "whole_ms_per_image": 31.2})
    assert "16 tiles per image" in words and "412 ms" in words and "31 ms" in words and "20%" in words
