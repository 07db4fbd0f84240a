"""How a worker job is started: its argv and environment, as pure functions shared by GUI and CLI.

The worker runs under the same interpreter as the launcher (the app's venv) with the repository on
``PYTHONPATH`` and unbuffered output, so events arrive as they are written. A run on several GPUs or
machines is the same worker entry started once per rank by ``torch.distributed.run``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from core import APP_ROOT
from core.job.torchrun import Topology, app_launch_argv


def worker_argv(job: str, spec_file: Path, python: str | None = None,
                topology: dict[str, Any] | None = None) -> list[str]:
    """The worker command; with a ``topology`` (several GPUs or machines) the same entry under
    ``torch.distributed.run`` (the app's launcher: ``core.job.torchrun.app_launch_argv``), one worker per rank —
    never DataParallel."""
    entry = ["-m", "core.worker", job, str(spec_file)]
    if topology:
        return app_launch_argv(entry, Topology(**topology), python or sys.executable)
    return [python or sys.executable, *entry]


def worker_env(base: dict[str, str] | None = None, topology: dict[str, Any] | None = None) -> dict[str, str]:
    env = dict(os.environ if base is None else base)
    if topology and "OMP_NUM_THREADS" not in env:
        # torchrun would set 1 (and say so on stderr); the machine's cores shared between its ranks is what a CPU
        # rank needs, and no worse for a GPU rank.
        env["OMP_NUM_THREADS"] = str(max(1, (os.cpu_count() or 1) // max(1, int(topology["nproc_per_node"]))))
    parts = [str(APP_ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(parts))
    # The app numbers GPUs as NVML and nvidia-smi do, in PCI-bus order (the Train page's GPU list, the --device
    # check, the wizard): CUDA in the workers must count the same way, not fastest first (CUDA's default), or
    # "GPU 1" trains on another card. A user's own CUDA_DEVICE_ORDER is kept.
    env.setdefault("CUDA_DEVICE_ORDER", "PCI_BUS_ID")
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONIOENCODING"] = "utf-8"
    # UTF-8 mode: yolov5 opens data.yaml, label files and image lists in the locale's encoding (``open(f)``),
    # which on a Chinese Windows is GBK; the dataset check reads them as UTF-8, so both must read the same.
    env["PYTHONUTF8"] = "1"
    # cv2 (imported by yolov5) would otherwise point Qt at its own plugins in this process tree.
    env.pop("QT_QPA_PLATFORM_PLUGIN_PATH", None)
    return env
