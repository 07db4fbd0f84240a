"""What a run pays once, predicted from the wizard's measurements: the first epoch's warm-up and the RAM cache fill.

Why: the wizard predicted a steady epoch and the runs it was compared with were a few epochs long, so a first
epoch seconds longer than the rest (issue 36: epoch 0 40 s against 8 s) made the prediction miss by 5×. The
parts measured here:

- **first steps** — the model's first training step (allocator, oneDNN primitives on a CPU, cuDNN autotuning on a
  GPU) is timed by the measure job (``Measurements.first_step_s``); its excess over a steady step is the first
  epoch's warm-up, scaled like the demand when the recommended model is not the measured one;
- **cache fill** — ``--cache ram``/``disk`` decode every training image once before the first epoch (yolov5's
  ``LoadImagesAndLabels`` with ``NUM_THREADS`` threads): the per-image decode time is the measured loader's serial
  time without the cache less with it.

yolov5's TensorBoard graph, which it used to draw inside batch 0, is drawn before the first epoch's clock by the
training job (``core.worker.warm_start``), so it is no part of epoch 0. The loader's workers start when its data
loader is built, during set-up, and have their first batches ready before the first step.
"""

from __future__ import annotations

from core.wizard import tables as T
from core.wizard.inputs import DatasetSummary, Hardware, Measurements


def warmup_s(m: Measurements, demand: float) -> float:
    """Seconds the first epoch takes beyond a steady one: the first step's excess at the measured batch, scaled
    by the measured demand over ``demand`` (the recommended model's); 0 when the first step was not timed."""
    if not m.first_step_s or not m.demand or not m.batch or demand <= 0:
        return 0.0
    excess = max(0.0, m.first_step_s - m.batch / m.demand)
    return excess * m.demand / demand


def cache_fill_s(hw: Hardware, ds: DatasetSummary, m: Measurements, data: str, cache: str) -> float:
    """Seconds yolov5 spends decoding the training images into its cache before the first epoch (0 without one)."""
    if not cache:
        return 0.0
    uncached = m.loader_prepared if "prepared" in data else m.loader
    if not uncached.get(0) or not m.loader_cached.get(0):
        return 0.0
    per_image = max(0.0, 1.0 / uncached[0] - 1.0 / m.loader_cached[0])
    threads = max(1, min(T.CACHE_THREADS_MAX, hw.usable_cores - 1))
    return ds.train_images * per_image / threads


def predicted(rate: float, epoch_s: float, warm_s: float, start_s: float, epochs: int,
              train_images: int) -> dict[str, float]:
    """The recommendation's predicted figures: the steady rate and epoch, the first epoch with its warm-up, the
    one-time start (cache fill), the whole run, and images/s over the whole run's epochs (warm-up included)."""
    total = start_s + warm_s + epoch_s * epochs
    return {"images_per_s": round(rate, 1), "epoch_s": round(epoch_s, 1), "warmup_s": round(warm_s, 1),
            "first_epoch_s": round(epoch_s + warm_s, 1), "start_s": round(start_s, 1), "total_s": round(total, 1),
            "run_images_per_s": round(epochs * train_images / total, 1) if total > 0 else 0.0}
