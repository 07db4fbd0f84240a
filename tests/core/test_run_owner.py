"""One worker per run folder: the OS lock (released by the kernel on death) and liveness that names the process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from core.run.owner import RunBusy, RunLock, is_worker_command, lock_owner, worker_alive

HOLDER = """
import sys
sys.path.insert(0, sys.argv[2])
from core.run.owner import RunLock
lock = RunLock.acquire(sys.argv[1], job="train")
print("locked", flush=True)
sys.stdin.read()
"""


def _holder(run_dir: Path) -> subprocess.Popen:
    """Another process that owns ``run_dir`` until its stdin closes (or it is killed)."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(run_dir), str(Path(__file__).parents[2])],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "locked"
    return proc


def test_a_second_owner_is_refused_with_the_first_ones_pid_and_a_kill_frees_the_folder(tmp_path):
    proc = _holder(tmp_path)
    try:
        owner = lock_owner(tmp_path)
        assert owner is not None and owner.pid == proc.pid and owner.job == "train"
        assert owner.create_time == pytest.approx(psutil.Process(proc.pid).create_time(), abs=1.0)
        with pytest.raises(RunBusy) as refused:
            RunLock.acquire(tmp_path, wait_s=0.0)
        assert refused.value.owner.pid == proc.pid
    finally:
        os.kill(proc.pid, signal.SIGKILL)  # no clean-up of its own: the kernel releases the lock
        proc.wait()
        proc.stdin.close()
        proc.stdout.close()
    assert lock_owner(tmp_path) is None
    lock = RunLock.acquire(tmp_path, job="resume", wait_s=0.0)
    try:
        record = json.loads((tmp_path / "worker.lock").read_bytes())
        assert record["pid"] == os.getpid() and record["job"] == "resume"
    finally:
        lock.release()
    assert lock_owner(tmp_path) is None


def test_a_probe_does_not_release_the_owners_lock(tmp_path):
    lock = RunLock.acquire(tmp_path, wait_s=0.0)
    try:
        for _ in range(3):
            assert lock_owner(tmp_path) is not None  # same process, another open file: still held
    finally:
        lock.release()


def test_a_folder_never_locked_has_no_owner(tmp_path):
    assert lock_owner(tmp_path) is None


@pytest.mark.parametrize("pid", [1, 0, -5, None, 2**70])
def test_pid_one_a_negative_or_a_huge_pid_is_never_a_live_worker(pid):
    create_time = psutil.Process(1).create_time() if pid == 1 else None
    assert worker_alive(pid, create_time) is False


def test_this_process_is_alive_but_not_a_worker():
    me = psutil.Process()
    assert worker_alive(me.pid, me.create_time()) is False


@pytest.mark.parametrize(("cmdline", "expected"), [
    (["python", "-m", "core.worker", "train", "spec.json"], True),
    (["C:\\py\\python.exe", "C:\\app\\core\\worker\\__main__.py", "train"], True),
    (["python", "-m", "pytest"], False),
    (["/sbin/init"], False),
])
def test_worker_command_lines(cmdline, expected):
    assert is_worker_command(cmdline) is expected


@pytest.mark.skipif(os.name == "nt", reason="Windows cannot delete a file another process holds open")
def test_deleting_worker_lock_during_a_run_does_not_let_a_second_worker_in(tmp_path):
    proc = _holder(tmp_path)
    try:
        (tmp_path / "worker.lock").unlink()  # a user's clean-up during the run
        owner = lock_owner(tmp_path)
        assert owner is not None  # still owned: the lock is on the folder, the file was only its record
        with pytest.raises(RunBusy):
            RunLock.acquire(tmp_path, job="resume", wait_s=0.0)
        assert not (tmp_path / "worker.lock").exists()  # the refused worker left no empty record behind
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stdin.close()
        proc.stdout.close()
    lock = RunLock.acquire(tmp_path, job="resume", wait_s=0.0)  # the owner gone, the folder is free again
    try:
        assert json.loads((tmp_path / "worker.lock").read_bytes())["job"] == "resume"
    finally:
        lock.release()
