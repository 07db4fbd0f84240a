"""The wizard's reference figures, as data: model cost and memory, GPU speed classes, goals.

These are used only where a figure could not be measured on this machine, and every setting derived from
them is marked *estimated* in the Review table. Sources: yolov5 v7.0 README (parameters, GFLOPs at 640);
memory per image from AutoBatch fits reported in yolov5 issues for 640 px with AMP (roughly linear in the
image's pixels); GPU FP16 tensor throughput from the vendors' data sheets (dense, no sparsity).
"""

from __future__ import annotations

import re

MODELS = ("yolov5n", "yolov5s", "yolov5m", "yolov5l", "yolov5x")
#: Forward GFLOPs at 640 px (yolov5 v7.0 README).
GFLOPS_640 = {"yolov5n": 4.5, "yolov5s": 16.5, "yolov5m": 49.0, "yolov5l": 109.1, "yolov5x": 205.7}
#: Training memory per image at 640 px with AMP (GB), plus a fixed part (context, weights, optimizer, EMA).
MEM_PER_IMAGE_640_GB = {"yolov5n": 0.13, "yolov5s": 0.27, "yolov5m": 0.5, "yolov5l": 0.8, "yolov5x": 1.3}
MEM_FIXED_GB = 1.2
FP32_MEMORY_FACTOR = 1.6
#: Training ≈ 3 forward passes of work; the share of peak a yolov5 step reaches (measured figures on a T4
#: and an A100 put it at 10–15 %); a CPU core's effective training GFLOP/s (2-core figure: 70 img/s for
#: yolov5n at 128 px, see yolov5-package.md).
TRAIN_FLOP_FACTOR = 3.0
GPU_EFFICIENCY = 0.12
CPU_GFLOPS_PER_CORE = 20.0

#: Dense FP16 tensor TFLOP/s by GPU name (first match wins); a GPU not listed is judged by its memory.
GPU_TFLOPS: tuple[tuple[str, float], ...] = (
    (r"H200|H100", 750.0), (r"A100", 312.0), (r"L40S?", 180.0), (r"RTX\s*6000 Ada", 180.0), (r"4090", 165.0),
    (r"A6000|RTX\s*A6000", 150.0), (r"4080", 100.0), (r"A10\b|A10G", 125.0), (r"L4\b", 120.0),
    (r"V100", 125.0), (r"3090", 71.0), (r"4070", 60.0), (r"3080", 60.0), (r"T4\b", 65.0), (r"2080", 54.0),
    (r"3070", 40.0), (r"3060", 25.0), (r"GTX\s*16\d\d", 10.0), (r"GTX\s*10\d\d", 8.0))

#: Epochs per goal (from scratch, fine-tuning from pretrained weights).
EPOCHS = {"quick": (10, 10), "balanced": (100, 50), "accurate": (300, 150)}
#: Supply must exceed demand by this much for the GPU never to wait ([design] gpu-environment.md §4).
SUPPLY_HEADROOM = 1.2
#: Settings within this share of the best predicted rate count as equal (then the cheaper one wins).
SAME_RATE = 0.03
#: yolov5's defaults (``train.py``: batch 16, workers 8, no cache, the original images) are kept unless the
#: wizard's choice is predicted at least this much faster: a copy or a cache costs time and disk once, and one
#: short measurement on a busy machine is not finer than this (issue 36: a 4% predicted gain trained 12% slower).
DEFAULTS_MARGIN = 0.10
DEFAULT_WORKERS = 8  # yolov5 train.py --workers; create_dataloader caps it at min(cpu_count // ranks, batch)
#: yolov5's image-cache threads (utils/general.py NUM_THREADS: min(8, cpu_count - 1))
CACHE_THREADS_MAX = 8
#: yolov5's nominal batch: gradients are accumulated up to 64 images per optimizer step.
NOMINAL_BATCH = 64
SYNC_BN_MAX_PER_GPU = 8
WINDOWS_MAX_WORKERS = 4  # spawn start: each worker imports torch again; more rarely helps
MIN_OBJECT_PX = 8  # below this a box is hard for yolov5's stride-8 head
BATCH_MEMORY_MARGIN = 0.85  # share of free GPU memory the probe may fill (optimizer, EMA and others counted)


def model_name(model: str) -> str:
    """``yolov5s.yaml`` / ``yolov5s.pt`` / ``yolov5s`` -> ``yolov5s``; '' for anything else."""
    stem = re.sub(r"\.(ya?ml|pt)$", "", model.strip().rsplit("/", 1)[-1])
    return stem if stem in MODELS else ""


def gpu_tflops(name: str, memory_gb: float) -> float:
    for pattern, tflops in GPU_TFLOPS:
        if re.search(pattern, name, re.I):
            return tflops
    return 20.0 if memory_gb < 10 else 60.0 if memory_gb < 30 else 150.0


def train_gflop_per_image(model: str, imgsz: int) -> float:
    return GFLOPS_640.get(model_name(model) or "yolov5s", 16.5) * (imgsz / 640) ** 2 * TRAIN_FLOP_FACTOR


def estimated_demand(model: str, imgsz: int, gpu_name: str | None, gpu_memory_gb: float, cores: int) -> float:
    """Images/s one device's forward+backward+step consumes, from its class (no measurement)."""
    work = train_gflop_per_image(model, imgsz)
    if gpu_name is None:
        return cores * CPU_GFLOPS_PER_CORE / work
    return gpu_tflops(gpu_name, gpu_memory_gb) * 1000 * GPU_EFFICIENCY / work


def memory_per_image_gb(model: str, imgsz: int, amp: bool) -> float:
    per = MEM_PER_IMAGE_640_GB.get(model_name(model) or "yolov5s", 0.27) * (imgsz / 640) ** 2
    return per * (1.0 if amp else FP32_MEMORY_FACTOR)
