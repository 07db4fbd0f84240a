"""DDP scaling: images/s of the same short training with 1, 2, … ranks, side by side in one run, and the ratio.

Each size runs ``yolostudio train … --nproc-per-node N`` through the app's own launcher (torchrun, one worker
per rank; gloo on the CPU, NCCL on GPUs) on the same generated dataset with the same total batch. Throughput is
read from the run's events: the images every rank trained in the timed batches (warm-up excluded) over rank 0's
wall time for them; the data-wait share is the worst rank's. Not a test: run it by hand, e.g.
``.venv/bin/python bench/ddp_scaling.py --device cpu --ranks 1 2`` (here) or ``--device 0,1,2,3 --ranks 1 2 4``
on a GPU machine (``bench/gpu_check.sh`` does). Targets on GPUs: ≥ 1.8x for 2, ≥ 3.4x for 4, data wait < 5 %.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.demo.dataset import DemoSpec, generate_demo_dataset  # noqa: E402


def throughput(events_file: Path, world: int) -> dict[str, float | None]:
    images = seconds = 0.0
    worst_wait = None
    for line in events_file.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        if event.get("type") != "batch" or event.get("warmup"):
            continue
        window = event["window"]
        images += window["images"] * world  # rank 0's share of every step, times the ranks
        seconds += window["data_wait_s"] + window["step_s"]
        for rank in event.get("ranks") or []:
            share = rank.get("data_wait_share")
            if share is not None:
                worst_wait = max(worst_wait or 0.0, share)
    return {"images_per_s": images / seconds if seconds else None, "data_wait_share": worst_wait}


def run_size(data: Path, workspace: Path, ranks: int, args: argparse.Namespace) -> dict[str, float | None]:
    name = f"ranks{ranks}"
    device = args.device if args.device == "cpu" else ",".join(args.device.split(",")[:ranks])
    argv = [sys.executable, "-m", "cli", "--workspace", str(workspace), "train", str(data), "--model", args.model,
            "--imgsz", str(args.imgsz), "--batch", str(args.batch), "--workers", str(args.workers), "--epochs",
            str(args.epochs), "--device", device, "--nproc-per-node", str(ranks), "--noplots",
            "--name", name, "--json"]
    started = time.monotonic()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env={**os.environ})
    wall = time.monotonic() - started
    if done.returncode != 0:
        errors = [json.loads(line) for line in done.stdout.splitlines() if '"type":"error"' in line.replace(" ", "")]
        print(errors[-1]["message"] if errors else done.stderr[-2000:], file=sys.stderr)
        raise SystemExit(f"{ranks} rank(s): training failed (exit {done.returncode})")
    return {**throughput(workspace / "runs" / name / "events.jsonl", ranks), "wall_s": wall}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu", help="cpu, or the GPUs to use (0,1,2,3)")
    parser.add_argument("--ranks", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--model", default="yolov5n.yaml")
    parser.add_argument("--imgsz", type=int, default=128)
    parser.add_argument("--batch", type=int, default=16, help="total batch (divided between the ranks)")
    parser.add_argument("--workers", type=int, default=1, help="per rank")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--images", type=int, default=128)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ddp-scaling-") as tmp:
        data = generate_demo_dataset(Path(tmp) / "data", DemoSpec(n_train=args.images, n_val=16,
                                                                  image_size=max(64, args.imgsz), seed=11))
        results = {ranks: run_size(data, Path(tmp) / "ws", ranks, args) for ranks in args.ranks}
    base = results[args.ranks[0]]["images_per_s"]
    print(f"device {args.device}, {args.model}, imgsz {args.imgsz}, total batch {args.batch}, "
          f"{args.workers} worker(s) per rank, {args.images} images x {args.epochs} epochs")
    print(f"{'ranks':>5}  {'images/s':>9}  {'ratio':>6}  {'worst data wait':>15}  {'wall':>7}")
    for ranks, r in results.items():
        ips = r["images_per_s"]
        ratio = f"{ips / base:.2f}x" if ips and base else "—"
        wait = "—" if r["data_wait_share"] is None else f"{100 * r['data_wait_share']:.0f}%"
        print(f"{ranks:>5}  {ips or 0:>9.1f}  {ratio:>6}  {wait:>15}  {r['wall_s']:>6.0f}s")


if __name__ == "__main__":
    main()
