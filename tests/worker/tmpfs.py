"""A small tmpfs for disk-full tests, where this process may mount one (root on Linux); else None."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterator


@contextlib.contextmanager
def small_tmpfs(folder: Path, size_mb: int) -> Iterator[Path | None]:
    folder.mkdir(parents=True, exist_ok=True)
    mounted = False
    if sys.platform.startswith("linux") and os.geteuid() == 0 and shutil.which("mount"):
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mb}m", "tmpfs", str(folder)],
                                 capture_output=True).returncode == 0
    try:
        yield folder if mounted else None
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(folder)], capture_output=True)
