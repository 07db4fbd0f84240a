"""FP32 against INT8 latency per runtime (ONNX Runtime, OpenVINO), side by side in one run, with each one's mAP@0.5.

The four models come from the app's own export — ``yolostudio export WEIGHTS --format onnx,openvino --int8`` —
so their mAP@0.5 is the one the export reports (its evaluation on the val split, ``core/worker/export_int8.py``),
and each INT8 model is calibrated as a user's would be. Latency is then measured here, in one process, on the
same letterboxed val image, with the app's own runners (ONNX Runtime's CPU provider; OpenVINO's CPU plugin in
f32 for the FP32 IR) and their default thread counts: after a warm-up, every round runs each of the four once, in
an order that rotates each round, so a change of load on the machine hits all four alike. p50 and p99 of each.
The last line is the INT8/FP32 ratio of the p50 per runtime (below 1: INT8 is faster).

Without ``--weights`` a tiny run is trained first (the demo dataset of the e2e tests, yolov5n from scratch) in a
temporary workspace; its mAP is near zero, so read the figures for latency, and the mAP columns as the proof that
both sides were measured on the same data. ``--imgsz`` sets the export (and timing) size.

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python bench/int8.py --imgsz 64 --runs 200
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
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RUNTIMES = ("onnx", "openvino")
LABEL = {"onnx": "onnxruntime", "openvino": "openvino"}


def _cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    out = subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if out.returncode not in (0, 1):  # 1: an INT8 model over the limit still has its figures
        sys.exit(f"yolostudio {args[0]} failed ({out.returncode}):\n{out.stderr[-3000:]}")
    return out


def _trained(root: Path, env: dict[str, str], epochs: int) -> tuple[Path, Path]:
    from core.demo.dataset import DemoSpec, generate_demo_dataset

    data = generate_demo_dataset(root / "data", DemoSpec(n_train=32, n_val=8, image_size=64, seed=3))
    _cli(["train", str(data), "--model", "yolov5n.yaml", "--epochs", str(epochs), "--imgsz", "64", "--batch", "8",
          "--workers", "1", "--device", "cpu", "--name", "bench", "--noplots", "--json"], env)
    return root / "ws" / "runs" / "bench" / "weights" / "best.pt", data


def _exports(weights: Path, data: Path, imgsz: int, env: dict[str, str], trust: bool) -> list[dict[str, Any]]:
    out = _cli(["export", str(weights), "--format", "onnx,openvino", "--int8", "--int8-max-drop", "1", "--data",
                str(data), "--imgsz", str(imgsz), "--json", *(["--trust-weights"] if trust else [])], env)
    return json.loads(out.stdout)["exports"]


def _percentiles(values: list[float]) -> tuple[float, float]:
    q = statistics.quantiles(values, n=100, method="inclusive")
    return statistics.median(values), q[98]


def interleaved(runners: dict[str, Callable[[Any], Any]], x: Any, runs: int, warmup: int = 10
                ) -> dict[str, list[float]]:
    """Milliseconds of each runner on ``x``: every round runs each once, the order rotated by one each round."""
    names = list(runners)
    for _ in range(warmup):
        for name in names:
            runners[name](x)
    times: dict[str, list[float]] = {name: [] for name in names}
    for i in range(runs):
        for name in names[i % len(names):] + names[:i % len(names)]:
            t0 = time.perf_counter()
            runners[name](x)
            times[name].append((time.perf_counter() - t0) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=Path, help="a run's best.pt (default: train a tiny run first)")
    parser.add_argument("--data", type=Path, help="its dataset's data.yaml (calibration: train; mAP: val)")
    parser.add_argument("--imgsz", type=int, default=64, help="export and timing size (default 64)")
    parser.add_argument("--epochs", type=int, default=2, help="epochs of the tiny run (default 2)")
    parser.add_argument("--runs", type=int, default=200, help="timed rounds (default 200)")
    args = parser.parse_args()

    from core.worker.export_formats import onnxruntime_runner
    from core.worker.export_openvino import openvino_runner
    from core.worker.export_verify import prepare_images
    from core.evaluation.fingerprint import split_images

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env = {**os.environ, "YOLOSTUDIO_WORKSPACE": str(root / "ws"), "YOLOSTUDIO_CONFIG_DIR": str(root / "config"),
               "HOME": str(root / "home"), "CUDA_VISIBLE_DEVICES": ""}
        weights, data = (args.weights, args.data) if args.weights else _trained(root, env, args.epochs)
        reports = {e["format"]: e for e in _exports(weights, data, args.imgsz, env, trust=bool(args.weights))}
        runner_of = {"onnx": onnxruntime_runner, "openvino": openvino_runner}
        runners, maps = {}, {}
        for fmt in RUNTIMES:
            int8 = reports[fmt]["int8"]
            for side, path in (("FP32", reports[fmt]["path"]), ("INT8", int8["path"])):
                runners[(fmt, side)] = runner_of[fmt](Path(path))[0]
                maps[(fmt, side)] = int8["fp32" if side == "FP32" else "int8"]["map50"]
        (image,) = prepare_images([Path(split_images(Path(data), "val")[0])], args.imgsz)[:1]
        x = image.tensor[None]
        times = interleaved(runners, x, args.runs)

    print(f"imgsz {args.imgsz}, batch 1, {args.runs} interleaved rounds, CPU; OMP_NUM_THREADS="
          f"{os.environ.get('OMP_NUM_THREADS', 'unset')}, {os.cpu_count()} CPUs")
    print(f"{'runtime':<12} {'FP32 p50':>9} {'FP32 p99':>9} {'INT8 p50':>9} {'INT8 p99':>9} "
          f"{'FP32 mAP@0.5':>13} {'INT8 mAP@0.5':>13}")
    ratios = []
    for fmt in RUNTIMES:
        p32, p32_99 = _percentiles(times[(fmt, "FP32")])
        p8, p8_99 = _percentiles(times[(fmt, "INT8")])
        print(f"{LABEL[fmt]:<12} {p32:7.2f}ms {p32_99:7.2f}ms {p8:7.2f}ms {p8_99:7.2f}ms "
              f"{maps[(fmt, 'FP32')]:13.4f} {maps[(fmt, 'INT8')]:13.4f}")
        ratios.append(f"{LABEL[fmt]} {p8 / p32:.2f}")
    print("INT8/FP32 p50 ratio: " + ", ".join(ratios))


if __name__ == "__main__":
    main()
