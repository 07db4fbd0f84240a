"""A background thread that samples the machine about once a second while a worker runs.

CPU (total, per-core, iowait, and this training process tree), RAM, disk reads, and per GPU from NVML:
utilisation, memory, temperature, power, throttle reasons. NVML is optional (no driver, no GPU, a CPU
machine): its absence is reported once and sampling goes on without it. ``read_system`` is the pure
part — it takes the psutil and NVML modules as arguments, so tests feed it fakes.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
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


def thread_waits_ns(pids: list[int], proc_root: Path = Path("/proc")) -> int | None:
    """Nanoseconds the threads of ``pids`` have spent runnable but waiting for a CPU (Linux's
    ``/proc/PID/task/TID/schedstat``, second field: time on the run queue); None where the kernel does not say.
    What tells contention from outside apart from a run that sleeps or waits for its data: only a thread that
    could run and found no free core waits here."""
    total, seen = 0, False
    for pid in pids:
        try:
            tasks = list((proc_root / str(pid) / "task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                fields = (task / "schedstat").read_text().split()
            except OSError:
                continue
            if len(fields) >= 2 and fields[1].isdigit():
                total += int(fields[1])
                seen = True
    return total if seen else None


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
        self._last_wait: tuple[float, int] | None = None  # (monotonic s, run-queue wait ns of the tree)

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
            "proc_cpu_wait_percent": self._wait_percent(),
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

    def _wait_percent(self) -> float | None:
        """Since the last sample: the time this run's threads waited for a CPU, in % of one core (as
        ``proc_cpu_percent`` counts the time they ran)."""
        try:
            pids = [self._root.pid, *(p.pid for p in self._root.children(recursive=True))]
        except psutil.Error:
            return None
        waited, now = thread_waits_ns(pids), time.monotonic()
        if waited is None:
            return None
        last, self._last_wait = self._last_wait, (now, waited)
        if last is None or now <= last[0]:
            return None
        return max(0.0, (waited - last[1]) / 1e9 / (now - last[0]) * 100.0)

    def _run(self) -> None:
        while not self._stop.wait(self._interval_s):
            try:
                self._emit("system", **self.sample())
            except Exception:  # noqa: BLE001 - a sampling hiccup must never end a training run
                continue
