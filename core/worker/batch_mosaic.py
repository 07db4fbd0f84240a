"""One collated batch augmented as yolov5's ``__getitem__`` would have augmented each of its images (issue 36).

The loader's dataset is built with ``augment=False`` (``core/worker/compat_augment.py``), so each image arrives
letterboxed to the training size with its labels (normalised xywh) and yolov5's ``shapes`` (original size,
ratio, pad), from which the letterboxed content is found again. ``BatchAugmenter`` then draws, per image and in
``__getitem__``'s order, what yolov5 draws (mosaic or not, the mosaic centre and partners, the perspective,
mixup, the HSV gains, the flips) and applies them with the tensor operations of ``core/worker/batch_augment.py``.
A mosaic's partners are three images of the same batch (yolov5 draws them from the whole dataset: over an
epoch every image still meets random partners, since the batches are shuffled).
"""

from __future__ import annotations

import random
from typing import Any, Sequence

import numpy as np
import torch

from core.worker.batch_augment import (GRAY, augment_hsv, draw_perspective, perspective_matrix, transform_boxes,
                                       warp_batch)

UNSUPPORTED = {"copy_paste": "copy_paste needs each object's polygon, which a collated batch does not carry"}


def unsupported(hyp: dict[str, Any]) -> list[str]:
    """The hyperparameters set in ``hyp`` that the batched path cannot honour, each with its reason in words."""
    return [f"{name}={hyp[name]}: {why}" for name, why in UNSUPPORTED.items() if float(hyp.get(name, 0) or 0) > 0]


def content_box(shape: Any, size_hw: tuple[int, int]) -> tuple[int, int, int, int]:
    """(top, left, h, w) of the image inside its letterbox, from yolov5's ``shapes`` entry
    ``((h0, w0), ((h / h0, w / w0), (padw, padh)))``; the whole image when there is none."""
    if not shape:
        return 0, 0, size_hw[0], size_hw[1]
    (h0, w0), ((rh, rw), (padw, padh)) = shape
    h, w = round(rh * h0), round(rw * w0)
    return round(padh - 0.1), round(padw - 0.1), h, w  # letterbox's own top/left rounding


def mosaic_placement(xc: int, yc: int, s: int, hw: Sequence[tuple[int, int]]) -> list[tuple[tuple[int, ...], ...]]:
    """``load_mosaic``'s four (canvas box, tile box) pairs, xyxy each, for tiles of sizes ``hw``."""
    out = []
    for i, (h, w) in enumerate(hw):
        if i == 0:  # top left
            a = (max(xc - w, 0), max(yc - h, 0), xc, yc)
            b = (w - (a[2] - a[0]), h - (a[3] - a[1]), w, h)
        elif i == 1:  # top right
            a = (xc, max(yc - h, 0), min(xc + w, s * 2), yc)
            b = (0, h - (a[3] - a[1]), min(w, a[2] - a[0]), h)
        elif i == 2:  # bottom left
            a = (max(xc - w, 0), yc, xc, min(s * 2, yc + h))
            b = (w - (a[2] - a[0]), 0, w, min(a[3] - a[1], h))
        else:  # bottom right
            a = (xc, yc, min(xc + w, s * 2), min(s * 2, yc + h))
            b = (0, 0, min(w, a[2] - a[0]), min(a[3] - a[1], h))
        out.append((a, b))
    return out


def xywhn_to_xyxy(xywh: torch.Tensor, w: float, h: float) -> torch.Tensor:
    x, y, bw, bh = xywh.unbind(1)
    return torch.stack((w * (x - bw / 2), h * (y - bh / 2), w * (x + bw / 2), h * (y + bh / 2)), 1)


def xyxy_to_xywhn(xyxy: torch.Tensor, w: float, h: float, eps: float = 1e-3) -> torch.Tensor:
    """yolov5's ``xyxy2xywhn(clip=True, eps=1e-3)``."""
    b = xyxy.clone()
    b[:, [0, 2]] = b[:, [0, 2]].clamp(0, w - eps)
    b[:, [1, 3]] = b[:, [1, 3]].clamp(0, h - eps)
    return torch.stack(((b[:, 0] + b[:, 2]) / 2 / w, (b[:, 1] + b[:, 3]) / 2 / h,
                        (b[:, 2] - b[:, 0]) / w, (b[:, 3] - b[:, 1]) / h), 1)


