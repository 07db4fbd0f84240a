"""What YOLO Studio's worker costs per epoch compared with the yolov5 package's own CLI.

Trains the same tiny model on the same data through ``yolostudio train`` and through ``yolov5 train``
(offline-patched the same way), alternating A/B runs so machine noise hits both alike, and prints the
median per-epoch wall time of each and their ratio (target: <= 1.03). Epoch 0 of every run is left out
(data-loader start-up, plots of the first batches). Not a test: run it by hand,
``.venv/bin/python bench/overhead.py [--runs 3] [--epochs 4]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.demo.dataset import DemoSpec, generate_demo_dataset  # noqa: E402
from core.job.launch import worker_env  # noqa: E402
from core.model_catalog import builtin_model_path  # noqa: E402


def run_studio(data: Path, workspace: Path, name: str, common: dict[str, str]) -> tuple[list[float], float]:
    argv = [sys.executable, "-m", "cli", "--workspace", str(workspace), "train", str(data), "--json",
            "--model", "yolov5n.yaml", "--name", name, "--device", "cpu"]
    for key in ("epochs", "imgsz", "batch", "workers"):
        argv += [f"--{key}", common[key]]
    t0 = time.perf_counter()
    out = subprocess.run(argv, cwd=ROOT, env=worker_env(), capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    epochs = [json.loads(line)["epoch_time_s"] for line in out.stdout.splitlines() if '"type":"epoch_end"' in line]
    return epochs, wall


def run_plain(data: Path, workspace: Path, name: str, common: dict[str, str]) -> tuple[list[float], float]:
    times = workspace / f"{name}.times.json"
    argv = [sys.executable, str(ROOT / "bench" / "_plain_yolov5.py"), str(times), str(workspace), "train",
            "--data", str(data), "--cfg", str(builtin_model_path("yolov5n.yaml")), "--weights", "",
            "--epochs", common["epochs"], "--imgsz", common["imgsz"], "--batch_size", common["batch"],
            "--workers", common["workers"], "--device", "cpu", "--project", str(workspace / "plain"),
            "--name", name, "--exist_ok"]
    t0 = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, env=worker_env(), capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    return json.loads(times.read_text()), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each kind (alternated)")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--imgsz", type=int, default=128)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--images", type=int, default=256, help="training images in the generated dataset")
    args = parser.parse_args()
    common = {k: str(getattr(args, k)) for k in ("epochs", "imgsz", "batch", "workers")}
    with tempfile.TemporaryDirectory(prefix="yolostudio-bench-") as tmp:
        workspace = Path(tmp)
        data = generate_demo_dataset(workspace / "data", DemoSpec(n_train=args.images, n_val=32, image_size=128))
        studio: list[float] = []
        plain: list[float] = []
        walls: dict[str, list[float]] = {"studio": [], "plain": []}
        per_run: dict[str, list[list[float]]] = {"studio": [], "plain": []}
        for i in range(args.runs):
            order = [("studio", run_studio), ("plain", run_plain)]
            if i % 2:
                order.reverse()
            for label, fn in order:
                epochs, wall = fn(data, workspace, f"{label}{i}", common)
                (studio if label == "studio" else plain).extend(epochs[1:])
                per_run[label].append(epochs[1:])
                walls[label].append(wall)
                print(f"run {i} {label:6s}: epochs {', '.join(f'{e:.2f}' for e in epochs)} s; wall {wall:.1f} s",
                      flush=True)
    ms, mp = statistics.median(studio), statistics.median(plain)
    pairs = [statistics.median(a) / statistics.median(b) for a, b in zip(per_run["studio"], per_run["plain"])]
    print(f"\nmedian epoch time (epochs 2..{args.epochs} of {args.runs} runs each, imgsz {args.imgsz}, "
          f"batch {args.batch}, workers {args.workers}, {os.cpu_count()} CPUs):")
    print(f"  yolostudio train : {ms:.3f} s")
    print(f"  yolov5 train     : {mp:.3f} s")
    print(f"  ratio            : {ms / mp:.3f}  (target <= 1.03)")
    print(f"  per-pair ratios  : {', '.join(f'{r:.3f}' for r in pairs)} (median {statistics.median(pairs):.3f}; "
          "run-to-run noise on a shared 2-core VM is about ±10%)")
    print(f"  median wall time per run: yolostudio {statistics.median(walls['studio']):.1f} s, "
          f"yolov5 {statistics.median(walls['plain']):.1f} s")


if __name__ == "__main__":
    main()
