"""Dataset check speed: YOLO Studio's full check vs yolov5's own label scan, side by side, plus a re-check.

    .venv/bin/python bench/dataset_scan.py [--images 20000] [--workers N] [--keep DIR]

Generates a dataset of small JPEGs with labels (90 % train, 10 % val), then times:
  1. yolov5's scan: building ``LoadImagesAndLabels``' label cache for train and val, in a subprocess (the
     training stack is never imported here), with its ``.cache`` files removed first; only the dataset
     construction is timed, not importing torch;
  2. the app's full check (``validate_dataset``: everything yolov5 checks, plus hashing for leaks and
     duplicates, orphans, per-line findings and statistics), with an empty cache;
  3. a re-check after touching 10 label files (every file is stat'ed; only those 10 labels are read again).
Prints the three figures and the ratios the issue targets (check ≤ yolov5's scan; re-check < 5 %).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.dataset.validate import validate_dataset  # noqa: E402

YOLOV5_SCAN = r"""
import json, sys, time
from pathlib import Path
from yolov5.utils.dataloaders import LoadImagesAndLabels
root = Path(sys.argv[1])
for cache in root.rglob("*.cache"):
    cache.unlink()
start = time.perf_counter()
counts = {}
for split in ("train", "val"):
    ds = LoadImagesAndLabels(str(root / "images" / split), img_size=640, batch_size=16, augment=False,
                             cache_images=False, workers=8, prefix=f"{split}: ")
    counts[split] = len(ds)
print(json.dumps({"seconds": time.perf_counter() - start, "images": counts}))
"""


def generate(root: Path, n: int, seed: int = 0) -> Path:
    from PIL import Image

    rng = random.Random(seed)
    n_val = max(1, n // 10)
    for split in ("train", "val"):
        (root / "images" / split).mkdir(parents=True, exist_ok=True)
        (root / "labels" / split).mkdir(parents=True, exist_ok=True)
    base = Image.effect_noise((64, 64), 40).convert("RGB")
    for i in range(n):
        split = "val" if i < n_val else "train"
        colour = (i % 256, (i // 256) % 256, rng.randrange(256))  # unique per image: no duplicates
        image = Image.blend(base, Image.new("RGB", (64, 64), colour), 0.5)
        for bit in range(16):  # the index as black/white pixels: every image's content differs
            image.putpixel((bit, 0), (255, 255, 255) if (i >> bit) & 1 else (0, 0, 0))
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=85)
        (root / "images" / split / f"{i:06d}.jpg").write_bytes(buffer.getvalue())
        rows = [f"{rng.randrange(3)} {rng.uniform(.2, .8):.4f} {rng.uniform(.2, .8):.4f} "
                f"{rng.uniform(.05, .3):.4f} {rng.uniform(.05, .3):.4f}" for _ in range(rng.randrange(1, 5))]
        (root / "labels" / split / f"{i:06d}.txt").write_text("\n".join(rows) + "\n")
    yaml_file = root / "data.yaml"
    yaml_file.write_text(f"path: {root}\ntrain: images/train\nval: images/val\nnames: [a, b, c]\n")
    return yaml_file


def yolov5_scan(root: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", YOLOV5_SCAN, str(root)], capture_output=True, text=True,
                         cwd=str(root), env=dict(os.environ, YOLOv5_VERBOSE="False"), timeout=3600)
    if out.returncode != 0:
        raise SystemExit(f"yolov5 scan failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=20000)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--keep", help="build the dataset in this folder and keep it")
    args = parser.parse_args()
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="yolostudio-bench-"))
    cache_dir = Path(tempfile.mkdtemp(prefix="yolostudio-bench-cache-"))
    try:
        t0 = time.perf_counter()
        yaml_file = generate(root, args.images)
        print(f"generated {args.images} images in {time.perf_counter() - t0:.1f} s under {root}")
        theirs = yolov5_scan(root)
        print(f"yolov5 label-cache scan (LoadImagesAndLabels, train + val): {theirs['seconds']:.2f} s "
              f"({theirs['images']})")
        t0 = time.perf_counter()
        report = validate_dataset(yaml_file, cache_dir=cache_dir, workers=args.workers)
        ours = time.perf_counter() - t0
        print(f"YOLO Studio full check: {ours:.2f} s ({report.scan.read} files read, "
              f"{len(report.findings)} findings)")
        touched = sorted((root / "labels" / "train").glob("*.txt"))[:10]
        for path in touched:
            path.write_text(path.read_text())
            os.utime(path, ns=(time.time_ns(), time.time_ns() + 1_000_000))
        t0 = time.perf_counter()
        again = validate_dataset(yaml_file, cache_dir=cache_dir, workers=args.workers)
        recheck = time.perf_counter() - t0
        print(f"YOLO Studio re-check after touching 10 labels: {recheck:.2f} s ({again.scan.read} files read, "
              f"{again.scan.from_cache} from the cache)")
        print(f"ratio full check / yolov5 scan: {ours / theirs['seconds']:.2f} (target ≤ 1.00)")
        print(f"ratio re-check / full check: {recheck / ours:.1%} (target < 5 %)")
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