class BatchAugmenter:
    """yolov5's training augmentation for whole batches; call it with the batch as the loader gave it."""

    def __init__(self, hyp: dict[str, Any], rect: bool = False, rnd: Any = random, nprnd: Any = np.random) -> None:
        refused = unsupported(hyp)
        if refused:
            raise ValueError("GPU augmentation cannot honour " + "; ".join(refused)
                             + ". Set it to 0 in the hyperparameter file, or train with --gpu-augment off.")
        self.hyp, self.rect, self.rnd, self.nprnd = hyp, rect, rnd, nprnd

    def __call__(self, imgs: torch.Tensor, targets: torch.Tensor, shapes: Sequence[Any]) -> tuple[torch.Tensor,
                                                                                                   torch.Tensor]:
        """(B, 3, H, W) images in 0..1 (any device), (n, 6) targets [image, class, xywhn] → the augmented pair."""
        B, _, H, W = imgs.shape
        hyp, rnd = self.hyp, self.rnd
        labels = [targets[targets[:, 0] == i, 1:].to(torch.float64) for i in range(B)]  # class, xywhn
        pixel = [torch.cat((lb[:, :1], xywhn_to_xyxy(lb[:, 1:], W, H)), 1) for lb in labels]
        boxes = [content_box(shapes[i] if shapes else None, (H, W)) for i in range(B)]
        use_mosaic = not self.rect and H == W
        mosaic_items, plain_items = [], []  # (index, image, matrix, draw, labels)
        flags = []
        canvases = torch.full((B, imgs.shape[1], 2 * H, 2 * W), GRAY, dtype=imgs.dtype, device=imgs.device) \
            if use_mosaic and hyp.get("mosaic", 0) > 0 else None  # written in place: no stacking copy
        for i in range(B):
            if use_mosaic and rnd.random() < hyp.get("mosaic", 0):
                canvas, lab = self._mosaic(imgs, pixel, boxes, i, H, canvases[len(mosaic_items)])
                draw = draw_perspective(hyp, rnd)
                out = (2 * H + 2 * (-H // 2), 2 * W + 2 * (-W // 2))  # random_perspective's border
                mosaic_items.append((i, canvas, perspective_matrix(draw, canvas.shape[1:], out), draw, lab))
                flags.append(rnd.random() < hyp.get("mixup", 0))
            else:
                draw = draw_perspective(hyp, rnd)
                plain_items.append((i, imgs[i], perspective_matrix(draw, (H, W), (H, W)), draw, pixel[i]))
                flags.append(False)
        gains = [(self.nprnd.uniform(-1, 1, 3) * [hyp.get("hsv_h", 0), hyp.get("hsv_s", 0), hyp.get("hsv_v", 0)]
                  + 1) for _ in range(B)]
        flips = [(rnd.random() < hyp.get("flipud", 0), rnd.random() < hyp.get("fliplr", 0)) for _ in range(B)]
        out_imgs = torch.empty((B, 3, H, W), dtype=imgs.dtype, device=imgs.device)
        out_labels: list[torch.Tensor] = [torch.zeros((0, 5), dtype=torch.float64)] * B
        persp = bool(hyp.get("perspective", 0))
        for items in (mosaic_items, plain_items):
            if not items:
                continue
            stack = canvases[:len(items)] if items is mosaic_items else torch.stack([it[1] for it in items])
            warped = warp_batch(stack, [it[2] for it in items], (H, W), persp)
            for k, (i, _, M, draw, lab) in enumerate(items):
                out_imgs[i] = warped[k]
                if len(lab):
                    keep, new = transform_boxes(lab[:, 1:], M, draw.scale, (H, W), persp)
                    out_labels[i] = torch.cat((lab[keep, :1], new), 1)
        for i, mix in enumerate(flags):  # yolov5's mixup: this mosaic blended with another one
            if mix:
                j = rnd.choice([k for k in range(B) if k != i] or [i])
                r = float(self.nprnd.beta(32.0, 32.0))
                out_imgs[i] = out_imgs[i] * r + out_imgs[j] * (1 - r)
                out_labels[i] = torch.cat((out_labels[i], out_labels[j]), 0)
        if any(g[0] != 1 or g[1] != 1 or g[2] != 1 for g in gains):
            out_imgs = augment_hsv(out_imgs, torch.as_tensor(np.stack(gains)))
        rows = []
        for i, (ud, lr) in enumerate(flips):
            lab = out_labels[i]
            xywh = xyxy_to_xywhn(lab[:, 1:], W, H) if len(lab) else lab[:, 1:]
            if ud:
                out_imgs[i] = out_imgs[i].flip(1)
                xywh[:, 1] = 1 - xywh[:, 1]
            if lr:
                out_imgs[i] = out_imgs[i].flip(2)
                xywh[:, 0] = 1 - xywh[:, 0]
            rows.append(torch.cat((torch.full((len(lab), 1), float(i), dtype=torch.float64), lab[:, :1], xywh), 1))
        return out_imgs, torch.cat(rows, 0).to(targets.dtype) if rows else targets[:0]

    def _mosaic(self, imgs: torch.Tensor, pixel: list[torch.Tensor], boxes: list[tuple[int, int, int, int]],
                index: int, s: int, canvas: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """``load_mosaic`` from the batch: the 2s x 2s canvas and its labels (class, pixel xyxy, clipped)."""
        rnd = self.rnd
        yc, xc = (int(rnd.uniform(-x, 2 * s + x)) for x in (-s // 2, -s // 2))
        order = [index] + rnd.choices(range(len(boxes)), k=3)
        rnd.shuffle(order)
        if canvas is None:
            canvas = torch.full((imgs.shape[1], 2 * s, 2 * s), GRAY, dtype=imgs.dtype, device=imgs.device)
        placement = mosaic_placement(xc, yc, s, [boxes[j][2:] for j in order])
        labels = []
        for j, (a, b) in zip(order, placement):
            top, left = boxes[j][:2]
            canvas[:, a[1]:a[3], a[0]:a[2]] = imgs[j][:, top + b[1]:top + b[3], left + b[0]:left + b[2]]
            lab = pixel[j].clone()
            lab[:, [1, 3]] += a[0] - b[0] - left
            lab[:, [2, 4]] += a[1] - b[1] - top
            labels.append(lab)
        lab = torch.cat(labels, 0)
        lab[:, 1:] = lab[:, 1:].clamp(0, 2 * s)
        return canvas, lab
