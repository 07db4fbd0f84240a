"""The wizard's measurements, each a function of its inputs that runs yolov5's own code on this machine.

- ``loader_supply``: yolov5's training dataset (``LoadImagesAndLabels``: same imgsz, hyp, mosaic and
  augmentation, cache mode, collate) behind its ``InfiniteDataLoader``, for each worker count: warm-up
  batches discarded (worker start, prefetch), then images/s over the timed batches.
- ``model_demand``: images/s that forward + loss + backward + optimizer step + EMA consume at a batch and
  imgsz on a device, with AMP where asked (the real work of a yolov5 step, on synthetic images).
- ``probe_batch``: the empirical batch probe (grow ×2, then bisect) over a ``try_batch`` that runs real training
  steps; pure search logic, so it is tested on the CPU with a stand-in.
- ``amp_matches``: the local AMP check (FP32 against autocast on the same model), no download.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any, Callable

Cancelled = Callable[[], bool]


class MeasureCancelled(Exception):
    pass


def build_dataset(list_file: Path, imgsz: int, batch: int, hyp: dict[str, Any], cache: str | None) -> Any:
    """yolov5's training dataset as ``create_dataloader`` builds it for ``train.py`` (augment, mosaic, no rect)."""
    from yolov5.utils.dataloaders import LoadImagesAndLabels

    return LoadImagesAndLabels(str(list_file), imgsz, batch, augment=True, hyp=hyp, rect=False,
                               cache_images=cache, single_cls=False, stride=32, pad=0.0, image_weights=False,
                               prefix="")


def loader_supply(dataset: Any, batch: int, workers: list[int], *, budget_s: float, min_batches: int = 3,
                  cancelled: Cancelled | None = None, on_result: Callable[[int, float], None] | None = None
                  ) -> dict[int, float]:
    """Images/s the data loader delivers at each worker count (``budget_s`` of timing per count)."""
    import torch
    from yolov5.utils.dataloaders import InfiniteDataLoader, LoadImagesAndLabels, seed_worker

    out: dict[int, float] = {}
    for w in workers:
        loader = InfiniteDataLoader(dataset, batch_size=batch, shuffle=True, num_workers=w, pin_memory=False,
                                    collate_fn=LoadImagesAndLabels.collate_fn, worker_init_fn=seed_worker,
                                    generator=torch.Generator().manual_seed(0))
        batches = loader.iterator  # the endless one (yolov5 repeats its sampler); iter() stops after an epoch
        try:
            for _ in range(w + 1):  # the first batch pays the worker start; each worker's first is prefetched
                next(batches)
                if cancelled and cancelled():
                    raise MeasureCancelled
            images, started = 0, time.perf_counter()
            timed = 0
            while timed < min_batches or time.perf_counter() - started < budget_s:
                imgs = next(batches)[0]
                images += imgs.shape[0]
                timed += 1
                if cancelled and cancelled():
                    raise MeasureCancelled
                if timed >= min_batches and time.perf_counter() - started >= budget_s:
                    break
            out[w] = images / (time.perf_counter() - started)
            if on_result:
                on_result(w, out[w])
        finally:
            del batches  # shuts its workers down
            del loader
    return out


def _synthetic_targets(batch: int, nc: int, torch: Any) -> Any:
    """Three boxes per image: ``[image, class, x, y, w, h]`` (normalised), as yolov5's collate gives them."""
    g = torch.Generator().manual_seed(0)
    rows = []
    for i in range(batch):
        for _ in range(3):
            xy = torch.rand(2, generator=g) * 0.6 + 0.2
            wh = torch.rand(2, generator=g) * 0.3 + 0.05
            rows.append(torch.cat([torch.tensor([float(i), float(i % max(nc, 1))]), xy, wh]))
    return torch.stack(rows)


class Trainer:
    """yolov5's training step (model from YAML, SGD as ``smart_optimizer`` builds it, ComputeLoss, EMA, AMP
    scaler) on synthetic batches: what ``model_demand`` times and ``probe_batch`` grows."""

    def __init__(self, model_yaml: str, nc: int, hyp: dict[str, Any], device: Any, amp: bool) -> None:
        import torch
        from yolov5.models.yolo import Model
        from yolov5.utils.loss import ComputeLoss
        from yolov5.utils.torch_utils import ModelEMA, smart_optimizer

        self.torch, self.device, self.amp, self.nc = torch, device, amp, nc
        self.model = Model(model_yaml, ch=3, nc=nc).to(device)
        self.model.nc, self.model.hyp = nc, hyp
        self.model.train()
        self.optimizer = smart_optimizer(self.model, "SGD", hyp["lr0"], hyp["momentum"], hyp["weight_decay"])
        self.ema = ModelEMA(self.model)
        self.loss = ComputeLoss(self.model)
        self.scaler = torch.cuda.amp.GradScaler(enabled=amp) if device.type == "cuda" else None
        self.first_step_s: float | None = None  # the first step's seconds: what a run's first batch pays once

    def step(self, batch: int, imgsz: int) -> None:
        torch = self.torch
        imgs = torch.rand(batch, 3, imgsz, imgsz, device=self.device)
        targets = _synthetic_targets(batch, self.nc, torch).to(self.device)
        with torch.autocast(self.device.type, enabled=self.amp and self.device.type == "cuda"):
            loss, _ = self.loss(self.model(imgs), targets)
        if self.scaler is not None:
            self.scaler.scale(loss).backward()
            self.scaler.step(self.optimizer)
            self.scaler.update()
        else:
            loss.backward()
            self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        self.ema.update(self.model)

    def sync(self) -> None:
        if self.device.type == "cuda":
            self.torch.cuda.synchronize(self.device)


