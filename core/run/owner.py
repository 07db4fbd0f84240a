"""Who owns a run folder: one worker at a time, held by an OS lock, and whether a recorded pid is that worker.

**The lock.** A worker that writes into a run folder (train, resume, finish) first takes an exclusive,
non-blocking lock on the run folder (see "What a user cannot delete") and holds it for its whole life
(``RunLock``). The kernel releases it when the process ends, however it ends (SIGKILL, crash, power loss
of the process), so a killed worker never leaves a stale lock behind. A second worker for the same
folder — a second ``resume``, the GUI and a terminal at once — fails to take it and is refused with the
owner's pid, which the owner wrote into ``<run>/worker.lock`` (``lock_owner``). POSIX uses ``flock`` (per
open file, so a reader in the same process cannot release it, and data-loader processes forked by the
worker close their copy so they never hold it after the worker is gone); Windows uses ``msvcrt.locking``
on one byte far past the recorded pid, so the pid stays readable. The locking itself (``try_lock``,
``unlock``) and the holder's record (``Owner``, ``read_owner``) are ``core.kernel_lock``'s, the one
mechanism the weights store's locks use too; this module adds what only a run folder has.

**What a user cannot delete.** ``worker.lock`` is a file in the folder: deleting it during a run (by hand, a
clean-up script) used to let a second worker open a fresh ``worker.lock``, lock it and train the same run. On
POSIX the lock is therefore held on the *run directory's own descriptor* (``flock`` works on a directory);
the folder cannot be removed from under the run without removing the run itself, and ``worker.lock`` is only
the readable record of who holds it — its loss costs the owner's pid in the refusal, never the refusal.
On Windows an open file cannot be deleted (Python opens without ``FILE_SHARE_DELETE``), so the byte lock
on ``worker.lock`` already has that property.

**Liveness.** A pid alone proves nothing: pids are recycled, and a hand-edited or copied events file
can name pid 1. ``worker_alive`` asks that the process exists, is not a zombie, started when the event
says (same create time) *and* is a YOLO Studio worker (``-m core.worker`` on its command line).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import IO

import psutil

from core.kernel_lock import Owner, read_owner, try_lock, unlock

LOCK_FILE = "worker.lock"
#: How long a worker retries a lock held for an instant by a reader probing it (``lock_owner``).
ACQUIRE_WAIT_S = 2.0
#: What a worker's command line contains (``core.job.launch.worker_argv``: python -m core.worker JOB SPEC).
WORKER_MODULE = "core.worker"


class RunBusy(RuntimeError):
    """The run folder is owned by another live worker."""

    def __init__(self, run_dir: Path, owner: Owner) -> None:
        super().__init__(f"{run_dir} is owned by worker pid {owner.pid}")
        self.run_dir = Path(run_dir)
        self.owner = owner


class _DirHandle:
    """The run directory opened for its descriptor alone: what POSIX locks (see the module's first screen)."""

    def __init__(self, run_dir: Path) -> None:
        self._fd: int | None = os.open(run_dir, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))

    def fileno(self) -> int:
        assert self._fd is not None
        return self._fd

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)

    def __enter__(self) -> _DirHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _lock_handle(run_dir: Path, lock_path: Path, mode: str) -> IO[bytes] | _DirHandle:
    """What carries the lock: the directory on POSIX, ``worker.lock`` on Windows (``OSError`` if absent)."""
    if os.name == "nt":
        return open(lock_path, mode)  # noqa: SIM115 - the caller closes it
    return _DirHandle(run_dir)


def lock_owner(run_dir: Path) -> Owner | None:
    """The worker that owns ``run_dir`` now, or None when no process holds its lock.

    A probe takes a *shared* lock for an instant on POSIX (a worker retries for ``ACQUIRE_WAIT_S``), so
    listing runs never makes a worker starting at that moment fail."""
    path = Path(run_dir) / LOCK_FILE
    try:
        handle = _lock_handle(Path(run_dir), path, "rb")
    except OSError:
        return None  # no folder (POSIX) or no lock file (Windows): no worker owns it
    with handle:
        if try_lock(handle, shared=True):
            unlock(handle)
            return None
    return read_owner(path)


