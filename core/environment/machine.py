"""Which GPUs this machine has, read quickly in the GUI/CLI process without importing torch.

``MachineFacts`` is the one facts type for "what GPUs are there": the Train check validates ``--device``
against it and the export rules (``core.export.facts``) grey out what the GPU can't do. It is read through
the one NVML reader (``core.environment.nvml``) in milliseconds and injected everywhere, so tests need no GPU. NVML
that is not installed or finds no driver means no NVIDIA GPU (count 0); any other NVML error leaves the
count unknown (None) with the reason, so checks can say so instead of guessing. The full environment
check (torch's view, a test kernel) runs in a worker — this is only the cheap part.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from core.environment.nvml import NvmlUnavailable, open_nvml

#: NVML errors that mean "there is no NVIDIA driver here", i.e. no GPU the app could use.
NO_DRIVER = ("NotInstalled", "LibraryNotFound", "DriverNotLoaded")


@dataclass(frozen=True)
class MachineFacts:
    """What option checks need to know about the GPUs; injected so tests need no GPU."""

    gpu_count: int | None = None  # None: unknown (NVML could not be read)
    gpu_names: tuple[str, ...] = ()
    gpu_capabilities: tuple[tuple[int, int] | None, ...] = ()  # CUDA compute capability per GPU
    nvml_error: str | None = None  # why NVML could not be read ("LibraryNotFound: …")
    gpu_memory: tuple[tuple[float, float] | None, ...] = ()  # (used, total) GB per GPU, others' processes included
    cpu_count: int | None = None  # CPU cores this process may use (the several-processes workers rule)


def usable_cpus() -> int | None:
    """Cores this process may run on (affinity and cgroup-pinned sets, unlike ``os.cpu_count``)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count()


def quick_machine_facts(nvml: Any | None = None) -> MachineFacts:
    try:
        reader = open_nvml(nvml)
    except NvmlUnavailable as exc:
        return MachineFacts(gpu_count=0 if exc.kind in NO_DRIVER else None, nvml_error=f"{exc.kind}: {exc}",
                            cpu_count=usable_cpus())
    try:
        memory = tuple(None if row["mem_total_gb"] is None else (row["mem_used_gb"], row["mem_total_gb"])
                       for row in reader.read())
        return MachineFacts(gpu_count=len(reader.handles), gpu_names=tuple(reader.names()),
                            gpu_capabilities=tuple(reader.capabilities()), gpu_memory=memory,
                            cpu_count=usable_cpus())
    finally:
        reader.close()


def parse_device(device: str) -> list[int] | None:
    """GPU indices named by a device string; None for CPU or auto. Raises ValueError when malformed."""
    text = device.strip().lower().replace("cuda:", "")
    if text in ("", "cpu"):
        return None
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts or not all(p.isdigit() for p in parts):
        raise ValueError(device)
    return [int(p) for p in parts]
