"""The checker's statement of how many data-loader workers yolov5 starts, held to yolov5's own
``create_dataloader`` (the ``cpu-limited`` and ``ram-low-workers`` rules build on it).

yolov5 reads ``os.cpu_count()``; the test sets it to each case's logical CPU count inside a fresh worker-like
interpreter, while the process may really use fewer CPUs — the point of ``cpu-limited``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.demo.dataset import DemoSpec, generate_demo_dataset
from core.environment.tables import yolov5_loader_workers
from core.job.launch import worker_env

ROOT = Path(__file__).resolve().parents[2]

# (logical CPUs os.cpu_count() reports, --workers, --batch); the CPU-only interpreter has no CUDA device.
CASES = [(64, 3, 16), (2, 8, 16), (64, 8, 1), (3, 8, 4), (5, 2, 2)]

SCRIPT = r'''
import json, os, sys
from pathlib import Path
tmp, data, cases = Path(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
from core.worker import compat
compat.apply(tmp / "cache", trusted=[])
from yolov5.utils import dataloaders
out = []
for cpus, workers, batch in cases:
    os.cpu_count = lambda cpus=cpus: cpus  # what yolov5 reads; the loader's workers start right away
    loader, _ = dataloaders.create_dataloader(data, 64, batch, 32, workers=workers)
    out.append(loader.num_workers)
    del loader
print("WORKERS " + json.dumps(out))
'''


@pytest.fixture(scope="module")
def yolov5_workers(tmp_path_factory: pytest.TempPathFactory) -> list[int]:
    tmp = tmp_path_factory.mktemp("loader")
    data = generate_demo_dataset(tmp / "demo", DemoSpec(n_train=16, n_val=4, image_size=64, seed=1))
    env = worker_env()
    env["HOME"] = str(tmp / "home")
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp), str(data.parent / "images" / "train"),
                          json.dumps(CASES)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    [line] = [ln for ln in out.stdout.splitlines() if ln.startswith("WORKERS ")]
    return json.loads(line[len("WORKERS "):])


@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"cpus{c}-workers{w}-batch{b}" for c, w, b in CASES])
def test_the_checker_predicts_yolov5s_worker_count(index: int, yolov5_workers: list[int]):
    cpus, workers, batch = CASES[index]
    assert yolov5_loader_workers(workers, batch, cpus, gpus=0) == yolov5_workers[index]
