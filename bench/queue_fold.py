"""How long reading a large review queue takes: ``core.labelling.store.fold_queue`` of N images with B proposals each,
and the review order — what the Label page waits for (off its thread) when it opens a queue.

    .venv/bin/python bench/queue_fold.py [--images 10000] [--boxes 8]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--images", type=int, default=10_000)
    parser.add_argument("--boxes", type=int, default=8)
    args = parser.parse_args()
    from core.labelling.store import QueueFolder, QueueHeader, fold_queue, write_header

    with tempfile.TemporaryDirectory() as tmp:
        folder = QueueFolder(Path(tmp) / "labelling" / "big")
        ids = [f"img_{i:05d}.jpg" for i in range(args.images)]
        write_header(folder, QueueHeader("big", "exp", "/runs/exp", "/runs/exp/weights/best.pt", "/new", ids))
        rng = random.Random(0)
        lines = [json.dumps({"kind": "model", "names": {"0": "a", "1": "b", "2": "c"}})]
        for image_id in ids:
            boxes = [[rng.uniform(0, 500), rng.uniform(0, 400), rng.uniform(500, 900), rng.uniform(400, 700),
                      rng.random(), rng.randrange(3)] for _ in range(args.boxes)]
            lines.append(json.dumps({"kind": "image", "id": image_id, "width": 1000, "height": 800, "boxes": boxes}))
        folder.proposals.write_text("\n".join(lines) + "\n")
        times = []
        for _ in range(3):
            started = time.perf_counter()
            queue = fold_queue(folder)
            times.append(time.perf_counter() - started)
        started = time.perf_counter()
        queue.ordered()
        order = time.perf_counter() - started
        size = folder.proposals.stat().st_size / 1e6
    print(f"{args.images:,} images x {args.boxes} proposals ({size:.1f} MB of lines): fold {1000 * min(times):.0f} ms "
          f"(best of 3), review order {1000 * order:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
