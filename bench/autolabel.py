"""How good a trained demo model's auto-labels are on new images whose boxes are known — the labelling loop's
figure (issue 33).

    .venv/bin/python bench/autolabel.py --workspace WS [--run demo30] [--epochs 30] [--new 128] [--seed 7]

Trains the demo model once as a user would (``yolostudio demo``, then ``yolostudio train DEMO --epochs N --imgsz
128 --name RUN``; skipped when RUN exists), generates new images with the demo generator and a seed the
training never saw (``core.demo``: their labels are the known boxes), runs ``yolostudio label auto RUN --images
NEW --conf 0.05 --json`` (the real worker, through its door) and reads the queue (``core.labelling.store``).
For each confidence threshold it prints the proposals' precision and recall against the known boxes (yolov5's
matching: same class, IoU ≥ 0.5, one to one: ``core.evaluation.matching.match_image``) and the share of images
whose proposals are exactly right (nothing to edit). Last: how many of the images that need an edit the
review order ("least certain first", at ``--conf``) puts in its first K places (K = how many need one), beside
what a random order puts there on average — the review queue's figure.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

THRESHOLDS = (0.1, 0.25, 0.4, 0.5, 0.6, 0.75)


def cli(workspace: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "cli", "--workspace", str(workspace), *args]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return done


def known_boxes(label: Path, width: int, height: int, names: list[str]) -> np.ndarray:
    """(L, 5) class, x1, y1, x2, y2 in pixels, from a YOLO label file of the generator."""
    rows = [list(map(float, line.split())) for line in label.read_text().splitlines() if line.strip()]
    out = [[c, (x - w / 2) * width, (y - h / 2) * height, (x + w / 2) * width, (y + h / 2) * height]
           for c, x, y, w, h in rows]
    return np.asarray(out, dtype=np.float64).reshape(-1, 5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workspace", required=True, type=Path)
    parser.add_argument("--run", default="demo30")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--new", type=int, default=128, help="new images to auto-label")
    parser.add_argument("--seed", type=int, default=7, help="the new images' generator seed (training used 0)")
    parser.add_argument("--conf", type=float, default=0.25, help="the queue's threshold (its review order)")
    args = parser.parse_args()

    from core.demo.dataset import DEMO_CLASSES, DemoSpec, generate_demo_dataset
    from core.evaluation.matching import count_kinds, match_image
    from core.labelling.records import rank, review_order
    from core.labelling.store import open_queue

    ws = args.workspace.resolve()
    run_dir = ws / "runs" / args.run
    if not (run_dir / "weights" / "best.pt").is_file():
        data = json.loads(cli(ws, "demo", "--json").stdout)["data"]
        started = time.monotonic()
        cli(ws, "train", data, "--epochs", str(args.epochs), "--imgsz", "128", "--name", args.run, "--noplots")
        print(f"trained {args.run}: {args.epochs} epochs in {time.monotonic() - started:.0f} s")
    new = generate_demo_dataset(ws / "bench-autolabel" / f"seed{args.seed}",
                                DemoSpec(n_train=args.new, n_val=1, seed=args.seed)).parent
    images = new / "images" / "train"
    queue_name = f"bench-{args.run}-seed{args.seed}"
    started = time.monotonic()
    cli(ws, "label", "auto", args.run, "--images", str(images), "--name", queue_name, "--conf", "0.05", "--json")
    seconds = time.monotonic() - started
    queue = open_queue(ws, queue_name)
    names = list(DEMO_CLASSES)
    index = {name: i for i, name in enumerate(names)}
    truth, predicted = {}, {}
    for item in queue.items.values():
        truth[item.id] = known_boxes(new / "labels" / "train" / (Path(item.id).stem + ".txt"), item.width,
                                     item.height, names)
        predicted[item.id] = np.asarray([[b.x1, b.y1, b.x2, b.y2, b.conf or 0.0, index[b.cls]] for b in item.boxes],
                                        dtype=np.float64).reshape(-1, 6)
    labels = sum(len(t) for t in truth.values())
    print(f"{len(queue.items)} new images, {labels} known boxes; label auto took {seconds:.1f} s "
          f"(model load included)")
    print(f"{'conf':>5} {'proposed':>8} {'precision':>9} {'recall':>6} {'images exactly right':>21}")
    for conf in THRESHOLDS:
        tp = proposed = exact = 0
        for image_id in truth:
            kinds = count_kinds(match_image(truth[image_id], predicted[image_id], conf=conf))
            tp += kinds["true_positive"]
            proposed += int((predicted[image_id][:, 4] >= conf).sum())
            exact += kinds["true_positive"] == len(truth[image_id]) == int((predicted[image_id][:, 4] >= conf).sum())
        precision = tp / proposed if proposed else float("nan")
        print(f"{conf:>5.2f} {proposed:>8} {precision:>9.3f} {tp / labels:>6.3f} "
              f"{exact:>8} of {len(truth)} ({100 * exact / len(truth):.0f}%)")
    needs_edit = set()
    for image_id in truth:
        kinds = count_kinds(match_image(truth[image_id], predicted[image_id], conf=args.conf))
        if kinds["true_positive"] != len(truth[image_id]) or \
                kinds["true_positive"] != int((predicted[image_id][:, 4] >= args.conf).sum()):
            needs_edit.add(image_id)
    for item in queue.items.values():
        rank(item, args.conf)
    order = [item.id for item in review_order(list(queue.items.values()))]
    k = len(needs_edit)
    found = len(needs_edit & set(order[:k]))
    random_mean = k * k / len(order) if order else 0.0
    print(f"review order at conf {args.conf}: {found} of the {k} images that need an edit are in its first {k} "
          f"places (a random order: {random_mean:.1f} on average)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
