"""What a passed environment check measured, in words: "Python 3.11.9", "16 of 16 cores usable", …

Why: a passed check used to say only "Passed: nothing to fix.", so a person could not tell a check that
looked at the machine from one that looked at nothing. Each line here describes the facts its rule judged
(``core.environment.rules``: same keys) and the figures it compared them with, computed by the rules' own
helpers — no threshold lives here, so a rule and its words cannot disagree. ``evaluate`` fills
``CheckResult.measured`` from ``measured_words`` for each check that passed; a key without words (or whose
facts are missing) gets "" and the page falls back to "Passed".
"""

from __future__ import annotations

from typing import Callable

from core.environment.facts import EnvironmentFacts
from core.environment.rules.base import RuleContext
from core.environment.rules.host import shm_needed_gb
from core.environment.rules.loader import loader_workers, worker_ram_need_gb
from core.environment.tables import RAM_CACHE_MARGIN
from core.environment.visible_devices import CUDA_VISIBLE
from core.i18n import tr

Words = Callable[[EnvironmentFacts, RuleContext], str]


def _probe(f: EnvironmentFacts, ctx: RuleContext) -> str:
    return tr("finished in {s:.1f} s", s=f.probe.elapsed_s) if f.probe.elapsed_s is not None else ""


def _gpu_hidden(f: EnvironmentFacts, ctx: RuleContext) -> str:
    value = f.system.env.get(CUDA_VISIBLE)
    return tr("{variable} is not set", variable=CUDA_VISIBLE) if value is None else f"{CUDA_VISIBLE}={value}"


def _python(f: EnvironmentFacts, ctx: RuleContext) -> str:
    return tr("Python {version}", version=f.system.python_version) if f.system.python_version else ""


def _torch(f: EnvironmentFacts, ctx: RuleContext) -> str:
    if not f.torch.version:
        return ""
    took = tr(", imported in {s:.1f} s", s=f.torch.import_s) if f.torch.import_s is not None else ""
    return tr("PyTorch {version}{took}", version=f.torch.version, took=took)


def _yolov5(f: EnvironmentFacts, ctx: RuleContext) -> str:
    version = f.packages.get("yolov5")
    return tr("yolov5 {version}", version=version) if version else ""


def _torch_build(f: EnvironmentFacts, ctx: RuleContext) -> str:
    if not f.torch.version:
        return ""
    if f.torch.cuda:
        return tr("PyTorch {version}, built for CUDA {cuda}", version=f.torch.version, cuda=f.torch.cuda)
    return tr("PyTorch {version}, a CPU-only build", version=f.torch.version)


def _nvml(f: EnvironmentFacts, ctx: RuleContext) -> str:
    if not f.nvml.available:
        return ""
    return tr("driver {driver}; GPUs listed: {count}", driver=f.nvml.driver_version or "?", count=len(f.nvml.gpus))


def _gpu(f: EnvironmentFacts, ctx: RuleContext) -> str:
    names = [g.name for g in f.nvml.gpus if g.name] or [d.name for d in f.torch.devices if d.name]
    return ", ".join(names)


def _driver(f: EnvironmentFacts, ctx: RuleContext) -> str:
    if not f.nvml.driver_version or not f.torch.cuda:
        return ""
    return tr("driver {driver} runs PyTorch's CUDA {cuda}", driver=f.nvml.driver_version, cuda=f.torch.cuda)


def _cuda(f: EnvironmentFacts, ctx: RuleContext) -> str:
    passed = [d for d in f.torch.devices if d.kernel_ok]
    if not passed:
        return ""
    return tr("the test kernel ran on: {names}", names=", ".join(d.name or f"cuda:{d.index}" for d in passed))


def _cudnn(f: EnvironmentFacts, ctx: RuleContext) -> str:
    return tr("cuDNN {version}", version=f.torch.cudnn_version) if f.torch.cudnn_version else ""


def _shm(f: EnvironmentFacts, ctx: RuleContext) -> str:
    if f.system.shm_total_gb is None:
        return ""
    return tr("/dev/shm {size:.0f} MB; {workers} workers need {need:.0f} MB", size=f.system.shm_total_gb * 1024,
              workers=ctx.workers, need=shm_needed_gb(ctx) * 1024)


