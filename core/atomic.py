"""Atomic writes for files the user owns: temp file + rename, and a backup before the first overwrite.

A crash, a full disk or a killed process mid-write must never leave a half-written settings file or
data.yaml behind: the new content is written beside the target, flushed to disk and renamed over it
(atomic on POSIX and on Windows with ``os.replace``). The first time an existing file is overwritten its
original is kept as ``<name>.bak`` so a user can always get back what they had.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path
from typing import BinaryIO, Iterator


def _read_umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


#: Read once at import: os.umask can only be read by setting it, which would race with other threads.
_UMASK = _read_umask()


@contextlib.contextmanager
def atomic_writer(path: Path, *, keep_mode: bool = True) -> Iterator[BinaryIO]:
    """A binary handle on a temporary file beside ``path`` that replaces ``path`` only when the block ends
    without an error: flushed, fsynced, renamed over it (and the rename made durable). On any failure —
    an exception, a full disk — the temporary file goes and ``path`` keeps its previous content.

    The one place for "write it whole or not at all": settings, data.yaml, checkpoints (``torch.save``
    through ``core.worker.compat``), exports."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        # mkstemp makes the file 0600: keep the mode the user's file had, or the usual one for a new file.
        if keep_mode and path.exists():
            shutil.copymode(path, tmp_name)
        else:
            os.chmod(tmp_name, 0o666 & ~_UMASK)
        os.replace(tmp_name, path)
        _fsync_folder(path.parent)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise


def _fsync_folder(folder: Path) -> None:
    """Make a rename durable (POSIX); a folder can't be opened for this on Windows, where it isn't needed."""
    if os.name == "nt":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes, *, backup: bool = True) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if backup and path.exists():
        backup_path = path.with_name(path.name + ".bak")
        if not backup_path.exists():
            shutil.copy2(path, backup_path)
    with atomic_writer(path) as handle:
        handle.write(data)


def atomic_write_text(path: Path, text: str, *, backup: bool = True, encoding: str = "utf-8") -> None:
    atomic_write_bytes(path, text.encode(encoding), backup=backup)
