"""Reading one label file the way yolov5 finds it, within a bound: never a hang, never gigabytes.

yolov5 7.0.14 (``verify_image_label``) uses a label only when ``os.path.isfile(lb_file)`` — a regular file,
links followed — and then reads it whole (``f.read().strip().splitlines()``). So a label that is a pipe, a
device (a link to ``/dev/zero``) or a socket is simply *no label* to yolov5: the image trains as a
background. Reading such a name here would wait forever (a FIFO) or fill memory (``/dev/zero``), so it is
opened without blocking, checked with ``fstat`` on the open descriptor (no window between check and read)
and never read.

``MAX_LABEL_BYTES`` bounds what is read. Why 1 MiB: a box row is about 40 bytes, so 1 MiB holds over 25,000
boxes for one image (yolov5's own detections are capped at ``max_det=300`` per image); a bigger file is not an
image's labels but something else under a label's name. Parsing a 1 MiB label of box rows peaked at 74 MB
for the whole process here (4 MiB: 228 MB), so one file's check stays within ~100 MB; a 200 MB label had
taken over 300 s and 16.5 GB. yolov5 itself would still read such a file whole at every cache build.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass

MAX_LABEL_BYTES = 1 << 20
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)


@dataclass(frozen=True)
class LabelRead:
    """``data`` is the file's bytes when it is a regular file within the bound; otherwise None with
    ``kind``: ``missing`` (yolov5: no label), ``special`` (not a regular file: yolov5 finds no label
    either), ``too-large`` (``size`` bytes) or ``unreadable`` (``reason``)."""

    data: bytes | None
    kind: str = ""
    size: int = 0
    reason: str = ""


def read_label_file(path: str, limit: int = MAX_LABEL_BYTES) -> LabelRead:
    """The bytes of the label at ``path`` if yolov5 would read it and it is at most ``limit`` bytes."""
    try:
        fd = os.open(path, _FLAGS)
    except FileNotFoundError:
        return LabelRead(None, "missing")
    except OSError as exc:
        return LabelRead(None, "unreadable", reason=exc.strerror or str(exc))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return LabelRead(None, "special")
        if st.st_size > limit:
            return LabelRead(None, "too-large", size=st.st_size)
        chunks: list[bytes] = []
        got = 0
        while got <= limit:  # a file growing while it is read still stops at the bound
            chunk = os.read(fd, min(1 << 16, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            return LabelRead(None, "too-large", size=got)
        return LabelRead(b"".join(chunks))
    except OSError as exc:
        return LabelRead(None, "unreadable", reason=exc.strerror or str(exc))
    finally:
        os.close(fd)


def is_label_file(path: str) -> bool:
    """What yolov5 asks before it reads a label: a regular file (links followed)."""
    return os.path.isfile(path)
