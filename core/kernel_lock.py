"""An exclusive lock on a file held by the kernel, for anything one process at a time may change.

The run folder's ``worker.lock`` (``core.run.owner.RunLock``) and the weights store's manifest and download
locks (``core.weights.store``) use this one mechanism, owned here: ``try_lock``/``unlock`` (``flock`` on
POSIX, ``msvcrt.locking`` of one far byte on Windows; ``core.run.owner`` explains why a run folder locks its
directory) and the holder's record (``Owner``, ``read_owner``). The kernel releases the lock when its process
ends, however it ends, so there is no stale lock to take over — and so no takeover two processes can win at
once, which a lock *file* (``O_EXCL``, then "its holder is dead, delete it") allowed: both saw the dead holder,
one deleted the other's fresh file, and both went ahead. The lock file stays in place; it records its holder (pid, start
time) while held so a refusal can name it.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Protocol

import psutil

#: How often a waiting ``hold`` tries again.
RETRY_S = 0.05
#: The byte Windows locks: past anything written into the file, so the holder's record stays readable.
WINDOWS_LOCK_OFFSET = 1 << 20


class Lockable(Protocol):
    """What carries a lock: an open file, or (POSIX only) a directory's descriptor (``core.run.owner``)."""

    def fileno(self) -> int: ...


@dataclass(frozen=True)
class Owner:
    """The process holding a lock: its pid, start time and (a run folder's worker) job, as it recorded them."""

    pid: int | None
    create_time: float | None = None
    job: str = ""


def try_lock(handle: Lockable, *, shared: bool = False) -> bool:
    """Take the lock on ``handle`` without waiting (shared: a probe's); False when another holds it."""
    if os.name == "nt":
        import msvcrt

        handle.seek(WINDOWS_LOCK_OFFSET)  # type: ignore[attr-defined] - a file on Windows
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(handle.fileno(), (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def unlock(handle: Lockable) -> None:
    """Release what ``try_lock`` took on ``handle`` (closing the handle releases it too)."""
    if os.name == "nt":
        import msvcrt

        handle.seek(WINDOWS_LOCK_OFFSET)  # type: ignore[attr-defined] - a file on Windows
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
        except OSError:
            pass
    else:
        import fcntl

        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def read_owner(path: Path) -> Owner:
    """The holder a lock file records (pid, start time, job); ``Owner(None)`` when it records none."""
    try:
        with open(path, "rb") as handle:
            record = json.loads(handle.read(4096).split(b"\0", 1)[0] or b"{}")
    except (OSError, ValueError):
        record = {}
    record = record if isinstance(record, dict) else {}
    pid = record.get("pid")
    create_time = record.get("create_time")
    return Owner(pid if type(pid) is int and pid > 0 else None,
                 float(create_time) if isinstance(create_time, (int, float)) and not isinstance(create_time, bool)
                 else None, str(record.get("job") or ""))


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
        while not try_lock(handle):
            if time.monotonic() >= deadline:
                handle.close()
                raise LockBusy(self.path, read_owner(self.path))
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
        unlock(handle)
        handle.close()
