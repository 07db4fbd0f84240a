"""Opening a file the app stored (a run's evaluations, events, settings documents): regular files only.

Why: a FIFO, a character device or a socket can sit where a stored file should be (a run folder copied or
edited by hand, a hostile one). ``open()`` of a FIFO with no writer blocks for ever, and reading
``/dev/zero`` never ends: ``evaluate`` and ``evaluate --list`` hung on a FIFO named ``result.json``. Each reader
of a stored file opens it here: ``O_NONBLOCK`` so the open itself never waits, then ``fstat`` on the opened
descriptor (no gap between the check and the read, as ``stat`` then ``open`` would leave), and anything
but a regular file is refused as ``NotRegularFile`` — an ``OSError``, so a reader that already treats an
unreadable file as missing or damaged does the same here.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

from core.i18n import tr


class NotRegularFile(OSError):
    """Something other than a regular file (a FIFO, a device, a socket, a folder) is in the file's place."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.EINVAL, tr("{path} is not a regular file (a FIFO, a device or a folder is in its "
                                          "place)", path=path))
        self.path = path


def open_regular(path: Path | str) -> BinaryIO:
    """``path`` opened for binary reading when it is a regular file; ``NotRegularFile`` (or the open's own
    ``OSError``, e.g. ``FileNotFoundError``) otherwise. Never blocks on a FIFO."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile(Path(path))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)  # a regular file never blocks; keep the reads ordinary
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular_bytes(path: Path | str, max_bytes: int | None = None) -> bytes:
    """The whole content of a regular file (at most ``max_bytes + 1`` bytes are read, so a caller can tell
    "too large" from "exactly the limit" without reading a huge file whole)."""
    with open_regular(path) as handle:
        return handle.read() if max_bytes is None else handle.read(max_bytes + 1)


def read_regular_text(path: Path | str, encoding: str = "utf-8") -> str:
    """``read_regular_bytes`` decoded (``UnicodeDecodeError``, a ``ValueError``, on bad bytes)."""
    return read_regular_bytes(path).decode(encoding)
