"""The machine at a glance for the status bar: GPU name, utilisation and memory (NVML), CPU %, RAM.

NVML readings take about a millisecond, so they are polled from a GUI timer; only ``nvmlInit`` can be
slow (seconds on a GPU without persistence mode), so ``NvmlGlance.init`` is meant to run in the
background once. Every NVML call is guarded (``core.environment.nvml``): no library, no driver or a GPU falling off the
bus must read as "no NVIDIA GPU", never as an exception. No Qt here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.environment.nvml import GB, NvmlReader, NvmlUnavailable, open_nvml


@dataclass(frozen=True)
class GpuGlance:
    index: int
    name: str
    util_percent: float | None
    mem_used_gb: float | None
    mem_total_gb: float | None


@dataclass(frozen=True)
class HostGlance:
    cpu_percent: float
    ram_used_gb: float
    ram_total_gb: float


class NvmlGlance:
    """Holds NVML open while the window lives (``core.environment.nvml``, the app's one reader); ``read()`` is None when
    no NVIDIA GPU can be read."""

    def __init__(self, nvml: Any | None = None) -> None:
        self._module = nvml  # a fake in tests; pynvml otherwise
        self._reader: NvmlReader | None = None
        self._names: list[str] = []

    def init(self) -> bool:
        try:
            self._reader = open_nvml(self._module)
        except NvmlUnavailable:
            return False
        self._names = self._reader.names()
        return bool(self._reader.handles)

    def read(self) -> list[GpuGlance] | None:
        if self._reader is None or not self._reader.handles:
            return None
        return [GpuGlance(row["index"], self._names[row["index"]], _float(row["util_percent"]), row["mem_used_gb"],
                          row["mem_total_gb"]) for row in self._reader.read()]

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader, self._names = None, []


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def read_host() -> HostGlance:
    """CPU % since the previous call (non-blocking) and RAM in use."""
    import psutil  # noqa: PLC0415 - 30 ms of import, paid after the window's first paint (issue 15)

    memory = psutil.virtual_memory()
    return HostGlance(psutil.cpu_percent(None), (memory.total - memory.available) / GB, memory.total / GB)
