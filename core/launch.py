"""How a worker job is started: its argv and environment, as pure functions shared by GUI and CLI.

The worker runs under the same interpreter as the launcher (the app's venv) with the repository on
``PYTHONPATH`` and unbuffered output, so events arrive as they are written.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from core import APP_ROOT


def worker_argv(job: str, spec_file: Path, python: str | None = None) -> list[str]:
    return [python or sys.executable, "-m", "core.worker", job, str(spec_file)]


def worker_env(base: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ if base is None else base)
    parts = [str(APP_ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(parts))
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONIOENCODING"] = "utf-8"
    # UTF-8 mode: yolov5 opens data.yaml, label files and image lists in the locale's encoding (``open(f)``),
    # which on a Chinese Windows is GBK; the dataset check reads them as UTF-8, so both must read the same.
    env["PYTHONUTF8"] = "1"
    # cv2 (imported by yolov5) would otherwise point Qt at its own plugins in this process tree.
    env.pop("QT_QPA_PLATFORM_PLUGIN_PATH", None)
    return env
