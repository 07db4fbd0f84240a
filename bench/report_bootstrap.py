"""Benchmark (not a test): how long a deployment report takes on a large val set (``core.report``).

Builds a run folder whose stored val evaluation has ``--images`` images of ``--classes`` classes (5 labels an
image, 4 in 5 found, about 3 false detections an image, as ``images.json`` stores them), then times the report's
parts in one process: reading and matching the stored images (``stored_matches``), choosing a target-recall
operating point, the bootstrap of every class (``--draws``), and the whole ``write_report`` (hash, read, match,
bootstrap, render, atomic write) in English.

    python bench/report_bootstrap.py [--images 5000] [--classes 80] [--draws 1000]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.evaluation.fingerprint import weights_hash  # noqa: E402
from core.evaluation.operating_point import at_confidence, choose, stored_matches  # noqa: E402
from core.evaluation.store import load_images, save_evaluation  # noqa: E402
from core.report.gather import Choice, write_report  # noqa: E402


def images(n: int, classes: int, seed: int = 0) -> list[dict]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        labels, preds = [], []
        for k in range(5):
            c, x = int(rng.integers(0, classes)), 10 + 60 * k
            labels.append([c, x, 10.0, x + 40, 50.0])
            if rng.random() < 0.8:
                preds.append([x + 1, 11.0, x + 41, 51.0, round(float(rng.uniform(0.3, 1)), 4), c])
        for _ in range(int(rng.poisson(3))):
            preds.append([300.0, 300.0, 340.0, 340.0, round(float(rng.uniform(0.01, 0.6)), 4),
                          int(rng.integers(0, classes))])
        out.append({"image": f"/val/{i}.jpg", "width": 640, "height": 640, "labels": labels, "predictions": preds})
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--images", type=int, default=5000)
    parser.add_argument("--classes", type=int, default=80)
    parser.add_argument("--draws", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "ws" / "runs" / "exp"
        (run / "weights").mkdir(parents=True)
        best = run / "weights" / "best.pt"
        best.write_bytes(b"\0" * (4 << 20))  # a yolov5n-sized file to hash
        (run / "config.json").write_text(json.dumps({"spec": {"config": {"data": "", "imgsz": 640}}}))
        stored = images(args.images, args.classes)
        names = {str(c): f"class{c}" for c in range(args.classes)}
        save_evaluation(run / "evaluations" / "k", {"created": time.time(), "split": "val", "images": len(stored),
                                                    "weights_sha256": weights_hash(best), "names": names,
                                                    "best_f1": {"confidence": 0.4}}, stored)
        t0 = time.perf_counter()
        loaded = load_images(run / "evaluations" / "k")
        t1 = time.perf_counter()
        m = stored_matches(loaded, args.classes)
        t2 = time.perf_counter()
        point = choose(m, target_recall=0.7)
        t3 = time.perf_counter()
        at_confidence(m, point.confidence, draws=args.draws)
        t4 = time.perf_counter()
        write_report(run, language="en", choice=Choice(target_recall=0.7), draws=args.draws)
        t5 = time.perf_counter()
    print(f"{args.images} images, {args.classes} classes, {len(m.conf)} stored predictions, {args.draws} draws")
    for what, s in (("read images.json", t1 - t0), ("match (IoU 0.5, per image)", t2 - t1),
                    ("choose the operating point", t3 - t2), ("bootstrap every class", t4 - t3),
                    ("whole write_report", t5 - t4)):
        print(f"  {what:<28} {s:6.2f} s")


if __name__ == "__main__":
    main()
