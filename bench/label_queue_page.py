"""The Label page opening a large review queue: the longest GUI-thread stall while it reads, orders and lists it.

The queue is a real one (``core.labelling.store``: N images x B proposals as the autolabel worker writes them);
the page reads it through its operation (``gui.label.operations.read_queue``: fold and order on the pool), lists
the rows in one insert and opens the first image in the box editor. A 2 ms heartbeat on the GUI thread measures
the longest gap.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/label_queue_page.py [--images 10000] [--boxes 8]
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


def _queue(workspace: Path, images: int, boxes: int) -> None:
    from core.labelling.store import QueueFolder, QueueHeader, write_header

    folder = QueueFolder.of(workspace, "big")
    ids = [f"img_{i:05d}.jpg" for i in range(images)]
    write_header(folder, QueueHeader("big", "exp", "/runs/exp", "/runs/exp/weights/best.pt", "/new", ids))
    rng = random.Random(0)
    lines = [json.dumps({"kind": "model", "names": {"0": "a", "1": "b", "2": "c"}})]
    for image_id in ids:
        found = [[rng.uniform(0, 500), rng.uniform(0, 400), rng.uniform(500, 900), rng.uniform(400, 700),
                  rng.random(), rng.randrange(3)] for _ in range(boxes)]
        lines.append(json.dumps({"kind": "image", "id": image_id, "width": 1000, "height": 800, "boxes": found}))
    folder.proposals.write_text("\n".join(lines) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--images", type=int, default=10_000)
    parser.add_argument("--boxes", type=int, default=8)
    args = parser.parse_args()
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from gui.label.label_page import LabelPage

    app = QApplication.instance() or QApplication(sys.argv)
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp)
        _queue(workspace, args.images, args.boxes)
        results = []
        for _ in range(3):
            page = LabelPage(workspace)
            page.resize(1280, 720)
            page.show()
            deadline = time.perf_counter() + 5
            while time.perf_counter() < deadline and page.bar.queue_box.count() == 0:
                app.processEvents()
            gaps, last = [0.0], [time.perf_counter()]

            def tick() -> None:
                now = time.perf_counter()
                gaps.append(now - last[0])
                last[0] = now

            beat = QTimer()
            beat.timeout.connect(tick)
            beat.start(2)
            t0 = last[0] = time.perf_counter()
            page.open_queue("big")
            while page.editor.session is None and time.perf_counter() - t0 < 120:
                app.processEvents()
            took = (time.perf_counter() - t0) * 1000
            beat.stop()
            assert len(page.rows) == args.images
            results.append((max(gaps) * 1000, took))
            page.close()
            page.deleteLater()
            app.processEvents()
    print(f"a {args.images:,}-image queue ({args.boxes} proposals each) opened on the Label page in "
          f"{max(t for _s, t in results):.0f} ms (worst of 3); longest GUI-thread stall "
          f"{max(s for s, _t in results):.1f} ms (worst), {min(s for s, _t in results):.1f} ms (best)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