class RunLock:
    """The run folder's lock, held by this process until ``release()`` or its end."""

    def __init__(self, run_dir: Path, handle: IO[bytes], held: IO[bytes] | _DirHandle) -> None:
        self.run_dir = Path(run_dir)
        self._handle: IO[bytes] | None = handle  # worker.lock: the owner's record
        self._held: IO[bytes] | _DirHandle | None = held  # what carries the lock (the folder on POSIX)
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=self._drop_in_child)

    def _drop_in_child(self) -> None:
        """A forked child (a data-loader worker) must not keep the lock alive after this process dies:
        closing its copy of the descriptor drops its reference without unlocking ours."""
        for handle in {id(h): h for h in (self._handle, self._held) if h is not None}.values():
            try:
                handle.close()
            except OSError:
                pass
        self._handle = self._held = None

    @classmethod
    def acquire(cls, run_dir: Path, *, job: str = "", wait_s: float = ACQUIRE_WAIT_S) -> RunLock:
        """Take the lock or raise ``RunBusy`` naming the owner (retried for ``wait_s``: a probe's instant)."""
        path = Path(run_dir) / LOCK_FILE
        # Held for the process's life. On POSIX the record is opened only once the folder is locked, so a
        # refused worker never leaves an empty worker.lock in place of the owner's record.
        held = open(path, "a+b") if os.name == "nt" else _DirHandle(Path(run_dir))  # noqa: SIM115
        deadline = time.monotonic() + wait_s
        while not try_lock(held):
            if time.monotonic() >= deadline:
                held.close()
                raise RunBusy(Path(run_dir), read_owner(path))
            time.sleep(0.05)
        handle = held if os.name == "nt" else open(path, "a+b")  # noqa: SIM115
        me = psutil.Process()
        record = json.dumps({"pid": me.pid, "create_time": me.create_time(), "job": job}).encode()
        handle.seek(0)
        handle.truncate(0)
        handle.write(record)
        handle.flush()
        return cls(Path(run_dir), handle, held)

    def release(self) -> None:
        if self._held is not None:
            unlock(self._held)
        for handle in {id(h): h for h in (self._handle, self._held) if h is not None}.values():
            handle.close()
        self._handle = self._held = None


def process_alive(pid: int | None, create_time: float | None) -> bool:
    """True when ``pid`` runs and is the same process that started then (pids get recycled)."""
    if not pid or type(pid) is not int or pid < 0:
        return False
    try:
        proc = psutil.Process(pid)
        if proc.status() == psutil.STATUS_ZOMBIE:
            return False
        return create_time is None or abs(proc.create_time() - create_time) < 1.0
    except (psutil.Error, OverflowError, ValueError):
        return False


def is_worker_command(cmdline: list[str]) -> bool:
    """A YOLO Studio worker: ``python -m core.worker JOB SPEC`` (or ``core/worker/__main__.py``)."""
    return any(arg == WORKER_MODULE or arg.replace("\\", "/").endswith("core/worker/__main__.py") for arg in cmdline)


def worker_alive(pid: int | None, create_time: float | None) -> bool:
    """True when ``pid`` is still the YOLO Studio worker that started at ``create_time``.

    Without a create time the pid can't be told from a recycled one, so the command line must say it is
    a worker; with one, both must agree. Pid 1, or a pid now held by another program, is never a worker."""
    if not process_alive(pid, create_time):
        return False
    try:
        return is_worker_command(psutil.Process(pid).cmdline())
    except psutil.Error:
        return False



def busy_words(run_dir: Path, owner: Owner) -> tuple[str, str]:
    """(message, hint) when a run folder is owned by another worker — the one wording, CLI, GUI and worker."""
    from core.i18n import tr

    name = Path(run_dir).name
    pid = owner.pid if owner.pid is not None else tr("unknown")
    return (tr("Run {name} is being written by another worker (pid {pid}); one run folder has one worker at a "
               "time.", name=name, pid=pid),
            tr("Follow it with 'yolostudio attach {name}' (or open it on the Runs page), or stop it with "
               "'yolostudio stop {name}' and resume it afterwards.", name=name))
