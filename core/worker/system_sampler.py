"""A background thread that samples the machine about once a second while a worker runs.

CPU (total, per-core, iowait, and this training process tree), RAM, disk reads, and per GPU from NVML:
utilisation, memory, temperature, power, throttle reasons. NVML is optional (no driver, no GPU, a CPU
machine): its absence is reported once and sampling goes on without it. ``read_system`` is the pure
part — it takes the psutil and NVML modules as arguments, so tests feed it fakes.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

import psutil

from core.environment.nvml import GB, NvmlReader


def process_tree_cpu(root: psutil.Process, cache: dict[int, psutil.Process]) -> float:
    """CPU % of a process and its children (data-loader workers); keeps Process objects for deltas."""
    total = 0.0
    try:
        procs = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0.0
    alive = set()
    for proc in procs:
        proc = cache.setdefault(proc.pid, proc)
        alive.add(proc.pid)
        try:
            total += proc.cpu_percent(None)
        except psutil.Error:
            continue
    for pid in list(cache):
        if pid not in alive:
            del cache[pid]
    return total


class SystemSampler:
    def __init__(self, emit: Callable[..., Any], interval_s: float = 1.0, nvml: NvmlReader | None = None,
                 root: psutil.Process | None = None) -> None:
        self._emit = emit
        self._interval_s = interval_s
        self._nvml = nvml
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="system-sampler", daemon=True)
        self._proc_cache: dict[int, psutil.Process] = {}
        self._root = root or psutil.Process()  # DDP: torchrun's agent, so every rank of this machine counts
        self._last_disk: tuple[float, int] | None = None

    def start(self) -> None:
        psutil.cpu_percent(None)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        if self._nvml is not None:
            self._nvml.close()

    def sample(self) -> dict[str, Any]:
        vm = psutil.virtual_memory()
        times = psutil.cpu_times_percent(None)
        disk_mb_s = None
        try:
            io = psutil.disk_io_counters()
            now = time.monotonic()
            if io is not None:
                if self._last_disk is not None and now > self._last_disk[0]:
                    disk_mb_s = (io.read_bytes - self._last_disk[1]) / (now - self._last_disk[0]) / 1e6
                self._last_disk = (now, io.read_bytes)
        except (OSError, RuntimeError):
            pass
        return {
            "cpu_percent": psutil.cpu_percent(None),
            "cpu_count": psutil.cpu_count(),
            "iowait_percent": getattr(times, "iowait", None),
            "proc_cpu_percent": process_tree_cpu(self._root, self._proc_cache),
            "ram_used_gb": (vm.total - vm.available) / GB,
            "ram_total_gb": vm.total / GB,
            "swap_used_gb": psutil.swap_memory().used / GB,
            "disk_read_mb_s": disk_mb_s,
            "gpus": self._nvml.read() if self._nvml is not None else [],
        }

    def _run(self) -> None:
        while not self._stop.wait(self._interval_s):
            try:
                self._emit("system", **self.sample())
            except Exception:  # noqa: BLE001 - a sampling hiccup must never end a training run
                continue