def model_demand(trainer: Trainer, batch: int, imgsz: int, *, budget_s: float, min_steps: int = 2,
                 cancelled: Cancelled | None = None) -> float:
    """Images/s the training step consumes, after one warm-up step (cuDNN autotuning, allocator), whose time is
    kept as ``trainer.first_step_s`` when it is the trainer's first: the wizard predicts a run's warm-up from it.

    The rate is the batch over the *median* step (each step synchronised, as yolov5's progress bar does every
    step): on a shared machine another process's burst during a few of the steps must not decide the prediction
    (issue 36: a mean over a busy moment predicted 17 img/s, and the run trained at 29)."""
    first = trainer.first_step_s is None
    started = time.perf_counter()
    trainer.step(batch, imgsz)
    trainer.sync()
    if first:
        trainer.first_step_s = time.perf_counter() - started
    times: list[float] = []
    started = time.perf_counter()
    while len(times) < min_steps or time.perf_counter() - started < budget_s:
        t0 = time.perf_counter()
        trainer.step(batch, imgsz)
        trainer.sync()
        times.append(time.perf_counter() - t0)
        if cancelled and cancelled():
            raise MeasureCancelled
    return batch / statistics.median(times)


def probe_batch(try_batch: Callable[[int], float | None], free_gb: float, margin: float, *, start: int = 8,
                limit: int = 512) -> tuple[int | None, float | None]:
    """The largest batch whose real training steps peak within ``margin`` of ``free_gb``: double from ``start``
    until a batch fails or peaks over, then bisect. ``try_batch(b)`` returns the peak GB, or None when it ran
    out of memory. (None, None) when even batch 1 does not fit."""
    allowed = free_gb * margin

    def fits(b: int) -> float | None:
        peak = try_batch(b)
        return peak if peak is not None and peak <= allowed else None

    good: tuple[int, float] | None = None
    bad = None
    b = start
    while b <= limit:
        peak = fits(b)
        if peak is None:
            bad = b
            break
        good = (b, peak)
        b *= 2
    if good is None:
        low = 0
        bad = bad or start
    else:
        low = good[0]
        if bad is None:
            return good
    while bad - low > max(1, low // 8):  # to within an eighth: a finer batch changes nothing measurable
        mid = (low + bad) // 2
        peak = fits(mid) if mid >= 1 else None
        if peak is None:
            bad = mid
        else:
            low, good = mid, (mid, peak)
    return (good[0], good[1]) if good else (None, None)


def cuda_try_batch(trainer: Trainer, imgsz: int) -> Callable[[int], float | None]:
    """Two real training steps at batch ``b``; the peak reserved memory in GB, None on out-of-memory."""
    torch = trainer.torch

    def attempt(b: int) -> float | None:
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats(trainer.device)
        try:
            trainer.step(b, imgsz)
            trainer.step(b, imgsz)
            trainer.sync()
        except torch.cuda.OutOfMemoryError:
            trainer.optimizer.zero_grad(set_to_none=True)
            torch.cuda.empty_cache()
            return None
        return torch.cuda.max_memory_reserved(trainer.device) / 1024**3

    return attempt


def amp_matches(trainer: Trainer, imgsz: int) -> bool:
    """yolov5's check_amp idea without its download: the same model's outputs in FP32 and under autocast agree."""
    torch = trainer.torch
    model = trainer.model
    model.eval()
    try:
        im = torch.rand(1, 3, imgsz, imgsz, device=trainer.device)
        with torch.no_grad():
            a = model(im)[0].float()
            with torch.autocast(trainer.device.type, enabled=True):
                b = model(im)[0].float()
        scale = float(a.abs().max()) or 1.0
        return bool(torch.isfinite(b).all()) and float((a - b).abs().max()) / scale < 0.05
    finally:
        model.train()
