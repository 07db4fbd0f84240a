"""The demo dataset's pictures: synthetic shapes drawn with numpy and Pillow, and their YOLO labels.

Split from ``core.demo.dataset`` (which owns the folder, the manifest and ``data.yaml``) so that only a
real generation imports numpy and Pillow. Deterministic: every image comes from its own seeded
generator, so the same ``DemoSpec`` gives the same bytes on every machine.
"""

from __future__ import annotations

import colorsys
import math
from pathlib import Path
from typing import Callable

import numpy as np
from PIL import Image, ImageDraw

from core.demo.spec import DEMO_CLASSES, SPLITS, DemoSpec

_SIZE_RANGE = (0.2, 0.5)  # object extent / image side: big enough for yolov5n at imgsz 128
_MAX_OVERLAP = 0.25  # intersection / smaller box area allowed between two objects
_MAX_OBJECTS = 4  # per image; more objects mean more positives per (costly) training step
_BACKGROUND_EVERY = 16  # every 16th image has no objects
_SUPERSAMPLE = 2  # shapes are rasterised at 2x and box-filtered down for anti-aliased edges
_JPEG_QUALITY = 90


def write_images(
    out: Path,
    spec: DemoSpec,
    progress: Callable[[int, int], None] | None,
    cancelled: Callable[[], bool] | None,
    cancel_error: type[Exception],
) -> None:
    """Draw every image of ``spec`` into ``out/images/<split>`` with its labels; raise ``cancel_error``
    when ``cancelled()`` turns true."""
    total = spec.n_train + spec.n_val
    step = max(1, total // 100)
    done = 0
    for split_id, (split, n) in enumerate(zip(SPLITS, (spec.n_train, spec.n_val))):
        (out / "images" / split).mkdir(parents=True)
        (out / "labels" / split).mkdir(parents=True)
        for i in range(n):
            if cancelled is not None and cancelled():
                raise cancel_error()
            rng = np.random.default_rng([spec.seed, split_id, i])
            # The first object's class cycles, so every class appears in any split with >= 3 images.
            first = None if i % _BACKGROUND_EVERY == _BACKGROUND_EVERY - 1 else i % len(DEMO_CLASSES)
            pixels, labels = _render(rng, spec.image_size, first, spec.object_size, spec.max_objects)
            stem = f"{split}_{i:05d}"
            Image.fromarray(pixels).save(out / "images" / split / f"{stem}.jpg", quality=_JPEG_QUALITY)
            lines = "".join(f"{c} {x:.6f} {y:.6f} {w:.6f} {h:.6f}\n" for c, x, y, w, h in labels)
            (out / "labels" / split / f"{stem}.txt").write_text(lines, encoding="ascii", newline="\n")
            done += 1
            if progress is not None and (done % step == 0 or done == total):
                progress(done, total)


# ---------------------------------------------------------------- drawing


def _render(
    rng: np.random.Generator, size: int, first_cls: int | None,
    object_size: tuple[float, float] = _SIZE_RANGE, max_objects: int = _MAX_OBJECTS,
) -> tuple[np.ndarray, list[tuple[int, float, float, float, float]]]:
    """Draw one image; return its uint8 (H, W, 3) pixels and its labels as (cls, cx, cy, w, h), normalised.

    Drawing works channel-first in float32: numpy is fast on long inner loops, slow on a last axis of 3.
    """
    img = _background(rng, size)
    n = 0 if first_cls is None else int(rng.integers(1, max_objects + 1))
    boxes: list[tuple[float, float, float, float]] = []
    labels = []
    for k in range(n):
        cls = first_cls if k == 0 else int(rng.integers(len(DEMO_CLASSES)))
        for _attempt in range(20):
            poly = _polygon(cls, rng.uniform(*object_size) * size, rng)
            lo, hi = poly.min(axis=0), poly.max(axis=0)
            poly = poly + rng.uniform(-lo, size - hi)  # keep the whole shape inside the image
            (x0, y0), (x1, y1) = poly.min(axis=0).tolist(), poly.max(axis=0).tolist()
            box = (max(x0, 0.0), max(y0, 0.0), min(x1, size), min(y1, size))
            if all(_overlap(box, b) <= _MAX_OVERLAP for b in boxes):
                break
        else:
            continue  # no room left for this object
        _paint(img, poly, box, rng)
        boxes.append(box)
        x0, y0, x1, y1 = box
        labels.append((cls, (x0 + x1) / 2 / size, (y0 + y1) / 2 / size, (x1 - x0) / size, (y1 - y0) / size))
    noise = rng.random(img.shape, dtype=np.float32) - 0.5  # uniform: far cheaper than Gaussian, looks alike
    img += noise * np.float32(rng.uniform(7.0, 28.0))
    return np.clip(img, 0, 255).astype(np.uint8).transpose(1, 2, 0).copy(), labels


def _polygon(cls: int, extent: float, rng: np.random.Generator) -> np.ndarray:
    """Vertices (k, 2) of a shape centred on the origin; a circle is a 64-gon, so one code path fits all."""
    name = DEMO_CLASSES[cls]
    if name == "circle":
        t = np.linspace(0, 2 * math.pi, 64, endpoint=False)
        return np.stack([np.cos(t), np.sin(t)], axis=1) * extent / 2
    if name == "square":
        t = math.radians(rng.uniform(-15, 15)) + np.array([0.25, 0.75, 1.25, 1.75]) * math.pi
        return np.stack([np.cos(t), np.sin(t)], axis=1) * extent / math.sqrt(2)
    t = rng.uniform(0, 2 * math.pi / 3) + np.arange(3) * 2 * math.pi / 3  # equilateral triangle, any turn
    return np.stack([np.cos(t), np.sin(t)], axis=1) * extent / math.sqrt(3)


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    iw = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    ih = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return iw * ih / max(smaller, 1e-9)


def _paint(img: np.ndarray, poly: np.ndarray, box: tuple[float, ...], rng: np.random.Generator) -> None:
    """Composite a filled, softly shaded shape onto ``img`` (3, H, W), coloured to stand out from below."""
    size = img.shape[1]
    x0, y0, x1, y1 = int(box[0]), int(box[1]), min(size, math.ceil(box[2])), min(size, math.ceil(box[3]))
    region = img[:, y0:y1, x0:x1]
    under = region.mean(axis=(1, 2))
    best, best_gap = under, -1.0
    for _ in range(8):
        rgb = np.array(colorsys.hsv_to_rgb(rng.uniform(), rng.uniform(0.55, 1), rng.uniform(0.45, 1))) * 255
        gap = float(np.abs(rgb - under).sum())
        if gap > best_gap:
            best, best_gap = rgb, gap
        if gap >= 150:
            break
    # Rasterise only the shape's own box region, at 2x, and box-filter it down: anti-aliased edges, cheap.
    w, h = x1 - x0, y1 - y0
    mask = Image.new("L", (w * _SUPERSAMPLE, h * _SUPERSAMPLE), 0)
    ImageDraw.Draw(mask).polygon([tuple(p) for p in ((poly - (x0, y0)) * _SUPERSAMPLE).tolist()], fill=255)
    alpha = np.asarray(mask.resize((w, h), Image.Resampling.BOX), dtype=np.float32) / 255
    a = rng.uniform(0, 2 * math.pi)
    xs, ys = np.arange(w, dtype=np.float32)[None, :], np.arange(h, dtype=np.float32)[:, None]
    ramp = (xs * math.cos(a) + ys * math.sin(a)) * np.float32(rng.uniform(-40, 40) / size)
    fill = np.clip(best.astype(np.float32)[:, None, None] + ramp, 0, 255)
    img[:, y0:y1, x0:x1] = region * (1 - alpha) + fill * alpha


def _background(rng: np.random.Generator, size: int) -> np.ndarray:
    """A muted, textured float32 (3, size, size) background: a gradient plus stripes, blotches or noise."""
    t = (np.arange(size, dtype=np.float32) + 0.5) / size
    x, y = t[None, :], t[:, None]  # broadcast to (size, size) only where needed

    def per_channel(v: np.ndarray) -> np.ndarray:
        return np.asarray(v, dtype=np.float32)[:, None, None]

    base = rng.uniform(50, 210, 3)
    base = base.mean() + (base - base.mean()) * rng.uniform(0.2, 0.6)  # desaturate: shapes carry the colour
    a = rng.uniform(0, 2 * math.pi)
    ramp = (x - 0.5) * math.cos(a) + (y - 0.5) * math.sin(a)
    img = per_channel(base) + ramp * per_channel(rng.uniform(-60, 60, 3))
    style = int(rng.integers(3))
    if style == 0:  # stripes
        b = rng.uniform(0, math.pi)
        phase = 2 * math.pi * rng.uniform(2, 9) * (x * math.cos(b) + y * math.sin(b))
        wave = np.sin(phase + rng.uniform(0, 6.3))
        img += wave * per_channel(rng.uniform(6, 25) * rng.uniform(0.5, 1.0, 3))
    elif style == 1:  # soft blotches (separable Gaussians)
        for _ in range(int(rng.integers(3, 8))):
            cx, cy, r = rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.05, 0.3)
            blob = np.exp(-((y - cy) ** 2) / (2 * r * r)) * np.exp(-((x - cx) ** 2) / (2 * r * r))
            img += blob * per_channel(rng.uniform(-35, 35, 3))
    else:  # smooth noise
        cells = int(rng.integers(4, 12))
        low = rng.standard_normal((3, cells, cells), dtype=np.float32)
        for c in range(3):
            up = Image.fromarray(low[c]).resize((size, size), Image.Resampling.BICUBIC)
            img[c] += np.asarray(up) * np.float32(rng.uniform(8, 25))
    return img
