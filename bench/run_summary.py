"""Summarise a run's events.jsonl: GPU utilisation, images/s and data-wait share, excluding warm-up.

``python bench/run_summary.py RUN_DIR`` — used by ``bench/gpu_check.sh``; also handy on any run.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.job.protocol import read_events  # noqa: E402


def summarise(run_dir: Path) -> dict[str, float | int | str | None]:
    events = read_events(run_dir / "events.jsonl")
    training = [e["t"] for e in events if e["type"] == "stage" and e.get("stage") == "training"]
    t_start = training[0] if training else 0.0
    batches = [e for e in events if e["type"] == "batch" and not e.get("warmup")]
    wait = sum(e["window"]["data_wait_s"] for e in batches)
    step = sum(e["window"]["step_s"] for e in batches)
    images = sum(e["window"]["images"] for e in batches)
    utils = [g["util_percent"] for e in events if e["type"] == "system" and e["t"] >= t_start
             for g in e.get("gpus", []) if g.get("util_percent") is not None]
    epochs = [e["epoch_time_s"] for e in events if e["type"] == "epoch_end"]
    done = next((e for e in reversed(events) if e["type"] == "done"), {})
    amp = next((e["message"] for e in events if e["type"] == "log" and "AMP" in e.get("message", "")), None)
    return {
        "status": done.get("status"),
        "gpu_util_mean_percent": statistics.mean(utils) if utils else None,
        "images_per_s": images / (wait + step) if wait + step else None,
        "data_wait_share": wait / (wait + step) if wait + step else None,
        "median_epoch_s": statistics.median(epochs) if epochs else None,
        "batches_measured": sum(e["window"]["batches"] for e in batches),
        "amp": amp,
    }


if __name__ == "__main__":
    for key, value in summarise(Path(sys.argv[1])).items():
        print(f"{key:24s} {value if not isinstance(value, float) else round(value, 3)}")
