"""How workers are started: the environment they get."""

from __future__ import annotations

import subprocess
import sys

from core.job.launch import worker_env


def test_the_worker_reads_files_as_utf8_whatever_the_locale():
    """yolov5 opens labels and data.yaml with the locale's encoding (GBK on a Chinese Windows); the worker's
    UTF-8 mode makes that UTF-8, as the dataset check reads them."""
    env = worker_env({"PATH": "", "LC_ALL": "C", "LANG": "C"})
    out = subprocess.run([sys.executable, "-c", "import locale, sys; print(sys.flags.utf8_mode, "
                          "locale.getpreferredencoding(False))"], env=env, capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["1", "utf-8"], out.stderr
