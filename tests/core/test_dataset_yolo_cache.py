"""The check's view of yolov5's labels/*.cache (yolov5's own code path: tests/worker/test_yolov5_label_cache.py)."""

from __future__ import annotations

import numpy as np

from core.dataset.files import label_path_for
from core.dataset.yolo_cache import CACHE_VERSION, yolov5_hash
from tests.core.test_dataset_validate import build, codes


def _write_cache(root, rows_of: dict[str, list[list[float]]], hash_ok: bool = True):
    images = sorted(str(p) for p in (root / "images" / "train").iterdir())
    cache = {image: [np.array(rows_of[image.rsplit("/", 1)[-1]], dtype=np.float32).reshape(-1, 5), (32, 24), []]
             for image in images}
    cache.update(hash=yolov5_hash([label_path_for(i) for i in images] + images) if hash_ok else "other",
                 results=(len(images), 0, 0, 0, len(images)), msgs=[], version=CACHE_VERSION)
    np.save(root / "labels" / "train.cache.npy", cache)
    (root / "labels" / "train.cache.npy").rename(root / "labels" / "train.cache")


def test_a_cache_yolov5_would_reuse_with_other_labels_is_stale(tmp_path):
    yaml_file = build(tmp_path)  # t1: class 0, t2: class 1
    _write_cache(tmp_path, {"t1.png": [[0, .5, .5, .2, .2]], "t2.png": [[0, .3, .3, .1, .1]]})
    [hit] = codes(yaml_file)["yolo-cache-stale"]
    assert hit.file.endswith("train.cache") and "t2.txt" in hit.message and hit.severity == "warning"


def test_a_current_cache_or_one_yolov5_rebuilds_is_no_finding(tmp_path):
    yaml_file = build(tmp_path)
    _write_cache(tmp_path, {"t1.png": [[0, .5, .5, .2, .2]], "t2.png": [[1, .3, .3, .1, .1]]})
    assert "yolo-cache-stale" not in codes(yaml_file)
    _write_cache(tmp_path, {"t1.png": [[0, .5, .5, .2, .2]], "t2.png": [[0, .3, .3, .1, .1]]}, hash_ok=False)
    found = codes(yaml_file)
    assert "yolo-cache-stale" not in found and "yolo-cache-unsafe" not in found
