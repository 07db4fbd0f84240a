"""``yolostudio predict --slice`` with the session's tiny trained run through the real CLI, worker and PyTorch model:
a 2×2 mosaic of val images, 64-pixel tiles at imgsz 64, each box inside the mosaic, the cost line printed. (That
slicing finds what the whole-image pass misses is proven with a model whose sight is certain:
``tests/worker/test_predict_slices.py``.)"""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.e2e.conftest import assert_offline, run_cli
from tests.e2e import test_predict_e2e

pytestmark = pytest.mark.e2e
SIZE = test_predict_e2e.SIZE
trained = test_predict_e2e.trained  # that module's fixture: the shared run's workspace copied once


def test_sliced_prediction_runs_the_real_model_on_each_tile_and_says_its_cost(trained, tmp_path):
    import cv2

    tiles = [cv2.resize(cv2.imread(str(p)), (SIZE, SIZE)) for p in trained["val"][:4]]
    tiles = (tiles * 4)[:4]  # four, however few val images the tiny dataset has
    mosaic = np.vstack([np.hstack(tiles[:2]), np.hstack(tiles[2:4])])
    image = tmp_path / "mosaic.png"
    cv2.imwrite(str(image), mosaic)
    args = ["predict", str(trained["best"]), str(image), "--imgsz", str(SIZE), "--slice", str(SIZE), "--slice-overlap",
            "0", "--conf", "0.001", "--out", str(tmp_path / "o")]
    text = run_cli(args, trained["env"])
    assert text.returncode == 0, text.stdout + text.stderr[-3000:]
    assert "4 tiles per image" in text.stdout and "mosaic.png" in text.stdout
    [line] = (tmp_path / "o" / "detections.jsonl").read_text().splitlines()
    for found in json.loads(line)["detections"]:
        x1, y1, x2, y2 = found["box"]
        assert 0 <= x1 <= x2 <= 2 * SIZE and 0 <= y1 <= y2 <= 2 * SIZE
    assert_offline(trained["audit"])
