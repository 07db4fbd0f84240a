"""The bottleneck monitor on real CPU runs: a slow data path is called input-bound; a slow step with a loader
that keeps up is not.

Both effects are injected as sleeps inside yolov5 (``netguard/injected_delays.py``): 1 s of loading per batch
against about 0.1 s of compute, or 1 s per step against a loader with that long to prepare the next batch. A
sleep does not stretch when the machine is busy, so the verdicts hold on a loaded 2-core CI as they do on an
idle one (decoding large JPEGs, as an earlier version did, gave a data-wait share of 0.08 instead of >= 0.2
with both cores busy). The step runs on one thread: with torch's two, a step that takes 0.1 s alone took
0.3-6 s while other processes held the cores (its threads wait for each other), which alone could swamp
the injected second.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import Cli, by_type, train_args

pytestmark = pytest.mark.e2e


def _delayed(env: dict[str, str], delays: str) -> dict[str, str]:
    return dict(env, YOLOSTUDIO_TEST_DELAYS=delays, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")


def _verdicts(events: list[dict]) -> list[str]:
    return [e["code"] for e in by_type(events, "diagnosis")]


def test_slow_data_path_is_input_bound(tiny_data, e2e_env):
    env = _delayed(e2e_env, "load=0.25")  # 4 images a batch: 1 s of loading per step
    cli = Cli(train_args(tiny_data, name="slow", epochs=2, batch=4) + ["--workers", "0"], env)
    assert cli.finish() == 0, cli.stderr()
    verdicts = _verdicts(cli.events)
    print("SHARE", by_type(cli.events, "diagnosis")[-1]["evidence"]["data_wait_share"])
    assert verdicts and verdicts[-1].startswith("input-bound"), verdicts
    last = by_type(cli.events, "diagnosis")[-1]
    assert last["evidence"]["data_wait_share"] >= 0.2 and last["severity"] == "warning"
    done = cli.events[-1]
    assert done["efficiency"]["data_wait_share"] >= 0.2
    stored = json.loads((Path(done["last"]).parents[1] / "efficiency.json").read_text())
    assert stored == done["efficiency"]


def test_loader_that_keeps_up_is_not_input_bound(tiny_data, e2e_env):
    # 1 s per step; the worker has that long to prepare 4 cached 64 px images.
    env = _delayed(e2e_env, "step=1.0")
    cli = Cli(train_args(tiny_data, name="fast", epochs=2, batch=4, extra=("--cache", "ram")), env)
    assert cli.finish() == 0, cli.stderr()
    verdicts = _verdicts(cli.events)
    print("SHARE", by_type(cli.events, "diagnosis")[-1]["evidence"]["data_wait_share"])
    assert verdicts and verdicts[-1] == "healthy", by_type(cli.events, "diagnosis")[-1]
    assert by_type(cli.events, "diagnosis")[-1]["evidence"]["data_wait_share"] < 0.05
