"""A real tiny CPU training with ``--gpu-augment on`` (issue 36): the training job patches yolov5's
``train.train`` (``core/worker/compat_augment.py``), the loader only letterboxes, each batch is augmented by
``BatchAugmenter`` on the training device (the CPU here), and the run completes with the choice recorded in its
config (so ``resume`` augments the same way). The transforms themselves are held to yolov5's own functions in
``tests/worker/test_batch_augment.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.worker.compat_augment import GPU_AUGMENT_LOG
from tests.e2e.conftest import Cli, by_type, train_args

pytestmark = pytest.mark.e2e


def test_gpu_augment_trains_an_epoch_and_records_the_choice(tiny_data, e2e_env):
    cli = Cli(train_args(tiny_data, name="gpuaug", epochs=1, extra=("--gpu-augment", "on")), e2e_env)
    assert cli.finish() == 0, (cli.stderr(), by_type(cli.events, "error"))
    done = cli.events[-1]
    assert done["type"] == "done" and done["status"] == "completed", done
    logs = [e["message"] for e in by_type(cli.events, "log")]
    assert sum(GPU_AUGMENT_LOG in m for m in logs) == 1, logs[:40]
    assert done["run_timing"]["images"] > 0, done
    config = json.loads((Path(done["last"]).parents[1] / "config.json").read_text())
    assert json.dumps(config).count('"gpu_augment": "on"') >= 1, config
