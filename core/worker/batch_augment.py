"""yolov5's training augmentation as batched tensor operations on the training device (issue 36).

yolov5 7.0.14 augments one image at a time in the loader's workers (``LoadImagesAndLabels.__getitem__``):
mosaic decodes four images for every image it makes, then ``random_perspective``, ``augment_hsv`` and the
flips run on the CPU. Measured at 640 (issue 36): augmentation alone costs 4.2 ms of a core per image, more
than decoding a prepared copy (2.8 ms). Here the workers only decode and letterbox (the dataset is built with
``augment=False``), and this module does the same augmentation after collation, on the whole batch, where
the batch already is (the GPU, or the CPU on a CPU-only machine):

- mosaic from the batch's own images (each image's letterboxed content placed as ``load_mosaic`` places it);
- ``random_perspective``'s matrix, drawn with the same ``random.uniform`` calls in the same order
  (``draw_perspective``), applied to the whole batch by one ``grid_sample`` (bilinear, border gray 114 like
  ``cv2.warpAffine``), the boxes transformed by the same corner arithmetic and filtered by ``box_candidates``;
- ``augment_hsv``'s gains (hue modulo 180 in OpenCV's units, saturation and value clipped), per image;
- ``flipud``/``fliplr`` per image; ``mixup`` blends a mosaic with another of the batch (beta(32, 32), as yolov5);
  ``copy_paste`` needs polygon segments the batch does not carry: refused in words (``unsupported``).

Pure torch, not kornia: every transform must give yolov5's own boxes exactly (tests/worker/test_batch_augment.py
compares with yolov5's functions), which needs yolov5's matrix order ``T @ S @ R @ P @ C`` and its draws, not a
library's own parameterisation; and torch is already the training stack (no new dependency).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import torch
import torch.nn.functional as F

GRAY = 114 / 255  # yolov5's border and letterbox colour, on images scaled to 0..1


@dataclass(frozen=True)
class PerspectiveDraw:
    """The eight random values of one ``random_perspective`` call (yolov5's names in comments)."""

    perspective_x: float  # P[2, 0]
    perspective_y: float  # P[2, 1]
    angle: float  # a, degrees
    scale: float  # s
    shear_x: float  # degrees
    shear_y: float
    translate_x: float  # fraction of the output width (0.5 ± translate)
    translate_y: float


def draw_perspective(hyp: dict[str, Any], rnd: Any = random) -> PerspectiveDraw:
    """The draws of ``random_perspective`` in yolov5's order, so a seeded ``random`` gives yolov5's values."""
    p, d, sc, sh, t = (float(hyp.get(k, 0.0)) for k in ("perspective", "degrees", "scale", "shear", "translate"))
    px, py = rnd.uniform(-p, p), rnd.uniform(-p, p)
    a = rnd.uniform(-d, d)
    s = rnd.uniform(1 - sc, 1 + sc)
    shx, shy = rnd.uniform(-sh, sh), rnd.uniform(-sh, sh)
    tx, ty = rnd.uniform(0.5 - t, 0.5 + t), rnd.uniform(0.5 - t, 0.5 + t)
    return PerspectiveDraw(px, py, a, s, shx, shy, tx, ty)


def perspective_matrix(draw: PerspectiveDraw, in_hw: tuple[int, int], out_hw: tuple[int, int]) -> np.ndarray:
    """yolov5's ``M = T @ S @ R @ P @ C`` for an input of ``in_hw`` warped into ``out_hw`` (float64 3x3)."""
    C = np.eye(3)
    C[0, 2], C[1, 2] = -in_hw[1] / 2, -in_hw[0] / 2
    P = np.eye(3)
    P[2, 0], P[2, 1] = draw.perspective_x, draw.perspective_y
    R = np.eye(3)  # cv2.getRotationMatrix2D(angle=a, center=(0, 0), scale=s)
    alpha, beta = draw.scale * math.cos(math.radians(draw.angle)), draw.scale * math.sin(math.radians(draw.angle))
    R[0, :2], R[1, :2] = (alpha, beta), (-beta, alpha)
    S = np.eye(3)
    S[0, 1] = math.tan(draw.shear_x * math.pi / 180)
    S[1, 0] = math.tan(draw.shear_y * math.pi / 180)
    T = np.eye(3)
    T[0, 2], T[1, 2] = draw.translate_x * out_hw[1], draw.translate_y * out_hw[0]
    return T @ S @ R @ P @ C


def box_candidates(box1: torch.Tensor, box2: torch.Tensor, wh_thr: float = 2, ar_thr: float = 100,
                   area_thr: float = 0.1, eps: float = 1e-16) -> torch.Tensor:
    """yolov5's ``box_candidates`` on (n, 4) xyxy tensors: boxes still big enough after the transform."""
    w1, h1 = box1[:, 2] - box1[:, 0], box1[:, 3] - box1[:, 1]
    w2, h2 = box2[:, 2] - box2[:, 0], box2[:, 3] - box2[:, 1]
    ar = torch.maximum(w2 / (h2 + eps), h2 / (w2 + eps))
    return (w2 > wh_thr) & (h2 > wh_thr) & (w2 * h2 / (w1 * h1 + eps) > area_thr) & (ar < ar_thr)


def transform_boxes(boxes: torch.Tensor, M: np.ndarray, scale: float, out_hw: tuple[int, int],
                    perspective: bool) -> tuple[torch.Tensor, torch.Tensor]:
    """``random_perspective``'s box arithmetic: (n, 4) pixel xyxy → (kept mask, new boxes of the kept)."""
    n = len(boxes)
    Mt = torch.as_tensor(M, dtype=torch.float64, device=boxes.device)
    b = boxes.to(torch.float64)
    xy = torch.ones((n * 4, 3), dtype=torch.float64, device=boxes.device)
    xy[:, :2] = b[:, [0, 1, 2, 3, 0, 3, 2, 1]].reshape(n * 4, 2)
    xy = xy @ Mt.T
    xy = (xy[:, :2] / xy[:, 2:3] if perspective else xy[:, :2]).reshape(n, 8)
    x, y = xy[:, [0, 2, 4, 6]], xy[:, [1, 3, 5, 7]]
    new = torch.stack((x.min(1).values, y.min(1).values, x.max(1).values, y.max(1).values), 1)
    new[:, [0, 2]] = new[:, [0, 2]].clamp(0, out_hw[1])
    new[:, [1, 3]] = new[:, [1, 3]].clamp(0, out_hw[0])
    keep = box_candidates(b * scale, new)
    return keep, new[keep]


def warp_batch(images: torch.Tensor, matrices: Sequence[np.ndarray], out_hw: tuple[int, int],
               perspective: bool) -> torch.Tensor:
    """Every image of (B, C, H, W) warped by its own matrix into ``out_hw`` in one ``grid_sample``
    (bilinear, pixel centres as OpenCV's, outside the image gray 114 like ``cv2.warpAffine``'s border)."""
    B, _, H, W = images.shape
    dev = images.device
    inv = torch.as_tensor(np.stack([np.linalg.inv(m) for m in matrices]), dtype=torch.float32, device=dev)
    xs = torch.arange(out_hw[1], device=dev, dtype=torch.float32)[None, None, :]  # output pixel centres
    ys = torch.arange(out_hw[0], device=dev, dtype=torch.float32)[None, :, None]
    row = [inv[:, k, 0, None, None] * xs + inv[:, k, 1, None, None] * ys + inv[:, k, 2, None, None] for k in (0, 1)]
    if perspective:
        z = inv[:, 2, 0, None, None] * xs + inv[:, 2, 1, None, None] * ys + inv[:, 2, 2, None, None]
        row = [r / z for r in row]
    grid = torch.stack((row[0] * (2 / max(W - 1, 1)) - 1, row[1] * (2 / max(H - 1, 1)) - 1), -1)  # (B, H', W', 2)
    out = F.grid_sample(images.float() - GRAY, grid, mode="bilinear", padding_mode="zeros", align_corners=True)
    return (out + GRAY).to(images.dtype)


def rgb_to_hsv(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(B, 3, H, W) RGB in 0..1 → hue in OpenCV's 0..180, saturation and value in 0..1."""
    r, g, b = x[:, 0], x[:, 1], x[:, 2]
    v, _ = x.max(1)
    c = v - x.min(1).values
    s = torch.where(v > 0, c / v.clamp_min(1e-12), torch.zeros_like(v))
    cz = c.clamp_min(1e-12)
    h = torch.where(v == r, (g - b) / cz, torch.where(v == g, 2 + (b - r) / cz, 4 + (r - g) / cz))
    h = torch.where(c > 0, (h * 30) % 180, torch.zeros_like(h))
    return h, s, v


def hsv_to_rgb(h: torch.Tensor, s: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """The inverse of ``rgb_to_hsv`` (hue in 0..180)."""
    h6 = (h / 30) % 6
    k = torch.stack([(n + h6) % 6 for n in (5.0, 3.0, 1.0)], 1)  # R, G, B
    f = (torch.minimum(k, 4 - k)).clamp(0, 1)
    return v.unsqueeze(1) - (v * s).unsqueeze(1) * f


def augment_hsv(images: torch.Tensor, gains: torch.Tensor) -> torch.Tensor:
    """``augment_hsv`` per image: ``gains`` (B, 3) are yolov5's ``r`` (hue, saturation, value multipliers)."""
    h, s, v = rgb_to_hsv(images.float())
    g = gains.to(images.device, torch.float32)
    h = (h * g[:, 0, None, None]) % 180
    s = (s * g[:, 1, None, None]).clamp(0, 1)
    v = (v * g[:, 2, None, None]).clamp(0, 1)
    return hsv_to_rgb(h, s, v).to(images.dtype)
