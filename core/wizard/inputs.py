"""What the wizard decides from: the machine, the dataset, the user's goal, and what the measure job measured.

Plain data, injected everywhere, so every recommendation is a pure function a test can feed with another
machine's facts (a 2-core CPU box, an 8×80 GB node, a container with 64 MB of /dev/shm …). ``Hardware`` is
read from the environment checker's ``EnvironmentFacts`` (``hardware_from_facts``), ``DatasetSummary`` from
the validator's statistics (``dataset_from_stats``) — never read a second way. ``Measurements`` is what the
``wizard_measure`` worker job reports (``measurements_from_json``); every step that failed or was skipped is
named in ``failures`` with the reason, and the settings it would have decided are marked estimated.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from core.environment.facts import EnvironmentFacts
from core.environment.rules.base import gpu_capability

GOALS = ("quick", "balanced", "accurate")
STEPS = ("cache", "loader", "prepared", "demand", "batch", "amp")


@dataclass(frozen=True)
class Gpu:
    name: str
    memory_gb: float  # total
    used_gb: float = 0.0  # by other processes now
    capability: tuple[int, int] | None = None
    index: int | None = None  # NVML's (PCI-bus order, as the workers count: core.job.launch.worker_env); None: by position


@dataclass(frozen=True)
class Hardware:
    os: str = "Linux"
    usable_cores: int = 2
    ram_available_gb: float | None = None
    shm_free_gb: float | None = None  # Linux /dev/shm
    container: str = ""
    gpus: tuple[Gpu, ...] = ()  # the GPUs chosen for training (empty: the CPU)
    disk_read_mb_s: float | None = None  # the dataset's disk
    disk_free_gb: float | None = None
    python_version: str | None = None

    @property
    def device(self) -> str:
        """``--device`` for the chosen GPUs: their own indices (GPU 1 alone is "1", not "0")."""
        return ",".join(str(g.index if g.index is not None else i) for i, g in enumerate(self.gpus)) \
            if self.gpus else "cpu"


@dataclass(frozen=True)
class DatasetSummary:
    data_yaml: str
    train_images: int
    val_images: int = 0
    nc: int = 1
    long_side: int = 640  # the most common image's longer side (px)
    small_box_area: float | None = None  # 10th percentile of box area as a fraction of the image


@dataclass(frozen=True)
class Goal:
    kind: str = "balanced"  # quick | balanced | accurate
    time_budget_s: float | None = None
    imgsz: int | None = None  # fixed by the user instead of chosen


@dataclass
class Measurements:
    """Figures measured on this machine; an empty map or None = not measured (see ``failures``)."""

    imgsz: int = 0
    batch: int = 0  # the batch the loader and the model were measured at
    model: str = ""
    loader: dict[int, float] = field(default_factory=dict)  # workers -> images/s, originals, no cache
    loader_cached: dict[int, float] = field(default_factory=dict)  # with --cache ram
    loader_prepared: dict[int, float] = field(default_factory=dict)  # a prepared copy (sample), no cache
    demand: float | None = None  # images/s forward+backward+step consume on the device
    first_step_s: float | None = None  # the model's first training step (allocator, kernels, cuDNN autotune) at batch
    batch_probe: int | None = None  # largest batch that trained within the memory margin (CUDA)
    batch_probe_gb: float | None = None  # memory it peaked at
    autobatch: int | None = None  # yolov5's AutoBatch figure (CUDA)
    cache_ram_gb: float | None = None  # yolov5's check_cache_ram estimate for the whole train split
    amp_ok: bool | None = None
    sample_images: int = 0
    failures: dict[str, str] = field(default_factory=dict)  # step -> why it was not measured

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def measurements_from_json(raw: dict[str, Any]) -> Measurements:
    """The job's ``done.measurements`` back as ``Measurements`` (JSON turns the worker counts into strings)."""
    m = Measurements()
    for key, value in raw.items():
        if key in ("loader", "loader_cached", "loader_prepared") and isinstance(value, dict):
            setattr(m, key, {int(k): float(v) for k, v in value.items()})
        elif hasattr(m, key):
            setattr(m, key, value)
    return m


def usable_cores(facts: EnvironmentFacts) -> int:
    return int(facts.system.usable_cores or facts.system.logical_cores or 1)


def hardware_from_facts(facts: EnvironmentFacts, gpu_indices: list[int] | None = None) -> Hardware:
    """The checker's facts as the wizard needs them; ``gpu_indices`` picks GPUs (None: all, [] : the CPU)."""
    gpus = []
    usable = facts.torch.cuda_available is not False and (facts.torch.device_count or len(facts.nvml.gpus))
    for gpu in facts.nvml.gpus if usable else []:
        if gpu_indices is not None and gpu.index not in gpu_indices:
            continue
        gpus.append(Gpu(gpu.name or f"GPU {gpu.index}", gpu.memory_total_gb or 0.0, gpu.memory_used_gb or 0.0,
                        gpu_capability(gpu), gpu.index))
    dataset_disks = [d for d in facts.disks if d.role == "dataset"] or facts.disks
    disk = dataset_disks[0] if dataset_disks else None
    return Hardware(os=facts.system.os or "Linux", usable_cores=usable_cores(facts),
                    ram_available_gb=facts.system.ram_available_gb, shm_free_gb=facts.system.shm_free_gb,
                    container=facts.system.container or "", gpus=tuple(gpus),
                    disk_read_mb_s=disk.read_mb_s if disk else None, disk_free_gb=disk.free_gb if disk else None,
                    python_version=facts.system.python_version)


def dataset_from_stats(data_yaml: str, stats: dict[str, Any]) -> DatasetSummary:
    """The validator's statistics (``core.dataset.stats``) as the wizard needs them."""
    splits = stats.get("splits", {})
    sizes = stats.get("image_sizes") or {}
    long_side = 640
    if sizes:
        w, h = (int(v) for v in next(iter(sizes)).split("x"))
        long_side = max(w, h)
    return DatasetSummary(data_yaml, int(splits.get("train", {}).get("images", 0)),
                          int(splits.get("val", {}).get("images", 0)), int(stats.get("nc", 1) or 1), long_side,
                          (stats.get("box_area") or {}).get("p10"))
