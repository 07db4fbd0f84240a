"""The wizard's per-setting rules: image size, model candidates, model demand, batch, worker limits and counts.

Pure functions of ``Hardware``, ``DatasetSummary``, ``Goal`` and ``Measurements``; ``core.wizard.recommend``
puts them together. Each returns its value with a ``Reason``: why, the evidence, the wizard step that chose
it, and whether it is estimated (the measurement it needs failed or was skipped).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from core.environment.tables import (PREFETCH_FACTOR, SHM_SAFETY, TRAIN_PROCESS_RAM_GB, worker_ram_gb,
                                     worker_start_method)
from core.i18n import tr
from core.wizard import tables as T
from core.wizard.inputs import DatasetSummary, Goal, Hardware, Measurements

@dataclass(frozen=True)
class Reason:
    value: Any
    why: str
    evidence: str
    step: str  # the wizard step that chose it: hardware, dataset, goal, measure
    estimated: bool = False


def _ceil32(value: float) -> int:
    return max(32, int(math.ceil(value / 32) * 32))


def choose_imgsz(ds: DatasetSummary, goal: Goal, hw: Hardware) -> Reason:
    if goal.imgsz:
        return Reason(goal.imgsz, tr("Fixed by you."), tr("--imgsz {n}", n=goal.imgsz), "goal")
    base = {"quick": 320 if not hw.gpus else 640, "balanced": 640, "accurate": 640}[goal.kind]
    why = tr("yolov5's models are trained at 640.")
    if goal.kind == "quick" and not hw.gpus:
        why = tr("A quick test on the CPU: 320 costs a quarter of 640.")
    if goal.kind == "accurate" and ds.long_side >= 1600 and hw.gpus and min(g.memory_gb for g in hw.gpus) >= 16:
        base, why = 1280, tr("Large images and the best-accuracy goal: 1280 keeps small details.")
    need = None
    if ds.small_box_area:  # the smallest tenth of the boxes must stay >= MIN_OBJECT_PX on their side
        need = _ceil32(T.MIN_OBJECT_PX / math.sqrt(ds.small_box_area))
        if need > base:
            base = min(need, 1280, _ceil32(ds.long_side))
            why = tr("Small objects: at a smaller size a tenth of your boxes would shrink below {px} px.",
                     px=T.MIN_OBJECT_PX)
    if ds.long_side < base:
        base, why = _ceil32(ds.long_side), tr("Your images are {side} px on the long side: a larger size only "
                                              "upscales them.", side=ds.long_side)
    evidence = tr("images {side} px (most common); {small}", side=ds.long_side,
                  small=tr("10% of boxes under {area:.2%} of the image", area=ds.small_box_area)
                  if ds.small_box_area else tr("box sizes unknown"))
    return Reason(base, why, evidence, "dataset")


def candidate_models(hw: Hardware, goal: Goal) -> list[str]:
    """The models the goal allows, largest first."""
    if not hw.gpus:
        return ["yolov5s", "yolov5n"] if goal.kind == "accurate" else ["yolov5n"]
    memory = min(g.memory_gb for g in hw.gpus)
    if goal.kind == "quick":
        return ["yolov5n"]
    if goal.kind == "balanced":
        return ["yolov5s", "yolov5n"]
    top = "yolov5x" if memory >= 40 else "yolov5l" if memory >= 20 else "yolov5m" if memory >= 10 else "yolov5s"
    return list(reversed(T.MODELS[:T.MODELS.index(top) + 1]))


def demand_for(model: str, imgsz: int, hw: Hardware, m: Measurements) -> tuple[float, bool]:
    """Images/s one device consumes for ``model`` at ``imgsz``: scaled from the measurement when there is one
    (same device, the models' compute ratio), else from the device's class. (figure, estimated)."""
    if m.demand and m.model and m.imgsz:
        ratio = T.train_gflop_per_image(m.model, m.imgsz) / T.train_gflop_per_image(model, imgsz)
        return m.demand * ratio, not (T.model_name(m.model) == model and m.imgsz == imgsz)
    gpu = hw.gpus[0] if hw.gpus else None
    return T.estimated_demand(model, imgsz, gpu.name if gpu else None, gpu.memory_gb if gpu else 0.0,
                              hw.usable_cores), True


def choose_batch(hw: Hardware, ds: DatasetSummary, model: str, imgsz: int, amp: bool, m: Measurements) -> Reason:
    ranks = max(1, len(hw.gpus))
    if not hw.gpus:
        ram = hw.ram_available_gb
        batch = 16 if ram is None or ram >= 4 else 8
        return Reason(min(batch, max(1, ds.train_images)), tr(
            "On the CPU the cores are the limit, not the batch: images/s barely change with it. 16 is yolov5's "
            "default (gradients add up to {nbs} images per step either way).", nbs=T.NOMINAL_BATCH),
            tr("{ram} GB RAM available", ram=f"{ram:.1f}" if ram is not None else "?"), "hardware")
    per_gpu, estimated = None, False
    evidence = []
    if m.batch_probe:
        per_gpu = m.batch_probe
        evidence.append(tr("probe: batch {b} trained within {pct:.0%} of free memory{peak}", b=m.batch_probe,
                           pct=T.BATCH_MEMORY_MARGIN, peak=tr(" (peak {gb:.1f} GB)", gb=m.batch_probe_gb)
                           if m.batch_probe_gb else ""))
    else:
        gpu = min(hw.gpus, key=lambda g: g.memory_gb - g.used_gb)
        free = (gpu.memory_gb - gpu.used_gb) * T.BATCH_MEMORY_MARGIN - T.MEM_FIXED_GB
        per_gpu = max(1, int(free / T.memory_per_image_gb(model, imgsz, amp)))
        estimated = True
        evidence.append(tr("estimate: {free:.1f} GB free on {name} at ~{per:.2f} GB per image", name=gpu.name,
                           free=gpu.memory_gb - gpu.used_gb, per=T.memory_per_image_gb(model, imgsz, amp)))
    if m.autobatch:
        evidence.append(tr("yolov5 AutoBatch would pick {b} (extrapolated from tiny batches at 80% of free "
                           "memory, without optimizer state, EMA or other processes)", b=m.autobatch))
    if ranks > 1:
        per_gpu = max(1, int(per_gpu * 0.9))  # rank 0 also validates and saves: keep it room
    per_gpu = min(per_gpu, 128)
    if per_gpu >= 16:
        per_gpu -= per_gpu % 8
    total = min(per_gpu * ranks, max(ranks, ds.train_images - ds.train_images % ranks))
    total -= total % ranks
    why = tr("The largest batch that trained with room to spare: the GPU stays busy and yolov5 accumulates to "
             "{nbs} images per step.", nbs=T.NOMINAL_BATCH)
    if ranks > 1:
        why = tr("{per} per GPU on {n} GPUs (the total is divisible by the GPU count; AutoBatch is off under DDP).",
                 per=total // ranks, n=ranks)
    return Reason(total, why, "; ".join(evidence), "measure", estimated)


def cpu_rate(supply: dict[int, float], w: int, demand: float, cores: int) -> float:
    """Images/s on a CPU-only machine, where loader workers and the model share the cores: ``L`` core-seconds
    of loading per image (the serial figure), ``cores/demand`` core-seconds of compute."""
    serial = supply.get(0) or (supply[min(supply)] / max(1, min(supply)))
    load = 1.0 / serial
    if w == 0:
        return 1.0 / (load + 1.0 / demand)
    return min(supply[w], demand, cores / (load + cores / demand))


def worker_cap(hw: Hardware, batch_per_rank: int, imgsz: int, cache_gb: float) -> tuple[int, list[str]]:
    ranks = max(1, len(hw.gpus))
    cap, why = max(0, hw.usable_cores // ranks), [tr("{c} usable cores / {r} rank(s)", c=hw.usable_cores, r=ranks)]
    if hw.os == "Windows" and cap > T.WINDOWS_MAX_WORKERS:
        cap = T.WINDOWS_MAX_WORKERS
        why.append(tr("Windows starts each worker as a new process (at most {n})", n=T.WINDOWS_MAX_WORKERS))
    if hw.os == "Linux" and hw.shm_free_gb is not None:
        per = PREFETCH_FACTOR * batch_per_rank * 3 * imgsz * imgsz * SHM_SAFETY / 1024**3
        fits = int(hw.shm_free_gb / (per * ranks)) if per else cap
        if fits < cap:
            cap = fits
            why.append(tr("/dev/shm {shm:.2f} GB holds {n} workers' batches", shm=hw.shm_free_gb, n=fits))
    if hw.ram_available_gb is not None:
        method = worker_start_method(hw.os, hw.python_version)
        per = 2 * worker_ram_gb(method, batch_per_rank, imgsz) * ranks  # training + validation workers
        left = hw.ram_available_gb - TRAIN_PROCESS_RAM_GB * ranks - cache_gb
        fits = max(0, int(left / per)) if per else cap
        if fits < cap:
            cap = fits
            why.append(tr("{ram:.1f} GB RAM free holds {n} workers", ram=hw.ram_available_gb, n=fits))
    return cap, why


def best_workers(supply: dict[int, float], cap: int, demand: float, hw: Hardware) -> tuple[int, float]:
    """(workers, predicted images/s per rank) for one data path; the smallest count within SAME_RATE of the best
    (CPU), or the smallest whose supply has SUPPLY_HEADROOM over demand (GPU)."""
    counts = sorted(w for w in supply if w <= cap) or sorted(supply)[:1]
    if not hw.gpus:
        rates = {w: cpu_rate(supply, w, demand, hw.usable_cores) for w in counts}
        best = max(rates.values())
        w = next(w for w in counts if rates[w] >= best * (1 - T.SAME_RATE))
        return w, rates[w]
    enough = [w for w in counts if supply[w] >= demand * T.SUPPLY_HEADROOM]
    w = enough[0] if enough else max(counts, key=lambda k: supply[k])
    return w, min(supply[w], demand)


def worker_counts(usable_cores: int, gpus: int) -> list[int]:
    """0, then 1, 2, 4, 6, 8, 12, 16, … up to the usable cores per GPU."""
    top = max(1, usable_cores // max(1, gpus))
    counts = [0] + [w for w in (1, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64) if w <= top]
    if counts[-1] != top and top <= 64:
        counts.append(top)
    return counts
