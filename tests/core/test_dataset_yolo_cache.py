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


def _write_partial(root, kept: dict[str, list[list[float]]]):
    images = sorted(str(p) for p in (root / "images" / "train").iterdir())
    cache = {i: [np.array(kept[i.rsplit("/", 1)[-1]], dtype=np.float32).reshape(-1, 5), (32, 24), []]
             for i in images if i.rsplit("/", 1)[-1] in kept}
    cache.update(hash=yolov5_hash([label_path_for(i) for i in images] + images), results=(1, 0, 0, 1, 2), msgs=[],
                 version=CACHE_VERSION)
    np.save(root / "labels" / "train.cache.npy", cache)
    (root / "labels" / "train.cache.npy").rename(root / "labels" / "train.cache")


def test_an_image_left_out_for_being_corrupt_is_no_change_but_a_label_fixed_since_is(tmp_path):
    from core.dataset.yolo_cache import set_aside_unproven

    yaml_file = build(tmp_path, train={"t1": (b"not an image", "0 .5 .5 .2 .2\n"), "t2": "1 0.3 0.3 0.1 0.1\n"})
    _write_partial(tmp_path, {"t2.png": [[1, .3, .3, .1, .1]]})  # yolov5 left the corrupt t1 out
    assert "yolo-cache-stale" not in codes(yaml_file)
    assert set_aside_unproven(yaml_file) == []

    fixed = build(tmp_path / "b", train={"t1": "0 .5 .5 .2 .2\n", "t2": "1 0.3 0.3 0.1 0.1\n"})
    _write_partial(tmp_path / "b", {"t2.png": [[1, .3, .3, .1, .1]]})  # t1 was left out: its label was bad then
    [hit] = codes(fixed)["yolo-cache-stale"]
    assert "t1.txt" in hit.message
    assert len(set_aside_unproven(fixed)) == 1


def test_a_recheck_reads_the_cache_from_its_pickle_free_snapshot_until_yolov5_rewrites_it(tmp_path, monkeypatch):
    import os

    from core.dataset import yolo_cache_snapshot

    root = tmp_path / "ds"
    yaml_file = build(root)
    _write_cache(root, {"t1.png": [[0, .5, .5, .2, .2]], "t2.png": [[1, .3, .3, .1, .1]]})
    check = tmp_path / "check"
    assert "yolo-cache-stale" not in codes(yaml_file, cache_dir=check)
    assert list(check.glob("*.yolov5-train.npz"))

    read = []
    real = yolo_cache_snapshot.read_contents
    monkeypatch.setattr(yolo_cache_snapshot, "read_contents", lambda path: read.append(path) or real(path))
    label = root / "labels" / "train" / "t2.txt"
    label.write_text(label.read_text().replace("1 ", "0 ", 1))  # same size: the cache would be stale
    assert "yolo-cache-stale" in codes(yaml_file, cache_dir=check) and read == []  # from the snapshot

    _write_cache(root, {"t1.png": [[0, .5, .5, .2, .2]], "t2.png": [[0, .3, .3, .1, .1]]})  # yolov5 rescanned
    os.utime(root / "labels" / "train.cache", ns=(1, 1))  # whatever its mtime: a new file, a new inode
    assert "yolo-cache-stale" not in codes(yaml_file, cache_dir=check) and len(read) == 1
