"""The bottleneck monitor's rules over synthesised event windows, including the thresholds' boundaries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.training.bottleneck import THRESHOLDS, EfficiencyAccumulator, RunWindow, diagnose, verdict_event_fields
from core.job.protocol import make_event, read_events
from core.worker.bottleneck_monitor import BottleneckMonitor

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "recorded_train_events.jsonl"


def window(*, wait_share: float, batches: int = 40, cpu: float = 50.0, iowait: float = 0.0, gpus: list | None = None,
           on_gpu: bool = True, workers: int = 2, batch: int = 16, imgsz: int = 640, cache: str = "",
           cpu_count: int = 8, others: float = 0.0, waited: float = 0.0, gpu_augment: str = "off") -> RunWindow:
    """``cpu``: the machine's busy share (% of all cores), of which ``others`` is other programs'; ``waited``: the
    run's threads' time waiting for a free core (% of one core)."""
    w = RunWindow()
    w.config = {"workers": workers, "batch_size": batch, "imgsz": imgsz, "cache": cache, "gpu_augment": gpu_augment}
    w.feed(make_event("hello", job="train", pid=1, versions={}, devices=[{"index": 0}] if on_gpu else [],
                      device_type="cuda" if on_gpu else "cpu"))
    w.feed(make_event("stage", stage="training"))
    step = 0.1
    wait = step * wait_share / (1 - wait_share)
    for i in range(batches):
        w.feed(make_event("batch", epoch=0, epochs=1, index=i, count=batches, losses={}, data_wait_s=wait, step_s=step,
                          warmup=False, gpu_mem_gb=1.0 if on_gpu else None,
                          window={"batches": 1, "images": batch, "data_wait_s": wait, "step_s": step}))
        if i % 4 == 0:
            w.feed(make_event("system", cpu_percent=cpu, cpu_count=cpu_count, iowait_percent=iowait,
                              proc_cpu_percent=(cpu - others) * cpu_count, proc_cpu_wait_percent=waited, ram_used_gb=1, ram_total_gb=8, gpus=gpus or []))
    return w


def gpu(util: float, mem: float = 4.0, total: float = 24.0, reasons: int = 0, temp: float = 60.0) -> dict:
    return {"index": 0, "util_percent": util, "mem_used_gb": mem, "mem_total_gb": total, "temperature_c": temp,
            "throttle_reasons": reasons}


def test_other_programs_holding_the_cpu_are_named_as_the_cause():
    """Issue 32: another program held the CPU at 100 % and training got 20–25 %; the banner blamed the model."""
    busy = window(wait_share=0.02, cpu=100.0, others=78.0, on_gpu=False, cpu_count=2, waited=130.0).figures()
    verdict = diagnose(busy)
    assert verdict.code == "cpu-contention" and not verdict.changes  # no setting of the run fixes it
    assert "78%" in verdict.detail and "22%" in verdict.detail and "1.3 s per second" in verdict.detail
    assert verdict.evidence["others_cpu_percent"] == pytest.approx(78.0)
    # A run that sleeps or waits for its data while others hold the CPU waits for no core: not contention
    idle = diagnose(window(wait_share=0.02, cpu=100.0, others=90.0, on_gpu=False, cpu_count=2, waited=3.0).figures())
    assert idle.code == "healthy"
    # The run itself keeping every core busy is no contention: the model's computation sets the pace
    alone = diagnose(window(wait_share=0.02, cpu=100.0, others=5.0, on_gpu=False, cpu_count=2).figures())
    assert alone.code == "healthy"


@pytest.mark.parametrize("case,expected", [
    (dict(wait_share=0.02, gpus=[gpu(95)]), "healthy"),
    (dict(wait_share=0.30, cpu=40.0, gpus=[gpu(30)]), "input-bound-workers"),
    (dict(wait_share=0.30, cpu=97.0, gpus=[gpu(30)]), "input-bound-cpu"),
    (dict(wait_share=0.30, cpu=40.0, iowait=25.0, gpus=[gpu(30)]), "input-bound-io"),
    (dict(wait_share=0.02, gpus=[gpu(25)]), "gpu-underfed-small-batch"),
    (dict(wait_share=0.02, gpus=[gpu(99, reasons=0x40, temp=91)]), "gpu-throttled"),
    (dict(wait_share=0.02, gpus=[gpu(0)], on_gpu=False), "cpu-training"),
    (dict(wait_share=0.30, on_gpu=False, gpus=[]), "input-bound-workers"),  # CPU-only machine: still input-bound
    (dict(wait_share=0.02, gpus=[gpu(5, reasons=0x1)]), "gpu-underfed-small-batch"),  # idle bit is not throttling
])
def test_verdicts(case, expected):
    verdict = diagnose(window(**case).figures())
    assert verdict is not None and verdict.code == expected, verdict
    assert verdict.message and verdict.detail and verdict.evidence


# CPU-only runs: every verdict the bottleneck monitor can give there, and none of its words may speak of a GPU.
CPU_RUNS = [
    (dict(wait_share=0.02, on_gpu=False, gpus=[]), "healthy", "the CPU"),
    (dict(wait_share=0.30, cpu=40.0, on_gpu=False, gpus=[]), "input-bound-workers", "share the cores"),
    (dict(wait_share=0.30, cpu=97.0, on_gpu=False, gpus=[]), "input-bound-cpu", "computes the model"),
    (dict(wait_share=0.30, cpu=40.0, iowait=25.0, on_gpu=False, gpus=[]), "input-bound-io", "disk"),
    (dict(wait_share=0.02, on_gpu=False, gpus=[gpu(3, reasons=0x40)]), "cpu-training", "GPU"),  # the one exception
]


@pytest.mark.parametrize("case, expected, words", CPU_RUNS, ids=[c[1] for c in CPU_RUNS])
def test_cpu_runs_are_described_as_cpu_runs(case, expected, words):
    verdict = diagnose(window(**case).figures())
    assert verdict.code == expected and words in verdict.message + verdict.detail
    if expected != "cpu-training":
        text = " ".join([verdict.message, verdict.detail] + [p.reason for p in verdict.changes])
        assert "GPU" not in text.replace("on a GPU", "").replace("train on a GPU", ""), text
        assert "gpu_util_percent" not in {k for k, v in verdict.evidence.items() if v is not None}


def test_more_workers_on_a_cpu_run_leave_a_core_to_the_model():
    verdict = diagnose(window(wait_share=0.3, cpu=40.0, on_gpu=False, gpus=[], workers=2, cpu_count=4).figures())
    [more] = [p for p in verdict.changes if p.field == "workers"]
    assert more.value == 3  # 4 cores: 3 workers at most, the fourth computes the model


def test_power_cap_under_load_is_not_throttling_but_heat_and_power_supply_are():
    capped = diagnose(window(wait_share=0.02, gpus=[gpu(99, reasons=0x4)]).figures())
    assert capped.code == "healthy"
    hot = diagnose(window(wait_share=0.02, gpus=[gpu(99, reasons=0x40, temp=91)]).figures())
    assert hot.code == "gpu-throttled" and "airflow" in hot.detail and "power supply" not in hot.detail
    brake = diagnose(window(wait_share=0.02, gpus=[gpu(99, reasons=0x80)]).figures())
    assert brake.code == "gpu-throttled" and "power supply" in brake.detail and "airflow" not in brake.detail


def test_wait_share_boundaries():
    low, high = THRESHOLDS["wait_low"], THRESHOLDS["wait_high"]
    assert diagnose(window(wait_share=low - 0.005, gpus=[gpu(95)]).figures()).code == "healthy"
    moderate = diagnose(window(wait_share=low + 0.005, gpus=[gpu(95)]).figures())
    assert moderate.code == "input-bound-workers" and moderate.severity == "info"
    assert diagnose(window(wait_share=high - 0.005, gpus=[gpu(95)]).figures()).severity == "info"
    assert diagnose(window(wait_share=high + 0.005, gpus=[gpu(95)]).figures()).severity == "warning"


def test_gpu_util_and_cpu_boundaries():
    th = THRESHOLDS
    assert diagnose(window(wait_share=0.0, gpus=[gpu(th["gpu_util_low"])]).figures()).code == "healthy"
    assert diagnose(window(wait_share=0.0, gpus=[gpu(th["gpu_util_low"] - 1)]).figures()).code == \
        "gpu-underfed-small-batch"
    assert diagnose(window(wait_share=0.3, cpu=th["cpu_busy"]).figures()).code == "input-bound-cpu"
    assert diagnose(window(wait_share=0.3, cpu=th["cpu_busy"] - 1).figures()).code == "input-bound-workers"


def test_too_few_batches_gives_no_verdict():
    assert diagnose(window(wait_share=0.5, batches=int(THRESHOLDS["min_batches"]) - 1).figures()) is None


def test_prescriptions_name_config_fields_and_values():
    workers = diagnose(window(wait_share=0.4, cpu=30.0, workers=2, cpu_count=8).figures())
    assert [(p.field, p.value) for p in workers.changes] == [("workers", 4)]
    cpu = diagnose(window(wait_share=0.4, cpu=99.0, imgsz=640).figures())
    assert ("cache", "ram") in [(p.field, p.value) for p in cpu.changes]
    assert ("imgsz", 480) in [(p.field, p.value) for p in cpu.changes]
    assert ("gpu_augment", "on") in [(p.field, p.value) for p in cpu.changes]  # issue 36: named when CPU-bound
    cached = diagnose(window(wait_share=0.4, cpu=99.0, imgsz=320, cache="ram").figures())
    assert [(p.field, p.value) for p in cached.changes] == [("gpu_augment", "on")]
    augmented = diagnose(window(wait_share=0.4, cpu=99.0, imgsz=320, cache="ram", gpu_augment="on").figures())
    assert augmented.changes == ()  # nothing left to prescribe from the config
    on_cpu = diagnose(window(wait_share=0.4, cpu=99.0, imgsz=320, cache="ram", on_gpu=False).figures())
    assert "gpu_augment" not in [p.field for p in on_cpu.changes]  # the CPU would augment on the same cores
    underfed = diagnose(window(wait_share=0.0, gpus=[gpu(20, mem=4, total=24)], batch=16).figures())
    assert [(p.field, p.value) for p in underfed.changes] == [("batch", 32)]
    full = diagnose(window(wait_share=0.0, gpus=[gpu(20, mem=22, total=24)], batch=16).figures())
    assert full.changes == ()  # no memory left for a larger batch


def test_the_diagnosis_event_keeps_its_documented_shape():
    """Verdicts are the app's one finding record; the `diagnosis` event recorded runs hold keeps its fields."""
    found = diagnose(window(wait_share=0.4, cpu=30.0, workers=2, cpu_count=8).figures())
    fields = verdict_event_fields(found)
    assert set(fields) == {"code", "severity", "title", "detail", "evidence", "prescriptions"}
    assert fields["title"] == found.message and fields["severity"] == "warning"
    assert fields["prescriptions"] == [{"field": "workers", "value": 4, "reason": found.changes[0].reason}]
    assert json.loads(json.dumps(fields)) == fields  # plain JSON, as written to events.jsonl


