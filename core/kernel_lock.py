"""An exclusive lock on a file held by the kernel, for anything one process at a time may change.

The run folder's ``worker.lock`` (``core.run.owner.RunLock``) and the weights store's manifest and download
locks (``core.weights.store``) use this one mechanism: ``flock`` on POSIX, ``msvcrt.locking`` on Windows
(``core.run.owner`` explains both). The kernel releases the lock when its process ends, however it ends, so
there is no stale lock to take over — and so no takeover two processes can win at once, which a lock
*file* (``O_EXCL``, then "its holder is dead, delete it") allowed: both saw the dead holder, one deleted the
other's fresh file, and both went ahead. The lock file stays in place; it records its holder (pid, start
time) while held so a refusal can name it.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import IO

import psutil

from core.run.owner import Owner, _read_owner, _try_lock, _unlock

#: How often a waiting ``hold`` tries again.
RETRY_S = 0.05


class LockBusy(RuntimeError):
    """The lock is held by another process (or another open of the file in this one)."""

    def __init__(self, path: Path, owner: Owner) -> None:
        super().__init__(f"{path} is held by pid {owner.pid}")
        self.path = Path(path)
        self.owner = owner


class KernelLock:
    """``with KernelLock(path, wait_s=…):`` holds the lock for the block, or raises ``LockBusy`` after ``wait_s``."""

    def __init__(self, path: Path, *, wait_s: float = 0.0) -> None:
        self.path = Path(path)
        self.wait_s = wait_s
        self._handle: IO[bytes] | None = None

    def __enter__(self) -> KernelLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+b")  # noqa: SIM115 - closed in __exit__
        deadline = time.monotonic() + self.wait_s
        while not _try_lock(handle):
            if time.monotonic() >= deadline:
                handle.close()
                raise LockBusy(self.path, _read_owner(self.path))
            time.sleep(RETRY_S)
        me = psutil.Process()
        handle.seek(0)
        handle.truncate(0)
        handle.write(json.dumps({"pid": me.pid, "create_time": me.create_time()}).encode())
        handle.flush()
        self._handle = handle
        return self

    def __exit__(self, *exc: object) -> None:
        handle, self._handle = self._handle, None
        if handle is None:
            return
        try:
            handle.seek(0)
            handle.truncate(0)  # no holder to name once released
        except OSError:
            pass
        _unlock(handle)
        handle.close()
