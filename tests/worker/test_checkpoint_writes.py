"""Checkpoint writes are whole or not at all: a failed, disk-full or SIGKILLed save keeps the previous last.pt.

The faults are injected at the exact moment, inside ``torch.save``: an object whose pickling raises, a
file system that fills (a small tmpfs where this process may mount one, else an injected ``ENOSPC``),
and an object whose pickling SIGKILLs the saving process halfway through the archive.
"""

from __future__ import annotations

import errno
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from core.run.checkpoint_file import checkpoint_problem
from tests.worker.tmpfs import small_tmpfs

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import errno, os, signal, sys
from pathlib import Path
folders = [Path(p) for p in sys.argv[1:]]  # failed save, SIGKILL mid-save, full disk (optional)
from core.worker import compat
compat.apply(folders[0] / "cache", trusted=folders)
import torch
from yolov5.utils.general import strip_optimizer
assert getattr(torch.save, "_yolostudio", False)

class Explodes:
    def __init__(self, kill):
        self.kill = kill
    def __reduce__(self):
        if self.kill:
            os.kill(os.getpid(), signal.SIGKILL)  # the worker dies halfway through the archive
        raise RuntimeError("PytorchStreamWriter failed writing file data/1: file write failed")

def good(target):
    torch.save({"epoch": 1, "model": torch.nn.Linear(2, 2), "optimizer": {"lr": 0.1}}, target)

target = folders[0] / "last.pt"
good(target)
try:
    torch.save({"epoch": 2, "model": torch.zeros(1000), "bad": Explodes(False)}, target)
except RuntimeError:
    pass
assert torch.load(target)["epoch"] == 1
strip_optimizer(target)  # yolov5's own in-place rewrite goes through the same atomic save
assert torch.load(target)["epoch"] == -1

if len(folders) > 2:
    full = folders[2] / "last.pt"
    good(full)
    try:
        torch.save({"epoch": 2, "model": torch.zeros(30 << 20, dtype=torch.uint8)}, full)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC and "needs about" in str(exc) and full.name in str(exc), exc
        print("disk_full:", exc, flush=True)
    else:
        raise AssertionError("a save larger than the disk succeeded")
    assert torch.load(full)["epoch"] == 1
print("ok", flush=True)
killed = folders[1] / "last.pt"
good(killed)
torch.save({"epoch": 2, "model": torch.zeros(1000), "bad": Explodes(True)}, killed)
"""


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_failed_a_disk_full_and_a_killed_save_each_keep_the_previous_checkpoint(tmp_path):
    """One fresh interpreter (the patches are global): a failed save, a full disk, a SIGKILL halfway."""
    failed, killed = tmp_path / "failed", tmp_path / "killed"
    failed.mkdir()
    killed.mkdir()
    with small_tmpfs(tmp_path / "disk", size_mb=8) as disk:
        folders = [failed, killed, *([disk] if disk is not None else [])]
        result = subprocess.run([sys.executable, "-c", SCRIPT, *map(str, folders)], cwd=ROOT, capture_output=True,
                                text=True, timeout=300)
        assert result.returncode == -signal.SIGKILL and "ok" in result.stdout, result.stderr[-3000:]
        for folder in folders:
            assert checkpoint_problem(folder / "last.pt") is None, folder  # the previous checkpoint, whole
            assert _leftovers(folder) == [] or folder == killed  # a kill leaves its temp file, never last.pt
        if disk is not None:
            assert "disk_full:" in result.stdout


def test_an_injected_enospc_is_a_disk_full_error_with_the_space_needed(tmp_path):
    from core.disk_space import is_disk_full
    from core.training.errors import classify_failure
    from core.worker.compat import save_checkpoint

    target = tmp_path / "best.pt"
    target.write_bytes(b"previous" * 1000)

    def failing_save(obj, handle):
        handle.write(b"x" * 5000)
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OSError) as raised:
        save_checkpoint(failing_save, {}, target)
    assert is_disk_full(raised.value, tmp_path) and "needs about 8 kB" in str(raised.value)
    assert target.read_bytes() == b"previous" * 1000 and _leftovers(tmp_path) == []
    assert classify_failure("OSError", str(raised.value)).kind == "disk_full"


@pytest.mark.parametrize(("content", "whole"), [(b"", False), (b"PK\x03\x04 torn", False), (None, True)])
def test_checkpoint_problem_tells_a_torn_file_from_a_whole_one(tmp_path, content, whole):
    import zipfile

    path = tmp_path / "last.pt"
    if content is None:
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("last/data.pkl", b"\x80\x02}q\x00.")
            archive.writestr("last/data/0", b"\0" * 4096)
        truncated = tmp_path / "cut.pt"
        truncated.write_bytes(path.read_bytes()[:-30])
        assert checkpoint_problem(truncated) is not None
    else:
        path.write_bytes(content)
    assert (checkpoint_problem(path) is None) is whole