def test_warmup_and_validation_are_excluded():
    w = window(wait_share=0.02, gpus=[gpu(95)])
    w.feed(make_event("stage", stage="validating"))
    for _ in range(30):  # idle GPU during validation must not count
        w.feed(make_event("system", cpu_percent=10, cpu_count=8, gpus=[gpu(0)]))
    w.feed(make_event("batch", epoch=1, epochs=2, index=0, count=10, losses={}, data_wait_s=50.0, step_s=0.1,
                      warmup=True, window={"batches": 1, "images": 16, "data_wait_s": 50.0, "step_s": 0.1}))
    assert diagnose(w.figures()).code == "healthy"


def test_monitor_emits_at_epoch_end_and_on_change():
    emitted = []
    clock = [0.0]
    monitor = BottleneckMonitor(lambda kind, **f: emitted.append((kind, f)), {"workers": 2}, interval_s=10.0,
                            clock=lambda: clock[0])
    for ev in list(window(wait_share=0.02, gpus=[gpu(95)]).batches):
        monitor.feed(ev)
    monitor.feed(make_event("epoch_end", epoch=0, epochs=2, metrics={}, fitness=0.1, best_fitness=0.1, epoch_time_s=5))
    assert [f["code"] for _, f in emitted] == ["healthy"] and emitted[0][1]["at"] == "epoch_end"
    slow = list(window(wait_share=0.6, cpu=20.0).batches) + list(window(wait_share=0.6, cpu=20.0).batches)
    for i, ev in enumerate(slow):
        clock[0] += 1.0
        monitor.feed(ev)
    assert emitted[-1][1]["code"] == "input-bound-workers" and emitted[-1][1]["at"] == "mid_epoch"
    assert sum(1 for _, f in emitted if f["at"] == "mid_epoch") == 1  # only when the verdict changes


