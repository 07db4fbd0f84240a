"""Proof that an exported model computes what the PyTorch model computes, on real images, and how fast.

The same letterboxed images go through PyTorch (FP32, the reference) and through the exported model's
runtime. Two figures decide: the largest absolute difference of the raw head output (boxes in pixels,
scores in probability), and the agreement of the detections after the same NMS — a reference box counts
as matched when the exported model has a box of the same class with IoU ≥ 0.9. Boxes whose score lies
within a narrow band around the confidence threshold are left out: they may legitimately flip.
Latency is the median of N timed runs after a warm-up, one image per run, on this machine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

MATCH_IOU = 0.9
CONF_THRES = 0.25
IOU_THRES = 0.45
BORDER_BAND = 0.08  # relative to the threshold: 0.02 at 0.25
#: (max abs diff of scores, max abs diff of boxes in pixels, agreement) a verified export must meet.
TOLERANCES = {"fp32": (1e-3, 0.1, 0.99), "tf32": (1e-2, 1.0, 0.98), "fp16": (2e-2, 2.0, 0.97),
              "int8": (0.15, 8.0, 0.80)}

Runner = Callable[[np.ndarray], np.ndarray]


@dataclass
class Prepared:
    path: Path
    original: np.ndarray  # BGR, as read
    tensor: np.ndarray  # (3, H, W) float32 RGB 0..1, letterboxed to the export size
    ratio: float
    pad: tuple[float, float]


def prepare_images(paths: list[Path], imgsz: int, stride: int = 32) -> list[Prepared]:
    """Read and letterbox images exactly to ``imgsz`` (``auto=False``: a static model's shape)."""
    import cv2

    out = []
    for path in paths:
        image = cv2.imread(str(path))
        if image is None:
            continue
        out.append(prepare_array(image, Path(path), imgsz, stride))
    return out


def prepare_array(image: np.ndarray, path: Path, imgsz: int, stride: int = 32) -> Prepared:
    """One BGR image (a file's, or a video's frame) letterboxed as ``prepare_images`` does."""
    from yolov5.utils.augmentations import letterbox

    boxed, ratio, pad = letterbox(image, imgsz, auto=False, stride=stride)
    chw = np.ascontiguousarray(boxed[:, :, ::-1].transpose(2, 0, 1), dtype=np.float32) / 255.0
    return Prepared(Path(path), image, chw, float(ratio[0]), (float(pad[0]), float(pad[1])))


def batches(images: list[Prepared], batch: int) -> list[np.ndarray]:
    """Stacks of ``batch`` images (the last one padded by repeating its final image, for static models)."""
    tensors = [p.tensor for p in images]
    out = []
    for i in range(0, len(tensors), batch):
        chunk = tensors[i:i + batch]
        chunk += [chunk[-1]] * (batch - len(chunk))
        out.append(np.stack(chunk))
    return out


def torch_runner(model: Any, device: str = "cpu", half: bool = False) -> Runner:
    import torch

    def run(x: np.ndarray) -> np.ndarray:
        t = torch.from_numpy(x).to(device)
        t = t.half() if half else t
        with torch.inference_mode():
            y = model(t)
        y = y[0] if isinstance(y, (list, tuple)) else y
        return y.float().cpu().numpy()

    return run


def nms(pred: np.ndarray, conf: float, iou: float = IOU_THRES) -> list[np.ndarray]:
    """yolov5's own NMS; per image an (n, 6) array x1, y1, x2, y2, conf, cls in input pixels."""
    import torch
    from yolov5.utils.general import non_max_suppression

    return [d.numpy() for d in non_max_suppression(torch.from_numpy(np.ascontiguousarray(pred)), conf, iou,
                                                     max_det=300)]


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if not len(a) or not len(b):
        return np.zeros((len(a), len(b)))
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:4], b[None, :, 2:4])
    inter = np.clip(rb - lt, 0, None).prod(2)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-9)


def match_detections(ref: np.ndarray, cand: np.ndarray, conf: float) -> tuple[int, int, int]:
    """(matched, reference boxes, candidate boxes), greedy by reference score, same class, IoU ≥ 0.9.

    Boxes scored within the band around ``conf`` are not counted on either side.
    """
    band = BORDER_BAND * conf
    ref = ref[ref[:, 4] >= conf + band] if len(ref) else ref
    cand_all = cand
    cand = cand[cand[:, 4] >= conf + band] if len(cand) else cand
    if not len(ref):
        return 0, 0, len(cand)
    iou = box_iou(ref, cand_all)
    used: set[int] = set()
    matched = 0
    for i in np.argsort(-ref[:, 4]):
        for j in np.argsort(-iou[i]) if iou.shape[1] else []:
            if iou[i, j] < MATCH_IOU:
                break
            if j not in used and int(cand_all[j, 5]) == int(ref[i, 5]):
                used.add(int(j))
                matched += 1
                break
    return matched, len(ref), len(cand)


