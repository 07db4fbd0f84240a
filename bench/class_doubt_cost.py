"""What the class-doubt calibration costs on a COCO-sized evaluation (``core/worker/class_doubt.py``).

    .venv/bin/python bench/class_doubt_cost.py [--images 5000] [--labels 10] [--classes 80]

Random boxes and confidences (the slowest case for the logistic regression: nothing to separate, so every fit
runs long), 3 predictions per label. Prints the wall and CPU seconds of ``class_doubts`` with its one BLAS
thread, and of one fold's fit left to BLAS's own threads, side by side.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--images", type=int, default=5000)
    p.add_argument("--labels", type=int, default=10)
    p.add_argument("--classes", type=int, default=80)
    args = p.parse_args()
    from sklearn.linear_model import LogisticRegression

    from core.worker import class_doubt

    rng = np.random.default_rng(0)
    labels, predictions = [], []
    for _ in range(args.images):
        corner = rng.uniform(0, 500, (args.labels, 2))
        lab = np.c_[rng.integers(0, args.classes, args.labels), corner, corner + rng.uniform(20, 100, (args.labels, 2))]
        n = 3 * args.labels
        predictions.append(np.c_[lab[:, 1:5].repeat(3, 0) + rng.normal(0, 3, (n, 4)), rng.uniform(0, 1, n),
                                 rng.integers(0, args.classes, n)])
        labels.append(lab)
    wall, cpu = time.perf_counter(), time.process_time()
    class_doubt.class_doubts(labels, predictions, args.classes)
    ours = time.perf_counter() - wall, time.process_time() - cpu
    features = np.vstack([class_doubt.class_confidences(a, b, args.classes) for a, b in zip(labels, predictions)])
    clipped = np.clip(features[: class_doubt.FIT_CAP], class_doubt.FLOOR, 1 - class_doubt.FLOOR)
    classes = np.concatenate([a[:, 0] for a in labels]).astype(int)[: class_doubt.FIT_CAP]
    wall, cpu = time.perf_counter(), time.process_time()
    LogisticRegression(max_iter=1000).fit(np.log(clipped / (1 - clipped)), classes)
    threaded = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{args.images} images × {args.labels} labels, {args.classes} classes")
    print(f"  class_doubts (5 folds, one BLAS thread): {ours[0]:.1f} s wall, {ours[1]:.1f} s CPU")
    print(f"  one fold's fit, BLAS's own threads:       {threaded[0]:.1f} s wall, {threaded[1]:.1f} s CPU")
    print(f"  one fold with BLAS threads / all five with one thread: {threaded[0] / ours[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
