"""Bringing a run back from a machine: its weights, evaluations, exports and records, verified on arrival.

The remote lists its run's files with their SHA-256 (``yolostudio machine run-files RUN``, ``run_files``) and says
which checkpoints its own provenance check verifies (``core.run.provenance.verified`` with its workspace key: its
own worker wrote them); its ``tar`` streams them over the same ssh and ``core.remote.files.unpack`` writes each
here only when its bytes hash to the listed value. The copy lands in ``runs/RUN@MACHINE``. A fetched checkpoint
is foreign here (no record under this workspace's key) until the face adopts the ones the remote vouched for and
whose bytes arrived unchanged (``core.usecases.grants.adopt_fetched``); the others stay foreign and are asked
about before anything unpickles them. Files here are replaced whole; nothing there is changed.
"""

from __future__ import annotations

import json
import subprocess
import tarfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable

from core.i18n import tr
from core.remote.files import file_sha256, unpack, walk_files
from core.remote.machines import Machine
from core.remote.ssh import failure_words, remote_words, run_remote, ssh_argv
from core.run.provenance import RECORD_FILE, verified
from core.trust import is_checkpoint
from core.workspace import runs_dir

#: Run files never fetched: the remote's own provenance record (keyed there), its control and lock files.
LEFT_THERE = (RECORD_FILE, "control.jsonl", "worker.lock")


class FetchError(RuntimeError):
    """The run could not be listed or brought back; the message says why."""


def run_files(workspace: Path, run: str) -> dict[str, Any]:
    """The remote end: the run folder, its files' SHA-256, and the checkpoints its provenance check verifies."""
    folder = runs_dir(workspace) / run
    if not folder.is_dir():
        raise ValueError(f"no run named {run}")
    files = {rel: file_sha256(path) for rel, path in walk_files(folder) if path.name not in LEFT_THERE}
    own = [rel for rel in files if is_checkpoint(rel) and verified(workspace, folder / rel)]
    return {"folder": str(folder.absolute()), "files": files, "own": own}


@dataclass
class Fetched:
    folder: Path
    received: list[str] = field(default_factory=list)
    bad: list[str] = field(default_factory=list)
    vouched: list[Path] = field(default_factory=list)   # checkpoints the remote's provenance check verified


def local_folder(workspace: Path, machine: Machine, run: str) -> Path:
    return runs_dir(workspace) / f"{run}@{machine.name}"


class _Reader:
    """The ssh client's stdout for tarfile, counting bytes and stopping when cancelled."""

    def __init__(self, source: IO[bytes], progress: Callable[[int], None], cancel: threading.Event) -> None:
        self.source, self.progress, self.cancel, self.read_bytes = source, progress, cancel, 0

    def read(self, size: int = -1) -> bytes:
        if self.cancel.is_set():
            raise FetchError(tr("Fetch cancelled."))
        data = self.source.read(size)
        self.read_bytes += len(data)
        self.progress(self.read_bytes)
        return data


def fetch_run(machine: Machine, run: str, workspace: Path, *, progress: Callable[[int], None] = lambda n: None,
              cancel: threading.Event | None = None) -> Fetched:
    listed = run_remote(machine, remote_words(machine, "machine", "run-files", run), timeout_s=1800)
    if listed.returncode != 0:
        raise FetchError(": ".join(failure_words(machine, listed)) if listed.ssh_failed else listed.stderr.strip())
    try:
        doc = json.loads(listed.stdout)
        folder, files, own = str(doc["folder"]), dict(doc["files"]), set(doc["own"])
    except (ValueError, KeyError, TypeError) as exc:
        raise FetchError(tr("The file list from {name} is not readable: {reason}", name=machine.name,
                            reason=exc)) from exc
    target = local_folder(workspace, machine, run)
    target.mkdir(parents=True, exist_ok=True)
    result = Fetched(target)
    if not files:
        return result
    words = ["tar", "-cf", "-", "-C", folder, "--", *sorted(files)]
    process = subprocess.Popen(ssh_argv(machine, words), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    assert process.stdout is not None
    try:
        with tarfile.open(fileobj=_Reader(process.stdout, progress, cancel or threading.Event()), mode="r|") as tar:
            result.received, result.bad = unpack(tar, iter(tar), target, files)
    except (tarfile.TarError, ValueError, OSError) as exc:
        raise FetchError(tr("Fetching {run} from {name} failed: {reason}", run=run, name=machine.name,
                            reason=exc)) from exc
    finally:
        process.kill()
        process.wait()
    # vouched for there, and the bytes here are those it hashed: this side may adopt it (grants.adopt_fetched)
    result.vouched = [target / rel for rel in result.received if rel in own
                      and file_sha256(target / rel) == files[rel]]
    return result
