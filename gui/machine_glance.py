"""The machine at a glance for the status bar: GPU name, utilisation and memory (NVML), CPU %, RAM.

NVML readings take about a millisecond, so they are polled from a GUI timer; only ``nvmlInit`` can be
slow (seconds on a GPU without persistence mode), so ``NvmlGlance.init`` is meant to run in the
background once. Every NVML call is guarded: no library, no driver or a GPU falling off the bus must
read as "no NVIDIA GPU", never as an exception. No Qt here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psutil

GIB = 1024 ** 3


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
    """Holds NVML open while the window lives; ``read()`` is None when no NVIDIA GPU can be read."""

    def __init__(self) -> None:
        self._nvml: Any = None
        self._handles: list[tuple[int, str, Any]] = []

    def init(self) -> bool:
        try:
            import pynvml

            pynvml.nvmlInit()
            for i in range(pynvml.nvmlDeviceGetCount()):
                handle = pynvml.nvmlDeviceGetHandleByIndex(i)
                name = pynvml.nvmlDeviceGetName(handle)
                self._handles.append((i, name.decode() if isinstance(name, bytes) else str(name), handle))
        except Exception:  # noqa: BLE001 - ImportError, NVMLError_LibraryNotFound, DriverNotLoaded...
            self._handles = []
            return False
        self._nvml = pynvml
        return bool(self._handles)

    def read(self) -> list[GpuGlance] | None:
        if self._nvml is None or not self._handles:
            return None
        return [self._read_one(i, name, handle) for i, name, handle in self._handles]

    def _read_one(self, index: int, name: str, handle: Any) -> GpuGlance:
        util = used = total = None
        try:
            util = float(self._nvml.nvmlDeviceGetUtilizationRates(handle).gpu)
        except Exception:  # noqa: BLE001 - unsupported reading or GPU lost: shown as unknown
            pass
        try:
            memory = self._nvml.nvmlDeviceGetMemoryInfo(handle)
            used, total = memory.used / GIB, memory.total / GIB
        except Exception:  # noqa: BLE001
            pass
        return GpuGlance(index, name, util, used, total)

    def close(self) -> None:
        if self._nvml is not None:
            try:
                self._nvml.nvmlShutdown()
            except Exception:  # noqa: BLE001
                pass
            self._nvml, self._handles = None, []


def read_host() -> HostGlance:
    """CPU % since the previous call (non-blocking) and RAM in use."""
    memory = psutil.virtual_memory()
    return HostGlance(psutil.cpu_percent(None), (memory.total - memory.available) / GIB, memory.total / GIB)