def agreement_threshold(ref_preds: list[np.ndarray]) -> float:
    """0.25 (yolov5's default), or for a barely trained model half its best score, so boxes get compared."""
    best = max((float((p[..., 4:5] * p[..., 5:]).max()) for p in ref_preds if p.size), default=0.0)
    return CONF_THRES if best >= CONF_THRES * 1.5 else max(best / 2, 1e-4)


def compare(ref_preds: list[np.ndarray], cand_preds: list[np.ndarray], precision: str = "fp32") -> dict[str, Any]:
    """Raw differences and NMS agreement of two lists of (B, N, 5+nc) outputs; ``ok`` against tolerances."""
    if len(ref_preds) != len(cand_preds) or any(r.shape != c.shape for r, c in zip(ref_preds, cand_preds)):
        shapes = {"reference": [list(r.shape) for r in ref_preds], "exported": [list(c.shape) for c in cand_preds]}
        return {"ok": False, "max_abs_diff": None, "nms_agreement": None, "reason": "shape mismatch", **shapes}
    ref = np.concatenate([r.reshape(-1, r.shape[-1]) for r in ref_preds])
    cand = np.concatenate([c.reshape(-1, c.shape[-1]) for c in cand_preds])
    finite = bool(np.isfinite(cand).all())
    diff = np.abs(ref - cand)
    box_diff = float(diff[:, :4].max()) if diff.size else 0.0
    score_diff = float(diff[:, 4:].max()) if diff.size else 0.0
    conf = agreement_threshold(ref_preds)
    matched = total_ref = total_cand = 0
    for r, c in zip(ref_preds, cand_preds):
        for dr, dc in zip(nms(r, conf), nms(c, conf)):
            m, nr, nc = match_detections(dr, dc, conf)
            matched, total_ref, total_cand = matched + m, total_ref + nr, total_cand + nc
    denominator = max(total_ref, total_cand)
    agreement = matched / denominator if denominator else 1.0
    score_tol, box_tol, agree_tol = TOLERANCES.get(precision, TOLERANCES["fp32"])
    ok = finite and score_diff <= score_tol and box_diff <= box_tol and agreement >= agree_tol
    return {
        "ok": ok,
        "max_abs_diff": float(diff.max()) if diff.size else 0.0,
        "max_abs_diff_boxes_px": box_diff,
        "max_abs_diff_scores": score_diff,
        "mean_abs_diff": float(diff.mean()) if diff.size else 0.0,
        "nms_agreement": agreement,
        "nms_conf": conf,
        "detections": {"reference": total_ref, "exported": total_cand, "matched": matched},
        "finite": finite,
        "tolerance": {"precision": precision, "scores": score_tol, "boxes_px": box_tol, "agreement": agree_tol},
    }


WARMUP_RUNS = 5  # TorchScript's profiling executor re-optimises over its first runs; TensorRT allocates on its first


def paired_latency_ms(first: Runner, second: Runner, x: np.ndarray, runs: int = 20, warmup: int = WARMUP_RUNS,
                      sync: Callable[[], None] | None = None,
                      clock: Callable[[], float] = time.perf_counter) -> tuple[dict[str, float], dict[str, float]]:
    """Two runners timed side by side: their calls interleaved (the order alternating each round), so a load
    that comes and goes lands on both alike — issue 32: PyTorch timed once, under load, and the figure reused in
    every format's report. Each: ``{p50, p10, p90}`` in ms over ``runs`` timed calls after ``warmup`` each."""
    for _ in range(warmup):
        first(x)
        second(x)
    times: tuple[list[float], list[float]] = ([], [])
    for i in range(max(1, runs)):
        order = ((0, first), (1, second)) if i % 2 == 0 else ((1, second), (0, first))
        for slot, run in order:
            t0 = clock()
            run(x)
            if sync is not None:
                sync()
            times[slot].append((clock() - t0) * 1000.0)
    return latency_spread(times[0]), latency_spread(times[1])


def latency_spread(times_ms: list[float]) -> dict[str, float]:
    """Median and the 10th–90th percentile range of timed calls (ms)."""
    p10, p50, p90 = (float(v) for v in np.percentile(times_ms, [10, 50, 90]))
    return {"p50": p50, "p10": p10, "p90": p90}


def latency_report(torch_ms: dict[str, float], exported_ms: dict[str, float], *, runs: int,
                   batch: int) -> dict[str, Any]:
    """The report's ``latency_ms``: per image (a batch's time / its size), medians as ``torch``/``exported`` (the
    CLI's --json shape) and each one's 10–90 % range, measured interleaved."""
    per = max(1, batch)
    return {"torch": torch_ms["p50"] / per, "exported": exported_ms["p50"] / per,
            "torch_range": [torch_ms["p10"] / per, torch_ms["p90"] / per],
            "exported_range": [exported_ms["p10"] / per, exported_ms["p90"] / per],
            "interleaved": True, "runs": runs, "warmup": WARMUP_RUNS, "batch": batch}
