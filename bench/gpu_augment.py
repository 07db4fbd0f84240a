"""Batched augmentation on the training device (issue 36) against stock yolov5, both sides of each ratio.

1. **CPU cost** (always): a generated 640 prepared copy (JPEGs of 1280x720 photos resized to 640x360, as
   ``yolostudio dataset prepare --imgsz 640`` writes them), read by yolov5's own ``LoadImagesAndLabels`` with
   ``workers 0`` in this process, CPU time (``time.process_time``) per training image: stock (``augment=True``:
   mosaic, perspective, HSV, flips in the loader) vs the loader of ``--gpu-augment on`` (``augment=False``: decode
   and letterbox only). The batch's augmentation on the device is timed apart (on a CPU-only machine it runs on
   the CPU, so its CPU time is printed too: that is the cost that moves to the GPU where there is one).
   Goal: the loader's CPU time ≤ 1/3.5 of stock's. The last line is this ratio.
2. **Accuracy parity** (``--parity``): ``yolostudio train`` on the demo dataset, the same settings and epochs, for
   each seed stock and ``--gpu-augment on``; mean mAP@0.5 with its spread (min..max) for both. Goal: within 0.02.
   ``--small-objects``: the same on a generated set of small objects instead (``DemoSpec.object_size``: objects
   5–12% of a 256 px image's side, up to 8 per image, so 6–15 px at imgsz 128), where mosaic's and the affine's
   scaling decide what survives ``box_candidates``.

Not a test: ``OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python bench/gpu_augment.py [--images 64] [--parity
--seeds 3 --epochs 3 --imgsz 64 [--small-objects]] [--device cpu]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def make_prepared_copy(root: Path, n: int) -> Path:
    """``n`` 1280x720 'photos' with a few boxes each, resized to 640x360 as the prepared copy holds them."""
    import cv2
    import numpy as np

    g = np.random.default_rng(0)
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    for i in range(n):
        im = cv2.GaussianBlur(g.integers(0, 255, (720, 1280, 3), dtype=np.uint8), (0, 0), 3)
        rows = []
        for _ in range(g.integers(2, 8)):
            x, y = g.uniform(0.1, 0.9, 2)
            w, h = g.uniform(0.03, 0.2, 2)
            cv2.rectangle(im, (int((x - w / 2) * 1280), int((y - h / 2) * 720)),
                          (int((x + w / 2) * 1280), int((y + h / 2) * 720)), tuple(int(c) for c in g.integers(0, 255, 3)), -1)
            rows.append(f"{g.integers(0, 3)} {x:.6f} {y:.6f} {w:.6f} {h:.6f}")
        small = cv2.resize(im, (640, 360), interpolation=cv2.INTER_AREA)
        cv2.imwrite(str(root / "images" / f"{i:05d}.jpg"), small, [cv2.IMWRITE_JPEG_QUALITY, 90])
        (root / "labels" / f"{i:05d}.txt").write_text("\n".join(rows) + "\n")
    return root / "images"


def loader_cpu_per_image(images: Path, augment: bool, hyp: dict, batch: int, passes: int) -> tuple[float, object]:
    """CPU seconds per image of yolov5's loader with workers 0 (in this process), and one batch it gave."""
    import torch
    from yolov5.utils.dataloaders import LoadImagesAndLabels

    dataset = LoadImagesAndLabels(str(images), 640, batch, augment=augment, hyp=hyp, stride=32)
    loader = torch.utils.data.DataLoader(dataset, batch_size=batch, shuffle=True, num_workers=0,
                                         collate_fn=LoadImagesAndLabels.collate_fn)
    first = None
    for b in loader:  # a warm pass (file cache, lazy imports), not counted
        first = first or b
    start, count = time.process_time(), 0
    for _ in range(passes):
        for imgs, _t, _p, _s in loader:
            count += len(imgs)
    return (time.process_time() - start) / count, first


def cpu_cost(args: argparse.Namespace, work: Path) -> float:
    import torch
    import yaml

    from core.worker import compat

    compat.apply(work / "cache", trusted=[work])
    import yolov5
    from core.worker.batch_mosaic import BatchAugmenter

    hyp = yaml.safe_load((Path(yolov5.__file__).parent / "data" / "hyps" / "hyp.scratch-low.yaml").read_text())
    images = make_prepared_copy(work / "prepared", args.images)
    stock, _ = loader_cpu_per_image(images, True, hyp, args.batch, args.passes)
    ours, batch = loader_cpu_per_image(images, False, hyp, args.batch, args.passes)
    device = torch.device(args.device if args.device != "cpu" and torch.cuda.is_available() else "cpu")
    augment = BatchAugmenter(hyp)
    imgs = batch[0].to(device).float() / 255
    augment(imgs, batch[1], batch[3])  # warm-up (kernels, allocator)
    if device.type == "cuda":
        torch.cuda.synchronize()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for _ in range(args.passes * 3):
        augment(imgs, batch[1], batch[3])
    if device.type == "cuda":
        torch.cuda.synchronize()
    n = args.passes * 3 * len(imgs)
    aug_cpu, aug_wall = (time.process_time() - cpu0) / n, (time.perf_counter() - wall0) / n
    print(f"prepared copy: {args.images} JPEGs 640x360, batch {args.batch}, workers 0, {args.passes} passes")
    print(f"stock yolov5 loader (decode + augment): {stock * 1000:.2f} ms CPU per image")
    print(f"gpu-augment loader (decode + letterbox only): {ours * 1000:.2f} ms CPU per image")
    print(f"batched augmentation on {device}: {aug_wall * 1000:.2f} ms wall, {aug_cpu * 1000:.2f} ms CPU per image"
          f" (torch threads {torch.get_num_threads()})")
    return ours / stock