def _cpu(f: EnvironmentFacts, ctx: RuleContext) -> str:
    if f.system.usable_cores is None or f.system.logical_cores is None:
        return ""
    train, _val = loader_workers(f, ctx.workers, ctx.batch)
    return tr("{usable} of {logical} cores usable; the loader starts {train} workers", usable=f.system.usable_cores,
              logical=f.system.logical_cores, train=train)


def _ram_workers(f: EnvironmentFacts, ctx: RuleContext) -> str:
    if f.system.ram_available_gb is None:
        return ""
    return tr("{need:.1f} GB needed by training and its workers, {available:.1f} GB available",
              need=worker_ram_need_gb(f, ctx.workers, ctx.batch, ctx.imgsz), available=f.system.ram_available_gb)


def _ram(f: EnvironmentFacts, ctx: RuleContext) -> str:
    if f.dataset is None or f.dataset.cache_ram_gb is None or f.system.ram_available_gb is None:
        return ""
    return tr("--cache ram needs about {need:.1f} GB for {images} images, {available:.1f} GB available",
              need=f.dataset.cache_ram_gb * RAM_CACHE_MARGIN, images=f.dataset.images or "?",
              available=f.system.ram_available_gb)


def _disk(f: EnvironmentFacts, ctx: RuleContext) -> str:
    parts = []
    for d in f.disks:
        speed = (tr("{files:.0f} images/s ({speed:.0f} MB/s)", files=d.files_per_s, speed=d.read_mb_s or 0)
                 if d.files_per_s is not None else tr("{speed:.0f} MB/s", speed=d.read_mb_s)
                 if d.read_mb_s is not None else "")
        free = tr("{free:.0f} GB free", free=d.free_gb) if d.free_gb is not None else ""
        if speed or free:
            role = {"workspace": tr("workspace"), "dataset": tr("dataset")}.get(d.role, d.role)
            parts.append(tr("{role}: {figures}", role=role, figures=", ".join(p for p in (speed, free) if p)))
    return "; ".join(parts)


def _gpu_state(f: EnvironmentFacts, ctx: RuleContext) -> str:
    parts = []
    for g in f.nvml.gpus:
        figures = [tr("{util:.0f}% busy", util=g.util_percent) if g.util_percent is not None else "",
                   tr("{temp:.0f} °C", temp=g.temperature_c) if g.temperature_c is not None else "",
                   tr("PCIe gen {gen} x{width}", gen=g.pcie_gen, width=g.pcie_width)
                   if g.pcie_gen is not None and g.pcie_width is not None else ""]
        if any(figures):
            parts.append(tr("GPU {index}: {figures}", index=g.index, figures=", ".join(p for p in figures if p)))
    return "; ".join(parts)


def _accelerator(f: EnvironmentFacts, ctx: RuleContext) -> str:
    if not f.torch.installed:
        return ""
    kind = (tr("PyTorch drives NVIDIA GPUs through CUDA {cuda}", cuda=f.torch.cuda) if f.torch.cuda else
            tr("a CPU-only PyTorch"))
    return tr("{kind}; {arch} CPU", kind=kind, arch=f.system.cpu_arch) if f.system.cpu_arch else kind


def _gpu_health(f: EnvironmentFacts, ctx: RuleContext) -> str:
    parts = [tr("GPU {index}: compute mode {mode}", index=g.index, mode=g.compute_mode)
             for g in f.nvml.gpus if g.compute_mode]
    return "; ".join(parts)


MEASURED: dict[str, Words] = {
    "accelerator": _accelerator, "gpu-health": _gpu_health,
    "probe": _probe, "gpu-hidden": _gpu_hidden, "python": _python, "torch": _torch, "yolov5": _yolov5, "nvml": _nvml, "gpu": _gpu, "torch-build": _torch_build,
    "driver": _driver, "cuda": _cuda, "cudnn": _cudnn, "shm": _shm, "cpu": _cpu, "ram-workers": _ram_workers,
    "ram": _ram, "disk": _disk, "gpu-state": _gpu_state,
}


def measured_words(key: str, facts: EnvironmentFacts, ctx: RuleContext) -> str:
    """What the check ``key`` looked at, in words ("" when it has no words or its facts are missing)."""
    words = MEASURED.get(key)
    if words is None:
        return ""
    try:
        return words(facts, ctx)
    except (TypeError, ValueError, AttributeError, KeyError):  # malformed facts: the rule said so already
        return ""
