"""How busy a hyperparameter search kept its slots: the share of the search's time with every slot training.

``python bench/tune_busy.py TUNE_DIR`` (a folder ``<workspace>/tune/NAME`` of ``yolostudio tune``), or
``python bench/tune_busy.py --run`` to run a tiny CPU search first (yolov5n, imgsz 32, the tiny demo data).
A trial's busy time is its training worker's, from its run's ``stage: starting`` to its ``done`` (Ray's own
start-up and trial placement are the gaps); the window is the search's ``stage: tuning`` to its ``done``.
Prints JSON: slots, window_s, all_busy_share (time with every slot training / window), slot_use (summed trial
time / slots × window), trials. ``bench/gpu_check.sh`` runs it on the GPUs.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.job.protocol import read_events  # noqa: E402


def trial_spans(tune_dir: Path) -> list[tuple[float, float]]:
    done = next(e for e in reversed(read_events(tune_dir / "events.jsonl")) if e["type"] == "done")
    spans = []
    for trial in done.get("trials", []):
        events = read_events(Path(trial["run"]) / "events.jsonl") if Path(trial["run"]).is_dir() else []
        starts = [e["t"] for e in events if e["type"] == "stage" and e.get("stage") == "starting"]
        ends = [e["t"] for e in events if e["type"] == "done"]
        if starts and ends:
            spans.append((starts[0], ends[-1]))
    return spans


def summarise(tune_dir: Path) -> dict[str, float | int]:
    events = read_events(tune_dir / "events.jsonl")
    spec = json.loads((tune_dir / "spec.json").read_text(encoding="utf-8"))
    t0 = next(e["t"] for e in events if e["type"] == "stage" and e.get("stage") in ("tuning", "resuming"))
    t1 = next(e["t"] for e in reversed(events) if e["type"] == "done")
    if spec.get("gpus_per_trial"):
        slots = int(spec["gpus"] // spec["gpus_per_trial"])
    else:
        slots = int(spec["cpus"] // spec["cpus_per_trial"])
    spans = trial_spans(tune_dir)
    edges = sorted({t0, t1, *(max(t0, min(t1, t)) for span in spans for t in span)})
    all_busy = sum(b - a for a, b in zip(edges, edges[1:])
                   if sum(s <= a and b <= e for s, e in spans) >= slots)
    used = sum(min(e, t1) - max(s, t0) for s, e in spans if e > t0 and s < t1)
    window = t1 - t0
    return {"slots": slots, "window_s": round(window, 1), "all_busy_share": round(all_busy / window, 3),
            "slot_use": round(used / (slots * window), 3), "trials": len(spans)}


def tiny_search(device: str, trials: int) -> Path:
    from core.demo.dataset import DemoSpec, generate_demo_dataset

    ws = Path(tempfile.mkdtemp(prefix="tune-busy-"))
    data = generate_demo_dataset(ws / "data", DemoSpec(n_train=32, n_val=8, image_size=64, seed=3))
    subprocess.run([sys.executable, "-m", "cli", "--workspace", str(ws), "tune", str(data), "--model", "yolov5n.yaml",
                    "--epochs", "3", "--imgsz", "32" if device == "cpu" else "320", "--batch", "8", "--workers", "0",
                    "--device", device, "--time-budget", "8m", "--trials", str(trials), "--name", "busy"],
                   check=False, cwd=Path(__file__).resolve().parents[1])
    return ws / "tune" / "busy"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tune_dir", nargs="?")
    parser.add_argument("--run", action="store_true", help="run a tiny search first")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--trials", type=int, default=4)
    args = parser.parse_args()
    tune_dir = tiny_search(args.device, args.trials) if args.run else Path(args.tune_dir)
    print(json.dumps(summarise(tune_dir)))


if __name__ == "__main__":
    main()
