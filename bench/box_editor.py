"""The box editor's figures: time to show a 4000×3000 photo with 200 boxes, and key presses and drags to label
images from proposals vs from nothing.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/box_editor.py [--images 8] [--boxes 200] [--label 20]

(a) "next image" on 4000×3000 JPEGs with ``--boxes`` boxes each, in the editor at 1280×720: the time from the
key press to the view painted with the picture and every box, p50/p95 over the images — warm (the picture
decoded while the person looked at the one before: ``ImageCache.prefetch``) and cold (no prefetch; the boxes
are shown at once, the picture when decoded).
(b) ``--label`` images of 10 boxes of 5 classes each labelled by scripted key presses and drags sent to the
real widget (QTest), once from nothing and once from proposals, until the file holds the true boxes (IoU ≥ 0.9
each, checked). The proposals are the true boxes moved by up to 2% of their size (IoU > 0.9: taken as they are), with one box in ten missed and one false
box in ten added [design: a model at recall and precision ≈ 0.9]; the count is every key press and drag sent.
(c) a ``--queue``-image review queue (JSON lines of proposals' confidences) read and ordered on the pool, then
listed: the longest gap of a 2 ms GUI-thread heartbeat while it loads (worst of 3 loads).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402
from PySide6.QtCore import QPoint, QPointF, Qt, QTimer  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from core.boxedit.review import ReviewRow  # noqa: E402
from core.boxedit.session import Box, EditSession, box_from_pixels  # noqa: E402
from gui.labelling.box_editor import BoxEditor  # noqa: E402


def _pump(app: QApplication, until, limit_s: float = 30.0) -> None:
    end = time.perf_counter() + limit_s
    while not until() and time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.0005)


def _photo(path: Path, seed: int) -> None:
    rng = random.Random(seed)
    small = Image.new("RGB", (40, 30))
    small.putdata([(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(1200)])
    small.resize((4000, 3000), Image.BICUBIC).save(path, quality=90)


def _rows(rng: random.Random, n: int, w: int, h: int) -> list[Box]:
    out = []
    for _ in range(n):
        bw, bh = rng.uniform(0.05, 0.2) * w, rng.uniform(0.05, 0.2) * h
        x, y = rng.uniform(0, w - bw), rng.uniform(0, h - bh)
        out.append(box_from_pixels(rng.randrange(5), (x, y, x + bw, y + bh), w, h))
    return out


def show_times(app: QApplication, folder: Path, images: int, boxes: int, warm: bool) -> list[float]:
    rng = random.Random(1)
    paths = []
    for i in range(images):
        p = folder / f"p{i}.jpg"
        if not p.exists():
            _photo(p, i)
        (folder / f"p{i}.txt").write_text("".join(b.text() + "\n" for b in _rows(rng, boxes, 4000, 3000)))
        paths.append(str(p))
    editor = BoxEditor()
    editor.resize(1280, 720)
    editor.show()
    state = {"i": 0}

    def advance() -> None:
        state["i"] += 1
        i = state["i"]
        editor.show_image(paths[i], EditSession(folder / f"p{i}.txt", 4000, 3000), ["a", "b", "c", "d", "e"])
        if warm and i + 1 < len(paths):
            editor.prefetch([paths[i + 1]])

    editor.next_requested.connect(advance)
    editor.show_image(paths[0], EditSession(folder / "p0.txt", 4000, 3000))
    if warm:
        editor.prefetch([paths[1]])
    times = []
    for _ in range(images - 1):
        editor.cache.wait()
        _pump(app, lambda: editor.has_picture() and (not warm or editor.cache.get(paths[min(state["i"] + 1, images - 1)])
                                                     is not None), 60)
        app.processEvents()
        t0 = time.perf_counter()
        QTest.keyClick(editor, Qt.Key.Key_D)
        _pump(app, editor.has_picture)
        editor.viewport().repaint()  # painted: the picture and every box
        times.append((time.perf_counter() - t0) * 1000)
    editor.close()
    editor.deleteLater()
    return times


class Counter:
    """Sends key presses and drags to the editor and counts them."""

    def __init__(self, editor: BoxEditor) -> None:
        self.editor, self.n = editor, 0

    def key(self, key: Qt.Key, mods: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
        QTest.keyClick(self.editor, key, mods)
        self.n += 1

    def drag(self, rect: tuple[float, float, float, float]) -> None:
        if self.editor._grab(QPointF(rect[0], rect[1]))[0] != "draw":
            self.key(Qt.Key.Key_W)  # the corner falls on a box: draw over it (W), as a person would
        v = self.editor.viewport()
        a, b = self.editor.mapFromScene(rect[0], rect[1]), self.editor.mapFromScene(rect[2], rect[3])
        QTest.mousePress(v, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, a)
        QTest.mouseMove(v, QPoint((a.x() + b.x()) // 2, (a.y() + b.y()) // 2))
        QTest.mouseMove(v, b)
        QTest.mouseRelease(v, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, b)
        self.n += 1

    def draw_class(self, cls: int) -> None:
        if self.editor.draw_class != cls:
            self.key(Qt.Key(Qt.Key.Key_1 + cls))


def _iou(a, b) -> float:
    iw = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    ih = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - iw * ih
    return iw * ih / u if u else 0.0


def label_actions(app: QApplication, folder: Path, n_images: int, proposals: bool) -> int:
    rng = random.Random(7)
    w, h = 640, 480
    Image.new("RGB", (w, h), "white").save(folder / "l.png")
    editor = BoxEditor()
    editor.resize(1280, 720)
    editor.show()
    c = Counter(editor)
    for i in range(n_images):
        truth = _rows(rng, 10, w, h)
        label = folder / f"{'p' if proposals else 'n'}{i}.txt"
        offered = []
        missed = set()
        if proposals:
            missed = {rng.randrange(10)}
            for j, t in enumerate(truth):
                if j in missed:
                    continue
                x1, y1, x2, y2 = t.pixels(w, h)
                dx, dy = rng.uniform(-.02, .02) * (x2 - x1), rng.uniform(-.02, .02) * (y2 - y1)  # IoU > 0.9
                moved = box_from_pixels(t.cls, (x1 + dx, y1 + dy, x2 + dx, y2 + dy), w, h)
                offered.append(replace(moved, origin="model", conf=rng.uniform(0.3, 0.9)))
            false = _rows(rng, 1, w, h)[0]
            offered.append(replace(false, origin="model", conf=0.3))
        editor.show_image(str(folder / "l.png"), EditSession(label, w, h, offered), list("abcde"))
        app.processEvents()
        if proposals:
            c.key(Qt.Key.Key_Tab, Qt.KeyboardModifier.ShiftModifier)  # the false box is the last: select it
            c.key(Qt.Key.Key_Delete)
            for j in sorted(missed):
                c.drag(truth[j].pixels(w, h))
                c.draw_class(truth[j].cls)  # the new box is selected: its class by digit
        else:
            for t in sorted(truth, key=lambda t: t.cls):  # a person draws one class after another
                c.drag(t.pixels(w, h))
                c.draw_class(t.cls)  # the new box is selected: its class by digit (when not the last one's)
        done = []
        editor.accepted.connect(lambda: done.append(1))
        c.key(Qt.Key.Key_Return)  # accept: proposals confirmed, the file written
        _pump(app, lambda: bool(done))
        editor.accepted.disconnect()
        written = EditSession(label, w, h).boxes
        assert len(written) == len(truth), (len(written), len(truth))
        for t in truth:
            assert any(b.cls == t.cls and _iou(b.pixels(w, h), t.pixels(w, h)) >= 0.9 for b in written), (t, written)
    editor.close()
    editor.deleteLater()
    return c.n


def queue_stall(app: QApplication, folder: Path, n: int) -> tuple[float, float]:
    """Longest GUI-thread stall (ms, a 2 ms heartbeat's longest gap) while ``n`` queue rows load, and the load's
    time (ms); the rows are read from a JSON-lines file of proposals on the pool, then listed."""
    from gui.labelling.review_list import ReviewList

    queue = folder / f"queue{n}.jsonl"
    if not queue.exists():
        rng = random.Random(3)
        with queue.open("w") as f:
            for i in range(n):
                f.write(json.dumps({"image": f"/data/new/img{i:05d}.jpg",
                                    "conf": [round(rng.random(), 3) for _ in range(rng.randrange(1, 8))]}) + "\n")

    def read() -> list[ReviewRow]:
        rows = []
        with queue.open() as f:
            for line in f:
                item = json.loads(line)
                low = min(item["conf"])
                rows.append(ReviewRow(item["image"], 1 - low, f"least certain box {low:.2f}", len(item["conf"])))
        return rows

    view = ReviewList()
    view.resize(400, 700)
    view.show()
    app.processEvents()
    gaps, last, done = [0.0], [time.perf_counter()], []
    beat = QTimer()
    beat.timeout.connect(lambda: (gaps.append(time.perf_counter() - last[0]), last.__setitem__(0, time.perf_counter())))
    beat.start(2)
    view.loaded.connect(done.append)
    t0 = time.perf_counter()
    last[0] = t0
    view.load(read)
    _pump(app, lambda: bool(done), 120)
    took = (time.perf_counter() - t0) * 1000
    beat.stop()
    assert done[0] == n and (not n or view.model_.rows[0].need >= view.model_.rows[-1].need)
    view.close()
    view.deleteLater()
    return max(gaps) * 1000, took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=8)
    parser.add_argument("--boxes", type=int, default=200)
    parser.add_argument("--label", type=int, default=20)
    parser.add_argument("--queue", type=int, default=10000)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication(sys.argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for warm in (True, False):
            t = sorted(show_times(app, folder, args.images, args.boxes, warm))
            p95 = t[min(len(t) - 1, round(0.95 * (len(t) - 1)))]
            print(f"(a) next image, 4000x3000 JPEG, {args.boxes} boxes, {'warm (prefetched)' if warm else 'cold'}: "
                  f"p50 {statistics.median(t):.1f} ms, p95 {p95:.1f} ms over {len(t)} presses")
        scratch = folder / "label"
        scratch.mkdir()
        blank = label_actions(app, scratch, args.label, proposals=False)
        proposed = label_actions(app, scratch, args.label, proposals=True)
        print(f"(b) {args.label} images x 10 boxes: from nothing {blank} actions ({blank / args.label:.1f}/image), "
              f"from proposals {proposed} ({proposed / args.label:.1f}/image): {blank / proposed:.1f}x fewer")
        runs = [queue_stall(app, folder, args.queue) for _ in range(3)]
        print(f"(c) a {args.queue}-image review queue loaded in {max(t for _s, t in runs):.0f} ms; longest "
              f"GUI-thread stall while it loads {max(s for s, _t in runs):.1f} ms (worst of 3 loads)")


if __name__ == "__main__":
    main()
