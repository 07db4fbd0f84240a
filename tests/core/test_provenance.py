"""core.run.provenance: a checkpoint is recorded before it replaces the previous one, so a kill at any moment of a
save leaves a file that verifies (the campaign's kills resume without asking), and only that file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from core.run.provenance import record_before_rename, record_checkpoint, sealed, verified


def _pending(target: Path, data: bytes) -> tuple[int, str]:
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    os.write(fd, data)
    return fd, tmp


def test_a_kill_between_the_record_and_the_rename_leaves_a_file_that_verifies(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    target = ws / "runs" / "exp" / "weights" / "last.pt"
    target.parent.mkdir(parents=True)
    target.write_bytes(b"epoch 1")
    record_checkpoint(ws, target)
    fd, tmp = _pending(target, b"epoch 2, longer")
    record_before_rename(ws, target, fd)
    os.close(fd)
    assert sealed(ws, target) and verified(ws, target)  # killed here: the previous file is still the app's own
    os.replace(tmp, target)
    assert sealed(ws, target) and verified(ws, target)  # renamed: the new one is
    fd, tmp = _pending(target, b"epoch 3")
    record_before_rename(ws, target, fd)
    os.close(fd)
    os.unlink(tmp)
    assert verified(ws, target)  # epoch 2 still verifies; epoch 1's entry is gone
    target.write_bytes(b"epoch 1")
    assert not verified(ws, target)


def test_another_file_of_the_same_size_and_time_does_not_verify(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    target = ws / "runs" / "exp" / "weights" / "best.pt"
    target.parent.mkdir(parents=True)
    target.write_bytes(b"AAAA")
    record_checkpoint(ws, target)
    stat = target.stat()
    target.write_bytes(b"BBBB")
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert sealed(ws, target) and not verified(ws, target)
