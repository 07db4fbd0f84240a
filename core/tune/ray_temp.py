"""Where a local search's Ray keeps its session folder: under ``TMPDIR``, owned, and removed when its worker died.

Why: the tune worker made ``/tmp/ysray-*`` (a fixed ``/tmp``, whatever ``TMPDIR`` said) and removed it only in a
``finally`` — a killed worker left Ray's whole session folder (logs, sockets, spilled objects) behind for good.
The folder is now a scratch folder of ``core.scratch_dirs`` (its owner's pid and start time recorded), so the
next search removes those of dead workers, and ``yolostudio tune`` does as soon as its worker has ended.

``TMPDIR`` is used when Ray's socket paths under it still fit ``AF_UNIX``'s 107 bytes (Ray refuses longer ones:
``<temp>/session_<date>_<time>_<pid>/sockets/plasma_store`` adds about 64 characters); else ``/tmp``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from core.scratch_dirs import make_scratch, remove_stale

PREFIX = "ysray-"
#: What Ray adds below our folder for its longest socket path, and the folder's own name (``ysray-PID-XXXXXXXX``).
RAY_SOCKET_TAIL = 64 + 24
SUN_PATH_MAX = 107


def ray_temp_root() -> Path:
    """``TMPDIR`` (``tempfile.gettempdir()``) when Ray's sockets fit under it, else ``/tmp``."""
    root = Path(tempfile.gettempdir())
    return root if len(str(root)) + RAY_SOCKET_TAIL <= SUN_PATH_MAX else Path("/tmp")


def make_ray_temp() -> Path:
    """A new session folder for a local Ray, owned by this process (dead workers' folders removed first)."""
    return make_scratch(ray_temp_root(), PREFIX)


def remove_dead_ray_temps() -> list[Path]:
    """Remove the session folders whose worker is gone (a killed search's); the folders removed."""
    return remove_stale(ray_temp_root(), PREFIX)
