"""The contents of a yolov5 label cache kept as plain arrays in the check's own cache, so a re-check does not
unpickle it again.

Why: unpickling the ``train.cache`` of 20,000 images took ~0.12 s — more than the whole rest of a re-check
(~0.09 s). The snapshot (an ``.npz`` read with ``allow_pickle=False``: nothing in it can run code) is used while
the yolov5 cache file still has the size, mtime and inode it had when it was read; yolov5 writes a new cache by
rename, so a rewritten cache always has another inode or mtime.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np

from core.atomic import atomic_write_bytes
from core.dataset.yolo_cache import Contents, read_contents

_ERRORS = "surrogateescape"


def contents_of(cache: Path, snapshot: Path | None) -> Contents:
    """The cache's contents, from ``snapshot`` while the cache is unchanged, else read (and the snapshot written)."""
    try:
        st = os.stat(cache)
    except OSError:
        return Contents(unsafe="cannot be read")
    stamp = np.array([st.st_size, st.st_mtime_ns, st.st_ino], dtype=np.int64)
    if snapshot is not None:
        kept = _load(snapshot, stamp)
        if kept is not None:
            return kept
    contents = read_contents(cache)
    if snapshot is not None:
        _save(snapshot, stamp, contents)
    return contents


def _load(snapshot: Path, stamp: np.ndarray) -> Contents | None:
    try:
        with np.load(snapshot, allow_pickle=False) as data:
            if not np.array_equal(data["stamp"], stamp):
                return None
            meta = bytes(data["meta"]).decode("utf-8", _ERRORS).split("\0")
            names = bytes(data["images"]).decode("utf-8", _ERRORS)
            version = float(meta[1]) if meta[1] else None
            return Contents(meta[0], version, meta[2] or None, names.split("\0") if names else [],
                            data["counts"].astype(np.int64), data["rows"].astype(np.float32).reshape(-1, 5))
    except (OSError, ValueError, KeyError, IndexError):
        return None


def _save(snapshot: Path, stamp: np.ndarray, contents: Contents) -> None:
    version = f"{contents.version!r}" if isinstance(contents.version, float) else ""
    meta = "\0".join([contents.unsafe.replace("\0", " "), version, contents.hash if isinstance(contents.hash, str) else ""])
    buffer = io.BytesIO()
    np.savez(buffer, stamp=stamp, meta=np.frombuffer(meta.encode("utf-8", _ERRORS), dtype=np.uint8),
             images=np.frombuffer("\0".join(contents.images).encode("utf-8", _ERRORS), dtype=np.uint8),
             counts=contents.counts, rows=contents.rows)
    try:
        atomic_write_bytes(snapshot, buffer.getvalue(), backup=False)
    except OSError:
        pass  # without a snapshot the next check reads the cache again
