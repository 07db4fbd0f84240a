"""The wizard's measurements: the batch probe's search (a stand-in for CUDA memory), the worker counts tried,
and the ``wizard_measure`` job run for real on the CPU with tiny data — every step reports, a step that fails
(a model file that does not exist) is named with its reason while the others still measure."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.jobs import run_job
from core.demo.dataset import DemoSpec, generate_demo_dataset
from core.usecases.jobs import WizardMeasureDoor
from core.wizard.inputs import measurements_from_json
from core.wizard.rules import worker_counts
from core.worker.wizard_measure import probe_batch


def memory(per_image: float, fixed: float, limit: float):
    """A stand-in GPU: peak = fixed + per_image × batch; out of memory above ``limit``."""
    tried: list[int] = []

    def try_batch(b: int) -> float | None:
        tried.append(b)
        peak = fixed + per_image * b
        return None if peak > limit else peak

    return try_batch, tried


@pytest.mark.parametrize(("per_image", "free", "expected"), [
    (0.25, 24.0, (72, 80)),  # grows 8 → 64, 128 is over the margin, bisects between
    (0.25, 80.0, (248, 264)),
    (2.0, 24.0, (8, 9)),
    (0.01, 80.0, (512, 512)),  # the limit: never more than 512
])
def test_probe_grows_then_bisects_within_the_margin(per_image, free, expected):
    try_batch, tried = memory(per_image, 1.0, free)
    batch, peak = probe_batch(try_batch, free, 0.85)
    assert expected[0] <= batch <= expected[1]
    assert peak <= free * 0.85 and 1.0 + per_image * batch == peak
    assert len(tried) <= 14


def test_probe_reports_none_when_batch_1_does_not_fit():
    try_batch, _ = memory(5.0, 4.0, 6.0)
    assert probe_batch(try_batch, 6.0, 0.85) == (None, None)


def test_probe_counts_out_of_memory_as_too_big():
    try_batch, _ = memory(1.0, 0.0, 20.0)  # the allocator fails before the margin is reached
    batch, _ = probe_batch(try_batch, 100.0, 0.85)
    assert 16 <= batch <= 20


@pytest.mark.parametrize(("cores", "gpus", "expected"), [
    (2, 0, [0, 1, 2]), (2, 1, [0, 1, 2]), (16, 1, [0, 1, 2, 4, 6, 8, 12, 16]), (96, 8, [0, 1, 2, 4, 6, 8, 12]),
    (5, 1, [0, 1, 2, 4, 5])])
def test_worker_counts_tried_go_up_to_the_cores_per_gpu(cores, gpus, expected):
    assert worker_counts(cores, gpus) == expected


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("wizard")
    data = generate_demo_dataset(tmp / "demo", DemoSpec(n_train=24, n_val=4, image_size=96, seed=3))
    workspace = tmp / "ws"
    spec = {"workspace": str(workspace), "data": str(data), "imgsz": 64, "batch": 4, "model": "no-such-model.yaml",
            "device": "cpu", "workers": [0, 1], "sample": 12, "budget_s": 1.0}
    events: list[dict] = []
    outcome = run_job(WizardMeasureDoor(spec, workspace), events.append, 300)
    return outcome, events, workspace, data


def test_measure_job_measures_the_loader_three_ways_and_names_the_step_that_failed(measured):
    outcome, events, workspace, data = measured
    assert outcome.status == "completed", outcome
    [done] = [e for e in events if e["type"] == "done"]
    m = measurements_from_json(done["measurements"])
    for supply in (m.loader, m.loader_prepared, m.loader_cached):
        assert set(supply) == {0, 1} and all(rate > 0 for rate in supply.values())
    assert m.cache_ram_gb is not None and m.cache_ram_gb > 0 and m.sample_images == 12
    assert m.demand is None and "no-such-model.yaml" in m.failures["demand"]
    assert "CUDA" in m.failures["batch"] and "CUDA" in m.failures["amp"]
    ends = {e["step"]: e["status"] for e in events if e["type"] == "wizard_step" and e["status"] != "started"
            and e["status"] != "progress"}
    assert ends == {"cache": "done", "loader": "done", "prepared": "done", "cached": "done", "demand": "failed",
                    "batch": "skipped", "amp": "skipped"}
    assert not list((workspace / ".cache" / "wizard").iterdir())  # the scratch copies are gone
    assert not list(data.parent.rglob("*.cache"))  # yolov5's label caches stay beside the job's own lists
