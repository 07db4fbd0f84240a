"""The (size, mtime) of every image and label: all a re-check must do for each file, spread over two cores.

Why a helper interpreter: a re-check reads only what changed, but it must ``stat`` every file to know what
changed, and on a VM with slow system calls 40,000 of them take ~0.1 s on one core — most of a re-check.
Python threads make it slower (each ``stat`` hands the GIL back and forth), so for a large dataset half of
the paths go to a bare interpreter (``-I -S``: no site, no app imports, it starts in milliseconds) that
reads them from stdin and writes binary (size, mtime) pairs back, while this process stats the other half.
In a frozen app, on one core, or on any failure, everything is stat'ed here: the result is the same.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from array import array

import numpy as np

HELPER_MIN = 8000  # below this many files, starting the helper costs more than it saves
STEAL_BLOCK = 256
_ERRORS = "surrogatepass" if os.name == "nt" else "surrogateescape"  # paths that are not valid UTF-8
HELPER = r"""
import os, sys
from array import array
paths = sys.stdin.buffer.read().decode("utf-8", sys.argv[1]).split("\0")
out = array("q")
put, stat = out.append, os.stat
for path in paths:
    try:
        st = stat(path)
        put(st.st_size)
        put(st.st_mtime_ns)
    except (OSError, ValueError):
        put(-1)
        put(-1)
sys.stdout.buffer.write(out.tobytes())
"""


def stat_keys(images: list[str], labels: list[str]) -> np.ndarray:
    """``(N, 4)`` int64: image size, image mtime_ns, label size, label mtime_ns; -1 where a file is missing."""
    n = len(images)
    pairs = stat_pairs(images + labels)
    return np.concatenate([pairs[:n], pairs[n:]], axis=1)


def stat_pairs(paths: list[str]) -> np.ndarray:
    """``(len(paths), 2)`` int64 of (size, mtime_ns), following links as yolov5's reads do."""
    if len(paths) < HELPER_MIN or not _helper_possible():
        return _here(paths)
    half = len(paths) // 2
    helper = _Helper(paths[half:])
    mine = _here(paths[:half])
    # Then take the helper's paths from the end, a block at a time, until we meet it: a helper that is
    # slow to start or short of CPU costs (almost) nothing.
    stolen: list[np.ndarray] = []
    end = len(paths)
    while end > half:
        reached = half + (0 if helper.failed else helper.done)
        if reached >= end:
            break
        start = max(reached, end - STEAL_BLOCK)
        stolen.append(_here(paths[start:end]))
        end = start
    theirs = helper.stop(end - half)
    if theirs is None:
        theirs = _here(paths[half:end])
    return np.concatenate([mine, theirs, *reversed(stolen)])


def _here(paths: list[str]) -> np.ndarray:
    values = array("q")
    put, stat = values.append, os.stat
    for path in paths:
        try:
            st = stat(path)
            put(st.st_size)
            put(st.st_mtime_ns)
        except (OSError, ValueError):
            put(-1)
            put(-1)
    return np.frombuffer(values, dtype=np.int64).reshape(-1, 2) if paths else np.zeros((0, 2), dtype=np.int64)


def _helper_possible() -> bool:
    return not getattr(sys, "frozen", False) and (os.cpu_count() or 1) > 1 and bool(sys.executable)


class _Helper:
    """The helper process for ``paths``, started and read on a thread (starting a process and pipe I/O wait
    outside the GIL, so this process stats meanwhile); ``done`` counts the results received so far."""

    def __init__(self, paths: list[str]) -> None:
        self._paths = paths
        self._out = bytearray()
        self._proc: subprocess.Popen | None = None
        self._stopping = False
        self._failed = False
        self.done = 0
        self._thread = threading.Thread(target=self._run, name="stat-helper", daemon=True)
        self._thread.start()

    @property
    def failed(self) -> bool:
        return self._failed

    def _run(self) -> None:
        try:
            data = "\0".join(self._paths).encode("utf-8", _ERRORS)
            self._proc = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", HELPER, _ERRORS], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0))
            assert self._proc.stdin is not None and self._proc.stdout is not None
            if self._stopping:
                return
            with self._proc.stdin:
                self._proc.stdin.write(data)
            while not self._stopping:
                chunk = self._proc.stdout.read1(1 << 16)
                if not chunk:
                    break
                self._out += chunk
                self.done = len(self._out) // 16
        except (OSError, ValueError, UnicodeError):
            self._failed = True

    def stop(self, count: int) -> np.ndarray | None:
        """The first ``count`` results (None if the helper could not deliver them); ends the helper."""
        self._stopping = True
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()  # also ends a read waiting in the thread
        self._thread.join()
        if self._proc is not None:
            if self._proc.poll() is None:
                self._proc.kill()  # started after the first look
            self._proc.wait()
            if self._proc.stdout is not None:
                self._proc.stdout.close()
        if count == 0:
            return np.zeros((0, 2), dtype=np.int64)
        if self._failed or len(self._out) < 16 * count:
            return None
        return np.frombuffer(bytes(self._out[:16 * count]), dtype=np.int64).reshape(-1, 2)
