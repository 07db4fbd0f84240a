"""The wizard's recommendation: a pure function of facts + measurements, each setting with why and evidence.

``recommend(hw, ds, goal, m)`` chooses image size (goal, object sizes), then for each model the goal allows
(largest first) the batch (the CUDA probe, else memory), the data path — the originals, ``--cache ram``, a
prepared copy (``core.dataset.prepare``) or both — with its data-loader workers (measured supply against
measured demand), and predicts images/s, epoch and total time; the first model that fits the time budget
wins. Every setting names the wizard step that chose it (``Reason.step``: the bottleneck monitor's verdict
points back at it) and is marked estimated when a measurement it needs failed or was skipped.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from core.environment.tables import RAM_CACHE_MARGIN, TRAIN_PROCESS_RAM_GB, amp_unsafe
from core.i18n import tr
from core.training.options import TrainConfig
from core.wizard import tables as T
from core.wizard.defaults import defaults_rate, keep_defaults
from core.wizard.gpu_augment import choose_gpu_augment
from core.wizard.warmup import cache_fill_s, predicted as predicted_figures, warmup_s
from core.wizard.inputs import DatasetSummary, Goal, Hardware, Measurements
from core.wizard.time_fit import budget_for, duration_words, fit_epochs, goal_words, hours_note
from core.wizard.rules import (Reason, best_workers, candidate_models, choose_batch, choose_imgsz, demand_for,
                               worker_cap)

#: Where images come from and whether yolov5 keeps them decoded, cheapest first.
DATA_CHOICES = ("originals", "cache", "prepared", "prepared+cache", "disk")
DISK_CACHE_MIN_MB_S = 200.0  # below this, reading .npy files is no faster than decoding the JPEGs
DISK_CACHE_ROOM = 1.5  # free space the .npy files may take, as a multiple of their size


@dataclass
class Recommendation:
    config: dict[str, Any]  # TrainConfig fields
    reasons: dict[str, Reason]
    predicted: dict[str, float]  # core.wizard.warmup.predicted: steady and first epoch, whole run
    data_choice: str = "originals"
    prepare_imgsz: int | None = None  # a prepared copy at this size belongs to the recommendation
    sync_bn: bool = False
    notes: list[str] = field(default_factory=list)
    hours_note: str = ""  # the sentence a choice that takes hours carries (core.wizard.time_fit)

    @property
    def estimated(self) -> list[str]:
        return [name for name, reason in self.reasons.items() if reason.estimated]

    def reasons_json(self) -> dict[str, dict[str, Any]]:
        return {name: asdict(reason) for name, reason in self.reasons.items()}


def choose_amp(hw: Hardware, m: Measurements) -> Reason:
    if not hw.gpus:
        return Reason("off", tr("yolov5 trains in FP32 on the CPU (AMP is for CUDA)."), tr("no GPU"), "hardware")
    unsafe = [g.name for g in hw.gpus if amp_unsafe(g.name)]
    if m.amp_ok is False or unsafe:
        evidence = tr("{names} produce NaN losses in FP16 with yolov5", names=", ".join(unsafe)) if unsafe else \
            tr("the local AMP check: FP16 and FP32 results differ")
        if m.amp_ok is False:
            return Reason("off", tr("FP16 is not safe here: yolov5's AMP check fails and it trains in FP32 (more "
                                    "memory, slower)."), evidence, "measure")
        return Reason("off", tr("FP16 is not safe here: these GPUs pass yolov5's AMP check, then the loss turns NaN "
                                "later in the run, so the run trains in FP32 (--no-amp; more memory, slower)."),
                      evidence, "hardware")
    old = [g.name for g in hw.gpus if g.capability and g.capability < (7, 0)]
    if old:
        return Reason("on", tr("yolov5 turns AMP on, but this GPU has no tensor cores: little speed-up."),
                      tr("{names}: compute capability below 7.0", names=", ".join(old)), "hardware")
    return Reason("on", tr("Tensor cores run FP16 several times faster and it halves activation memory; yolov5 "
                           "checks AMP itself before training."),
                  tr("local AMP check passed") if m.amp_ok else tr("compute capability ≥ 7.0"), "measure"
                  if m.amp_ok else "hardware", m.amp_ok is None)


def _cache_gb(ds: DatasetSummary, m: Measurements, imgsz: int) -> tuple[float, bool]:
    if m.cache_ram_gb is not None and m.imgsz == imgsz:
        return m.cache_ram_gb, False
    if m.cache_ram_gb is not None and m.imgsz:
        return m.cache_ram_gb * (imgsz / m.imgsz) ** 2, True
    return ds.train_images * imgsz * imgsz * 3 * 0.75 / 1024**3, True  # a 4:3 image, long side = imgsz


def _fits_ram(hw: Hardware, cache_gb: float) -> bool:
    """yolov5's check_cache_ram rule (10% margin), per rank under DDP, with each rank's own process."""
    ranks = max(1, len(hw.gpus))
    return hw.ram_available_gb is not None and \
        cache_gb * ranks * RAM_CACHE_MARGIN + TRAIN_PROCESS_RAM_GB * ranks <= hw.ram_available_gb


def _fits_disk(hw: Hardware, cache_gb: float) -> bool:
    """``--cache disk`` writes uncompressed .npy files beside the images (once, shared by every rank)."""
    return (hw.disk_free_gb is not None and hw.disk_free_gb >= cache_gb * DISK_CACHE_ROOM
            and hw.disk_read_mb_s is not None and hw.disk_read_mb_s >= DISK_CACHE_MIN_MB_S)


def _data_options(hw: Hardware, ds: DatasetSummary, m: Measurements, imgsz: int,
                  cache_gb: float) -> dict[str, dict[int, float]]:
    """Each data path that is allowed here, with its measured supply per worker count."""
    fits_ram = _fits_ram(hw, cache_gb)
    large = ds.long_side > 1.25 * imgsz
    options = {"originals": m.loader}
    if fits_ram and m.loader_cached:
        options["cache"] = m.loader_cached
    elif m.loader_cached and _fits_disk(hw, cache_gb):
        options["disk"] = m.loader_cached  # measured from RAM: the disk's figure is estimated from it
    if large and m.loader_prepared:
        options["prepared"] = m.loader_prepared
        if "cache" in options:
            options["prepared+cache"] = m.loader_cached  # cached images are imgsz either way; the fill is faster
    return {name: supply for name, supply in options.items() if supply}


def choose_data(hw: Hardware, ds: DatasetSummary, m: Measurements, imgsz: int, batch_per_rank: int,
                demand: float) -> tuple[str, int, float, Reason, Reason, Reason]:
    """(data path, workers, predicted images/s per rank, data reason, cache reason, workers reason)."""
    ranks = max(1, len(hw.gpus))
    cache_gb, cache_estimated = _cache_gb(ds, m, imgsz)
    options = _data_options(hw, ds, m, imgsz, cache_gb)
    results = {}
    for name, supply in options.items():
        cap, _ = worker_cap(hw, batch_per_rank, imgsz, cache_gb * ranks if "cache" in name else 0.0)
        results[name] = (*best_workers(supply, cap, demand, hw), supply)
    ram = f"{hw.ram_available_gb:.1f}" if hw.ram_available_gb is not None else "?"
    cache_evidence = tr("decoded at {imgsz} px: ~{gb:.2f} GB{ranks} (yolov5's check_cache_ram estimate); {ram} GB "
                        "RAM available", imgsz=imgsz, gb=cache_gb, ram=ram,
                        ranks=tr(" per rank × {n}", n=ranks) if ranks > 1 else "")
    if not results:  # nothing measured: rules of thumb, marked estimated
        return _unmeasured_data(hw, ds, imgsz, batch_per_rank, demand, cache_gb, cache_evidence)
    best = max(rate for _w, rate, _s in results.values())
    pick = next(name for name in _preference(ds, imgsz) if name in results
                and results[name][1] >= best * (1 - T.SAME_RATE))
    workers, rate, supply = results[pick]
    lines = [tr("{name}: {rate:.0f} img/s (workers {w})", name=data_words(name), rate=r, w=w)
             for name, (w, r, _s) in results.items()]
    defaults = defaults_rate(hw, m, batch_per_rank, demand)
    cap, _ = worker_cap(hw, batch_per_rank, imgsz, 0.0)
    if defaults is not None and defaults[0] <= cap and keep_defaults(pick, workers, rate, defaults, bool(hw.gpus)):
        lines.append(tr("yolov5's defaults: {rate:.0f} img/s (workers {w})", rate=defaults[1], w=defaults[0]))
        why = tr("yolov5's defaults are as fast here as anything measured ({best}: {rate:.0f} img/s against "
                 "{default:.0f}, less than {margin:.0%} more): the wizard keeps them — the original images, no "
                 "cache, {w} workers.", best=data_words(pick), rate=rate, default=defaults[1],
                 margin=T.DEFAULTS_MARGIN, w=defaults[0])
        supply = m.loader
        pick, workers, rate = "originals", defaults[0], defaults[1]
        data_reason = Reason(pick, why, "; ".join(lines), "measure")
        cache_reason = Reason("", tr("yolov5's default: no cache (the defaults are as fast here)."),
                              cache_evidence, "measure", cache_estimated)
        workers_reason = Reason(workers, tr("yolov5's default --workers 8, which it caps at the cores and the "
                                            "batch: {w}.", w=workers), tr("loader img/s by workers — {counts}",
                                            counts=", ".join(f"{w}: {s:.0f}" for w, s in sorted(supply.items()))),
                                "measure")
        return pick, workers, rate, data_reason, cache_reason, workers_reason
    data_reason = Reason(pick, {
        "originals": tr("Loading the original images keeps up; a copy or a cache would not be faster."),
        "cache": tr("yolov5 keeps the decoded images in RAM: decoding leaves every epoch after the first."),
        "prepared": tr("A copy resized to {imgsz} px once removes the decoding of large images that starves "
                       "training.", imgsz=imgsz),
        "prepared+cache": tr("A copy resized to {imgsz} px, kept decoded in RAM: nothing is decoded after "
                             "the cache is filled, and filling it is quick.", imgsz=imgsz),
        "disk": tr("Too big for RAM, but the disk is fast and has room: yolov5 decodes each image once into a "
                   ".npy file beside it and reads those.")}[pick],
        "; ".join(lines), "measure")
    cache = "ram" if "cache" in pick else "disk" if pick == "disk" else ""
    fits = _fits_ram(hw, cache_gb)
    if pick == "disk":
        cache_estimated = True
        cache_evidence += tr("; disk {free:.0f} GB free, {speed:.0f} MB/s", free=hw.disk_free_gb or 0,
                             speed=hw.disk_read_mb_s or 0)
    cache_why = (tr("Does not fit in RAM; the .npy files (their decoded size) go beside your images.")
                 if cache == "disk" else
                 tr("Fits in RAM with yolov5's 10% margin, and the loader is faster with it.") if cache else
                 tr("Does not fit in RAM with margin (yolov5 would then silently train without it).") if not fits else
                 tr("Not needed: the loader is as fast without it.") if "cache" in results else
                 tr("Not measured with a cache."))
    cache_reason = Reason(cache, cache_why, cache_evidence, "measure", cache_estimated)
    headroom = max(supply.get(workers, 0.0) / demand, 0.0) if demand else 0.0
    counts = ", ".join(f"{w}: {s:.0f}" for w, s in sorted(supply.items()))
    _, limits = worker_cap(hw, batch_per_rank, imgsz, cache_gb * ranks if cache else 0.0)
    workers_reason = Reason(workers, tr(
        "The smallest count that feeds the model ({headroom:.1f}× its demand); more would only cost cores and "
        "RAM.", headroom=headroom) if hw.gpus else tr(
        "On the CPU the loader workers and the model share {c} cores: {w} gives the most images/s.",
        c=hw.usable_cores, w=workers), tr("loader img/s by workers — {counts}; the model consumes {demand:.0f} "
                                          "img/s; limits: {limits}", counts=counts, demand=demand,
                                          limits="; ".join(limits)), "measure")
    return pick, workers, rate, data_reason, cache_reason, workers_reason


def _preference(ds: DatasetSummary, imgsz: int) -> tuple[str, ...]:
    """Cheapest first; with very large originals a cache alone decodes them at every start, a copy once."""
    if ds.long_side > 2 * imgsz:
        return ("originals", "prepared", "prepared+cache", "cache", "disk")
    return DATA_CHOICES


def data_words(name: str) -> str:
    """A data choice id in words; an unknown id as it is."""
    words = {"originals": tr("originals"), "cache": tr("RAM cache"), "prepared": tr("prepared copy"),
             "prepared+cache": tr("prepared copy + RAM cache"), "disk": tr("disk cache (estimated from RAM)")}
    return words.get(name, name)


def _unmeasured_data(hw: Hardware, ds: DatasetSummary, imgsz: int, batch_per_rank: int, demand: float,
                     cache_gb: float, cache_evidence: str) -> tuple[str, int, float, Reason, Reason, Reason]:
    ranks = max(1, len(hw.gpus))
    fits = _fits_ram(hw, cache_gb)
    prepared = ds.long_side > 2 * imgsz
    disk = not fits and not prepared and _fits_disk(hw, cache_gb)
    pick = ("prepared+cache" if fits else "prepared") if prepared else ("cache" if fits else "disk" if disk
                                                                        else "originals")
    cap, limits = worker_cap(hw, batch_per_rank, imgsz, cache_gb * ranks if fits else 0.0)
    workers = min(cap, 8) if hw.gpus else min(cap, max(1, hw.usable_cores // 2))
    data = Reason(pick, tr("Not measured: images {side} px against imgsz {imgsz}.", side=ds.long_side,
                           imgsz=imgsz), tr("rule of thumb: a copy pays when images are over twice the size"),
                  "measure", True)
    cache = Reason("ram" if fits else "disk" if disk else "", tr("Fits in RAM with yolov5's 10% margin.") if fits
                   else tr("Does not fit in RAM; the .npy files (their decoded size) go beside your images.") if disk
                   else tr("Does not fit in RAM with margin."), cache_evidence, "measure", True)
    reason = Reason(workers, tr("Not measured: as many as the limits allow, at most 8."), "; ".join(limits),
                    "measure", True)
    return pick, workers, demand, data, cache, reason


def _epochs(goal: Goal, pretrained: bool) -> tuple[int, str]:
    scratch, tuned = T.EPOCHS[goal.kind]
    if goal.kind == "quick":
        return scratch, tr("A quick test: enough epochs to see the losses fall and mAP rise.")
    if pretrained:
        return tuned, tr("Fine-tuning from pretrained weights converges in fewer epochs.")
    return scratch, tr("From scratch, yolov5 needs many epochs; Patience stops early at a plateau.")


def recommend(hw: Hardware, ds: DatasetSummary, goal: Goal, m: Measurements,
              start_for: Callable[[str], Any] | None = None) -> Recommendation:
    """Every setting with its reason. ``start_for(model_yaml)`` is the weights store's
    ``core.weights.choice.recommend_start`` (a ``StartChoice``); None trains from the YAML."""
    imgsz_reason = choose_imgsz(ds, goal, hw)
    imgsz = int(imgsz_reason.value)
    amp = choose_amp(hw, m)
    ranks = max(1, len(hw.gpus))
    candidates = candidate_models(hw, goal)
    budget, _whose = budget_for(goal, on_cpu=not hw.gpus)  # the user's, else on a CPU the goal's own
    plan: dict[str, Any] = {}
    for model in candidates:
        start = start_for(f"{model}.yaml") if start_for else None
        weights = str(start.weights) if start is not None and start.weights else ""
        epochs, epochs_why = _epochs(goal, bool(weights))
        demand, demand_estimated = demand_for(model, imgsz, hw, m)
        batch = choose_batch(hw, ds, model, imgsz, amp.value == "on", m)
        data = choose_data(hw, ds, m, imgsz, max(1, int(batch.value) // ranks), demand)
        gpu_augment, per_rank = choose_gpu_augment(hw, data[2], demand)
        rate = max(per_rank * ranks if hw.gpus else per_rank, 1e-6)
        epoch_s = ds.train_images / rate + ds.val_images / (3 * rate)
        plan = {"model": model, "start": start, "weights": weights, "epochs": epochs, "epochs_why": epochs_why,
                "demand": demand, "demand_estimated": demand_estimated, "batch": batch, "data": data,
                "rate": rate, "epoch_s": epoch_s, "gpu_augment": gpu_augment}
        if budget is None or epochs * epoch_s <= budget:
            break
    plan["fit"] = fit_epochs(goal, plan["epochs"], plan["epochs_why"], plan["epoch_s"], on_cpu=not hw.gpus)
    return _assemble(hw, ds, goal, m, imgsz_reason, amp, candidates, plan)


def _assemble(hw: Hardware, ds: DatasetSummary, goal: Goal, m: Measurements, imgsz_reason: Reason, amp: Reason,
              candidates: list[str], plan: dict[str, Any]) -> Recommendation:
    ranks = max(1, len(hw.gpus))
    pick, workers, _rate, data_reason, cache_reason, workers_reason = plan["data"]
    batch: Reason = plan["batch"]
    model = plan["model"]
    start = plan["start"]
    fit = plan["fit"]
    model_why = {"quick": tr("The smallest model: a quick test."),
                 "balanced": tr("A balance of speed and accuracy for this device."),
                 "accurate": tr("The largest model this device trains at a useful batch.")}[goal.kind]
    budget, whose = budget_for(goal, not hw.gpus)
    if budget is not None and model != candidates[0]:
        model_why = tr("The largest model that fits your time budget.") if whose == "user" else tr(
            "The largest model that fits the {goal} goal's {budget} on this CPU.", goal=goal_words(goal.kind),
            budget=duration_words(budget))
    if start is not None:
        model_why += " " + start.reason
    reasons = {
        "imgsz": imgsz_reason,
        "model": Reason(f"{model}.yaml", model_why, tr("{gflops:.1f} GFLOPs per image at 640 px; the device consumes "
                                                       "{demand:.0f} img/s at imgsz {imgsz}", gflops=T.GFLOPS_640[model],
                                                       demand=plan["demand"], imgsz=imgsz_reason.value),
                        "goal", plan["demand_estimated"]),
        "weights": Reason(plan["weights"] or tr("none"), start.reason if start is not None else tr(
            "Training from the model YAML (no pretrained weights chosen)."), plan["weights"] or tr("weights store"),
            "goal"),
        "epochs": Reason(fit.epochs, fit.why, tr("goal: {goal}; {evidence}", goal=goal_words(goal.kind),
                                                 evidence=fit.evidence), "goal", fit.cut and plan["demand_estimated"]),
        "batch": batch, "data": data_reason, "cache": cache_reason, "workers": workers_reason,
        "device": Reason(hw.device, tr("{n} GPUs with DDP through torchrun (one process per GPU, never "
                                       "DataParallel).", n=ranks) if ranks > 1 else
                         tr("The GPU.") if hw.gpus else tr("No usable GPU: the CPU."),
                         ", ".join(g.name for g in hw.gpus) or tr("{c} cores", c=hw.usable_cores), "hardware"),
        "amp": amp,
        "gpu_augment": plan["gpu_augment"],
    }
    sync_bn = ranks > 1 and int(batch.value) // ranks <= T.SYNC_BN_MAX_PER_GPU
    if ranks > 1:
        reasons["sync_bn"] = Reason(sync_bn, tr("Per-GPU batches of {n} or fewer give noisy batch statistics: "
                                                "synchronise them across GPUs.", n=T.SYNC_BN_MAX_PER_GPU)
                                    if sync_bn else tr("Per-GPU batches are large enough for their own statistics."),
                                    tr("{per} images per GPU", per=int(batch.value) // ranks), "measure")
    failures = [tr("{step}: {why}", step=step, why=why) for step, why in m.failures.items()]
    config = TrainConfig(data=ds.data_yaml, model=f"{model}.yaml", weights=plan["weights"], epochs=fit.epochs,
                         imgsz=int(imgsz_reason.value), batch=int(batch.value), workers=int(workers),
                         device=hw.device if hw.gpus else "cpu", cache=cache_reason.value,
                         no_amp=bool(hw.gpus) and amp.value == "off",
                         gpu_augment=plan["gpu_augment"].value).to_dict()
    warm = warmup_s(m, plan["demand"])
    start = cache_fill_s(hw, ds, m, pick, cache_reason.value)
    predicted = predicted_figures(plan["rate"], plan["epoch_s"], warm, start, fit.epochs, ds.train_images)
    return Recommendation(config, reasons, predicted, pick, int(imgsz_reason.value) if "prepared" in pick else None,
                          sync_bn, failures, hours_note(predicted["total_s"], on_cpu=not hw.gpus))