def test_efficiency_summary_of_recorded_run():
    events = read_events(RECORDED)
    accumulator = EfficiencyAccumulator()  # as the worker folds it, event by event
    for event in events:
        accumulator.feed(event)
    summary = accumulator.summary()
    epochs = [e["epoch_time_s"] for e in events if e["type"] == "epoch_end"]
    assert summary["epoch_time_mean_s"] == pytest.approx(sum(epochs) / len(epochs))
    assert summary["gpu_util_mean_percent"] is None  # recorded on a machine without a GPU
    assert 0.0 <= summary["data_wait_share"] <= 1.0 and summary["images_per_s"] > 0


def test_under_ddp_the_verdict_names_the_starved_rank_and_its_node():
    """Rank 0 itself is fed (2% wait), but rank 3 on node 1 waits half the time: every rank waits for it."""
    w = window(wait_share=0.02, gpus=[gpu(40)])
    for i in range(40):
        ranks = [{"rank": r, "node": r // 2, "host": f"gpu{r // 2}", "batches": 1, "data_wait_s": 0.1 if r == 3 else 0.002,
                  "step_s": 0.1} for r in range(4)]
        w.feed(make_event("batch", epoch=0, epochs=1, index=i, count=40, losses={}, data_wait_s=0.002, step_s=0.1,
                          warmup=False, gpu_mem_gb=1.0, ranks=ranks,
                          window={"batches": 1, "images": 16, "data_wait_s": 0.002, "step_s": 0.1}))
    fig = w.figures()
    assert fig.slowest_rank["rank"] == 3 and fig.data_wait_share == pytest.approx(0.5)
    found = diagnose(fig)
    assert found.code == "input-bound-workers" and found.severity == "warning"
    assert "Rank 3 on node 1 (gpu1)" in found.detail and found.evidence["slowest_rank"]["node"] == 1


def test_the_runs_wait_for_a_free_core_is_the_kernels_run_queue_time(tmp_path):
    """``/proc/PID/task/TID/schedstat``'s second field, summed over the run's threads (a missing process skipped)."""
    import os

    from core.worker.system_sampler import thread_waits_ns

    for tid, text in (("11", "100 250 3\n"), ("12", "5 50 1\n")):
        task = tmp_path / "7" / "task" / tid
        task.mkdir(parents=True)
        (task / "schedstat").write_text(text)
    assert thread_waits_ns([7, 99999], proc_root=tmp_path) == 300
    assert thread_waits_ns([99999], proc_root=tmp_path) is None
    if Path("/proc/self/task").is_dir():
        assert isinstance(thread_waits_ns([os.getpid()]), int)  # this kernel says it
