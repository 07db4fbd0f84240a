"""What the bottleneck monitor's contention verdict reads (issue 32): a run's CPU and its threads' wait for a free
core (``core.worker.system_sampler``: psutil, and Linux's run-queue time), for a busy and a sleeping run, with
and without busy programs pinned to the run's core. Prints % of one core over 2 s each.

    python bench/cpu_contention.py
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from core.worker.system_sampler import SystemSampler  # noqa: E402

BUSY = "import os; os.sched_setaffinity(0, {0})\nwhile True: pass"
SLEEPY = ("import os, time; os.sched_setaffinity(0, {0})\nwhile True:\n  t = time.perf_counter()\n"
          "  while time.perf_counter() - t < 0.01: pass\n  time.sleep(0.1)")


def measure(code: str, hogs: int) -> tuple[float, float]:
    """(the run's CPU, its wait for a core) in % of one core, with ``hogs`` busy programs on its core."""
    run = subprocess.Popen([sys.executable, "-c", code])
    others = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(hogs)]
    try:
        sampler = SystemSampler(lambda *a, **k: None, root=psutil.Process(run.pid))
        sampler.sample()
        time.sleep(2.0)
        sample = sampler.sample()
        return sample["proc_cpu_percent"], sample["proc_cpu_wait_percent"]
    finally:
        for proc in (run, *others):
            proc.kill()


if __name__ == "__main__":
    for name, code in (("busy run", BUSY), ("sleeping run", SLEEPY)):
        for hogs in (0, 2):
            cpu, wait = measure(code, hogs)
            print(f"{name}, {hogs} busy programs on its core: CPU {cpu:.0f} %, waiting for a core {wait:.0f} %")
