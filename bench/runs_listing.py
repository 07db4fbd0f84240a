"""Benchmark (not a test): listing runs at GUI start-up, before and after the app-level runs store.

Builds a workspace with one hour-long run (a synthesised events file of ~18 MB: batch events at ~10/s
with their timing windows, 1 Hz ``system`` samples, epoch ends) plus a few short runs (the recorded
fixture run), then times side by side, in one process:

- before: three owners list the runs at start-up (main window, Runs page, Export page), each folding
  every events file (``core.runs.store.list_runs`` three times);
- after: the runs store's one listing through ``core.runs.index.RunIndex`` (the events are folded once),
  then the two pages reading the store's list, and a refresh (the Runs page's F5) that reads nothing;
- a refresh while the long run is still training: one more minute of events appended, folded alone.

    python bench/runs_listing.py [--minutes 60] [--short-runs 5]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.job.protocol import encode  # noqa: E402
from core.runs.index import RunIndex  # noqa: E402
from core.runs.store import list_runs
from core.run.files import CONFIG_FILE, EVENTS_FILE

RECORDED = ROOT / "tests" / "fixtures" / "recorded_train_events.jsonl"
BATCHES_PER_S = 10
BATCHES_PER_EPOCH = 600
RNG = random.Random(0)


def minute_of_events(minute: int) -> str:
    """One minute of a training run's events, shaped like the worker's."""
    out = []
    for second in range(60):
        t = 1000.0 + minute * 60 + second
        index_base = (minute * 60 + second) * BATCHES_PER_S
        for k in range(BATCHES_PER_S):
            index = index_base + k
            epoch, batch = divmod(index, BATCHES_PER_EPOCH)
            if batch == 0:
                out.append(encode({"v": 1, "type": "epoch_start", "t": t, "epoch": epoch, "epochs": 300,
                                   "batches": BATCHES_PER_EPOCH}))
            wait, step = 0.004 + RNG.random() / 1000, 0.095 + RNG.random() / 100  # full-precision, as measured
            out.append(encode({"v": 1, "type": "batch", "t": t + k / BATCHES_PER_S + RNG.random() / 100,
                               "epoch": epoch, "epochs": 300, "index": batch, "count": BATCHES_PER_EPOCH,
                               "losses": {"box": RNG.random() / 10, "obj": RNG.random() / 10, "cls": RNG.random() / 10},
                               "instances": 120, "imgsz": 640, "batch_size": 16, "data_wait_s": wait, "step_s": step,
                               "window": {"batches": 1, "images": 16, "data_wait_s": round(wait, 6),
                                          "step_s": round(step, 6), "images_per_s": 16 / (wait + step),
                                          "data_wait_share": wait / (wait + step)},
                               "images_per_s": 16 / (wait + step), "warmup": False, "gpu_mem_gb": 9.8}))
            if batch == BATCHES_PER_EPOCH - 1:
                metrics = {"metrics/precision": 0.5, "metrics/recall": 0.4, "metrics/mAP_0.5": 0.3 + epoch / 1000,
                           "metrics/mAP_0.5:0.95": 0.2 + epoch / 1000}
                out.append(encode({"v": 1, "type": "epoch_end", "t": t, "epoch": epoch, "epochs": 300,
                                   "metrics": metrics, "fitness": 0.21 + epoch / 1000, "best_fitness": 0.2,
                                   "epoch_time_s": 60.0}))
        out.append(encode({"v": 1, "type": "system", "t": t, "cpu_percent": 55.0, "cpu_count": 16,
                           "iowait_percent": 0.4, "proc_cpu_percent": 480.0, "ram_used_gb": 21.0,
                           "ram_total_gb": 128.0, "swap_used_gb": 0.0, "disk_read_mb_s": 35.0,
                           "gpus": [{"index": 0, "util_percent": 93, "mem_util_percent": 60, "mem_used_gb": 9.8,
                                     "mem_total_gb": 24.0, "temperature_c": 66, "power_w": 310.0,
                                     "power_limit_w": 450.0, "throttle_reasons": 0}]}))
    return "".join(out)


def make_run(root: Path, name: str, events: Path | None = None) -> Path:
    run = root / "runs" / name
    run.mkdir(parents=True)
    config = {"app_version": "bench", "created": 1.0,
              "spec": {"config": {"data": "/data/data.yaml", "model": "yolov5s.yaml", "epochs": 300},
                       "run_dir": str(run)}}
    (run / CONFIG_FILE).write_text(json.dumps(config), encoding="utf-8")
    if events is not None:
        shutil.copyfile(events, run / EVENTS_FILE)
    return run


def timed(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=int, default=60)
    parser.add_argument("--short-runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp)
        long_run = make_run(workspace, "long")
        with open(long_run / EVENTS_FILE, "w", encoding="utf-8") as handle:
            handle.write(encode({"v": 1, "type": "stage", "t": 999.0, "stage": "starting", "pid": 1,
                                 "create_time": 1.0}))
            for minute in range(args.minutes):
                handle.write(minute_of_events(minute))
        for i in range(args.short_runs):
            make_run(workspace, f"short{i}", RECORDED)
        size_mb = (long_run / EVENTS_FILE).stat().st_size / 1e6

        one_listing = timed(lambda: list_runs(workspace))
        before = timed(lambda: [list_runs(workspace) for _owner in range(3)], repeat=2)

        def after_start() -> None:
            index = RunIndex()
            index.list_runs(workspace)  # the store's one background load; pages read its list

        after = timed(after_start, repeat=2)
        index = RunIndex()
        index.list_runs(workspace)
        cached = timed(lambda: index.list_runs(workspace))
        with open(long_run / EVENTS_FILE, "a", encoding="utf-8") as handle:
            handle.write(minute_of_events(args.minutes))
        start = time.perf_counter()
        grown_reads = index.reads
        index.list_runs(workspace)
        growing = time.perf_counter() - start
        grown_reads = index.reads - grown_reads
        result = {
            "long_run_events_mb": round(size_mb, 1),
            "short_runs": args.short_runs,
            "one_listing_s": round(one_listing, 3),
            "startup_before_s (3 owners, each folds every file)": round(before, 3),
            "startup_after_s (runs store: folded once)": round(after, 3),
            "startup_ratio": round(before / after, 1),
            "refresh_unchanged_s": round(cached, 4),
            "refresh_unchanged_ratio_vs_one_listing": round(one_listing / cached, 1),
            "refresh_after_1_minute_more_s": round(growing, 4),
            "refresh_after_1_minute_more_read_mb": round(grown_reads / 1e6, 2),
        }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
