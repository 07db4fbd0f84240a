"""A full disk, said in words: how much space a write needed and how much is free, as ``ENOSPC``.

A write that fails for lack of space shows up in many disguises — ``OSError`` errno 28 from Python, a
``RuntimeError`` from torch's zip writer ("PytorchStreamWriter failed writing file", "enforce fail …
unexpected pos"), an ``onnx`` or TensorRT serialisation error. ``disk_full_error`` turns a failed write
into one ``OSError(ENOSPC)`` whose text names the file, the space it needed and the space free, which
``core.training.errors`` classifies as ``disk_full`` for every job. ``check_free_space`` refuses a write before it
starts when the folder plainly lacks the room (export checks first, instead of failing halfway).
"""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

from core.i18n import tr

#: Below this much free space a failed write is taken for a full disk whatever its words were.
NEARLY_FULL_BYTES = 64 << 20
_WRITE_FAILURE_WORDS = ("file write failed", "unexpected pos", "No space left", "Errno 28", "write failed")


def free_bytes(folder: Path) -> int | None:
    """Free space where ``folder`` (or its nearest existing parent) lives; None when it can't be read."""
    folder = Path(folder)
    for candidate in (folder, *folder.parents):
        try:
            return shutil.disk_usage(candidate).free
        except OSError:
            continue
    return None


def megabytes(size: int) -> str:
    return f"{size / (1 << 20):.0f} MB" if size >= (1 << 20) else f"{size / 1024:.0f} kB"


def is_disk_full(exc: BaseException, folder: Path) -> bool:
    """Did this write fail for lack of space? errno 28/122 (quota) says so; other write errors count when
    the folder is (nearly) full now."""
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", -1)):
        return True
    if not isinstance(exc, (OSError, RuntimeError)):
        return False
    free = free_bytes(folder)
    return free is not None and free < NEARLY_FULL_BYTES and any(w in str(exc) for w in _WRITE_FAILURE_WORDS)


def disk_full_error(path: Path, needed: int | None) -> OSError:
    """``OSError(ENOSPC)`` saying which file could not be written, what it needed and what is free."""
    path = Path(path)
    free = free_bytes(path.parent)
    message = tr("No space left on device: writing {file} needs about {needed}; {free} free in {folder}.",
                 file=path.name, needed=megabytes(needed) if needed else tr("more space"),
                 free=megabytes(free) if free is not None else tr("no space"), folder=path.parent)
    return OSError(errno.ENOSPC, message, str(path))


def check_free_space(path: Path, needed: int) -> None:
    """Raise ``disk_full_error`` now when ``path``'s folder has less than ``needed`` bytes free."""
    free = free_bytes(Path(path).parent)
    if free is not None and free < needed:
        raise disk_full_error(path, needed)


def written_size(path: Path) -> int:
    """The size of a file (0 when there is none): what the next version of it will need, roughly."""
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


class SpaceReserve:
    """A little disk space set aside while a worker runs, given up when the disk fills so the run's last
    words (its ``error`` and ``done`` events) can still be written (``EventWriter(on_disk_full=…)``)."""

    SIZE = 1 << 20

    def __init__(self, path: Path, size: int = SIZE) -> None:
        self.path = Path(path)
        try:
            with open(self.path, "wb") as handle:
                handle.write(b"\0" * size)  # written, not sparse: the blocks are really taken
                handle.flush()
                os.fsync(handle.fileno())
            self.held = True
        except OSError:
            self.path.unlink(missing_ok=True)  # already full: nothing to set aside
            self.held = False

    def release(self) -> bool:
        """Give the space back; True when there was some to give."""
        held, self.held = self.held, False
        try:
            self.path.unlink()
        except OSError:
            return False
        return held