#: The small-objects set (``--small-objects``): objects 5–12% of the image side, up to 8 per image.
SMALL_OBJECTS = {"image_size": 256, "object_size": (0.05, 0.12), "max_objects": 8, "seed": 11}


def parity_data(args: argparse.Namespace, work: Path, env: dict) -> str:
    """The demo dataset (``yolostudio demo``), or with ``--small-objects`` a generated set of small objects."""
    if args.small_objects:
        from core.demo.dataset import generate_demo_dataset
        from core.demo.spec import DemoSpec

        spec = DemoSpec(n_train=args.small_train, n_val=64, **SMALL_OBJECTS)
        return str(generate_demo_dataset(work / "small-objects", spec))
    return subprocess.run([sys.executable, "-m", "cli", "demo"], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True).stdout.strip().splitlines()[-1]


def box_sides_px(data: str, imgsz: int) -> tuple[float, float]:
    """Median and 10th-percentile box side (sqrt of the area) in pixels at ``imgsz``: how small "small" is."""
    sides = sorted((float(w) * float(h)) ** 0.5 * imgsz for f in (Path(data).parent / "labels" / "train").glob(
        "*.txt") for _c, _x, _y, w, h in (line.split() for line in f.read_text().splitlines() if line.strip()))
    return statistics.median(sides), sides[len(sides) // 10]


def train_map(args: argparse.Namespace, work: Path, seed: int, extra: list[str]) -> float:
    env = {**__import__("os").environ, "YOLOSTUDIO_WORKSPACE": str(work / "ws")}
    data = parity_data(args, work, env)
    name = f"s{seed}{'g' if extra else 'y'}"
    out = subprocess.run([sys.executable, "-m", "cli", "train", data, "--model", "yolov5n.yaml", "--epochs",
                          str(args.epochs), "--imgsz", str(args.imgsz), "--batch", "16", "--workers", "1",
                          "--device", args.device, "--seed", str(seed), "--name", name, "--noplots", *extra,
                          "--json"], cwd=ROOT, env=env, capture_output=True, text=True)
    done = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")][-1]
    if done.get("status") != "completed":
        raise SystemExit(f"training {name} did not complete: {out.stderr[-2000:]}")
    return float(done["final_metrics"]["map50"])


def parity(args: argparse.Namespace, work: Path) -> None:
    stock, ours = [], []
    if args.small_objects:
        data = parity_data(args, work, {})
        median, p10 = box_sides_px(data, args.imgsz)
        print(f"small objects: {args.small_train} training images, 256 px, boxes at imgsz {args.imgsz}: median "
              f"side {median:.1f} px, 10th percentile {p10:.1f} px", flush=True)
    for seed in range(args.seeds):  # alternating, so machine noise hits both alike
        stock.append(train_map(args, work, seed, []))
        ours.append(train_map(args, work, seed, ["--gpu-augment", "on"]))
        print(f"seed {seed}: mAP@0.5 stock {stock[-1]:.4f}, gpu-augment {ours[-1]:.4f}", flush=True)
    for label, values in (("stock", stock), ("gpu-augment", ours)):
        print(f"{label}: mean mAP@0.5 {statistics.mean(values):.4f} (min {min(values):.4f} .. max {max(values):.4f},"
              f" sd {statistics.pstdev(values):.4f}) over {len(values)} seeds")
    print(f"mAP@0.5 difference (gpu-augment - stock): {statistics.mean(ours) - statistics.mean(stock):+.4f}"
          f" (goal: above -0.02)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=64)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--parity", action="store_true")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--imgsz", type=int, default=64)
    parser.add_argument("--small-objects", action="store_true", help="parity on a generated small-objects set")
    parser.add_argument("--small-train", type=int, default=384, help="training images of the small-objects set")
    parser.add_argument("--no-cpu-cost", action="store_true", help="skip the CPU-cost part (parity only)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gpu_augment_") as tmp:
        work = Path(tmp)
        if args.parity:
            parity(args, work)
        if args.no_cpu_cost:
            return
        ratio = cpu_cost(args, work)
    print(f"CPU-cost ratio (gpu-augment loader / stock loader, per image): {ratio:.3f} = 1/{1 / ratio:.2f}"
          f" (goal ≤ 1/3.5)")


if __name__ == "__main__":
    main()
