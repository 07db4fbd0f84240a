"""Sending a dataset to a machine: only the files whose SHA-256 differs there, as one tar stream over ssh.

``plan_sync`` reads the data.yaml (the one reader, ``core.dataset.data_yaml``), takes the dataset's folder (its
``path:``, or the data.yaml's folder) and hashes every file under it here; the remote lists its hashes
(``yolostudio machine files-hash KEY``) and ``send`` streams only the files that differ, with a manifest of their
hashes, into ``yolostudio machine files-receive KEY`` there (``core.remote.files.receive`` verifies each file
before it replaces the old one, deletes files gone here, and writes ``.yolostudio-data.yaml`` whose ``path:`` is
the folder there). The remote folder is ``<remote workspace>/datasets/<folder name>-<8 hex of this path>``.
Progress is bytes sent; Cancel kills the ssh client (what was sent whole stays, verified). Files here are only
read: the local dataset is never modified.
"""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import tarfile
import threading
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO, Any, Callable

from core.i18n import tr
from core.dataset.data_yaml import read_data_yaml
from core.remote.files import MANIFEST, folder_hashes
from core.remote.machines import Machine
from core.remote.ssh import failure_words, remote_words, run_remote, ssh_argv

SPLITS = ("train", "val", "test")


class SyncError(RuntimeError):
    """A dataset that cannot be synced, or a sync that failed; the message says which and why."""


class SyncCancelled(SyncError):
    pass


@dataclass
class SyncPlan:
    data_yaml: Path
    root: Path
    key: str
    local: dict[str, str]
    remote_yaml: dict[str, Any]
    remote: dict[str, str] = field(default_factory=dict)

    @property
    def to_send(self) -> list[str]:
        return [rel for rel, digest in self.local.items() if self.remote.get(rel) != digest]

    @property
    def to_delete(self) -> list[str]:
        return sorted(set(self.remote) - set(self.local))

    def bytes_to_send(self) -> int:
        return sum((self.root / rel).stat().st_size for rel in self.to_send)


def remote_folder_text(machine: Machine, key: str) -> str:
    """The dataset's folder on the machine, as the user would find it there."""
    return str(PurePosixPath(machine.remote_dir) / "datasets" / key)


def plan_sync(data_yaml: Path) -> SyncPlan:
    """Hash the dataset here and work out the data.yaml the remote trains from; ``SyncError`` when it cannot go."""
    judged = read_data_yaml(Path(data_yaml))
    if judged.doc is None or judged.spec is None or not isinstance(judged.doc.data, dict):
        raise SyncError(tr("{path} cannot be read as a data.yaml: {reason}", path=data_yaml, reason="; ".join(
            f.message for f in judged.findings) or "?"))
    spec, root = judged.spec, judged.spec.root.absolute()
    doc = {k: v for k, v in judged.doc.data.items() if k != "download"}
    for split in SPLITS:
        if split not in spec.splits:
            continue
        relative = []
        for path in spec.splits[split].paths:
            try:
                relative.append(Path(path).absolute().relative_to(root).as_posix())
            except ValueError:
                raise SyncError(tr("The {split} images ({path}) are outside the dataset folder {root}: only one "
                                   "folder is sent.", split=split, path=path, root=root)) from None
        doc[split] = relative if isinstance(doc.get(split), list) else relative[0]
    if not root.is_dir():
        raise SyncError(tr("The dataset folder {root} does not exist.", root=root))
    key = f"{root.name or 'dataset'}-{hashlib.sha256(str(root).encode()).hexdigest()[:8]}"
    return SyncPlan(Path(data_yaml).absolute(), root, key, folder_hashes(root), doc)


def read_remote_hashes(machine: Machine, plan: SyncPlan) -> None:
    result = run_remote(machine, remote_words(machine, "machine", "files-hash", plan.key), timeout_s=1800)
    if result.returncode != 0:
        raise SyncError(": ".join(failure_words(machine, result)))
    try:
        plan.remote = dict(json.loads(result.stdout)["files"])
    except (ValueError, KeyError, TypeError) as exc:
        raise SyncError(tr("The file list from {name} is not readable: {reason}", name=machine.name,
                           reason=exc)) from exc


class _Counting(io.RawIOBase):
    """The ssh client's stdin, counting what goes through and stopping when cancelled."""

    def __init__(self, sink: IO[bytes], progress: Callable[[int], None], cancel: threading.Event) -> None:
        self.sink, self.progress, self.cancel, self.sent = sink, progress, cancel, 0

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if self.cancel.is_set():
            raise SyncCancelled(tr("Sync cancelled."))
        self.sink.write(data)
        self.sent += len(data)
        self.progress(self.sent)
        return len(data)


def send(machine: Machine, plan: SyncPlan, *, progress: Callable[[int], None] = lambda n: None,
         cancel: threading.Event | None = None) -> dict[str, Any]:
    """Stream the changed files to the machine and return its account (files received, deleted, data.yaml there).
    ``SyncError`` when a file arrived different from what was sent, or the link failed; ``SyncCancelled``."""
    cancel = cancel or threading.Event()
    manifest = {"files": {rel: plan.local[rel] for rel in plan.to_send}, "delete": plan.to_delete,
                "data_yaml": plan.remote_yaml, "source": str(plan.data_yaml)}
    process = subprocess.Popen(ssh_argv(machine, remote_words(machine, "machine", "files-receive", plan.key)),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None
    try:
        with tarfile.open(fileobj=_Counting(process.stdin, progress, cancel), mode="w|",
                          format=tarfile.PAX_FORMAT) as tar:
            data = json.dumps(manifest).encode("utf-8")
            info = tarfile.TarInfo(MANIFEST)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
            for rel in plan.to_send:
                tar.add(str(plan.root / rel), arcname=rel, recursive=False)
        process.stdin.close()
        process.stdin = None  # closed: communicate() must not flush it
    except (SyncCancelled, BrokenPipeError, OSError) as exc:
        process.kill()
        process.stdin = None
        process.communicate()
        if isinstance(exc, SyncCancelled):
            raise
        raise SyncError(tr("The link to {name} failed while sending: {reason}", name=machine.name, reason=exc)) from exc
    out, err = process.communicate()
    if process.returncode != 0:
        raise SyncError(tr("Receiving on {name} failed: {reason}", name=machine.name,
                           reason=(err.decode("utf-8", "replace").strip().splitlines() or ["?"])[-1]))
    account = json.loads(out.decode("utf-8"))
    if account.get("bad"):
        raise SyncError(tr("{n} files arrived on {name} different from what was sent (first: {file}); send again.",
                           n=len(account["bad"]), name=machine.name, file=account["bad"][0]))
    return account


def sync_dataset(machine: Machine, data_yaml: Path, *, progress: Callable[[int, int], None] = lambda d, t: None,
                 cancel: threading.Event | None = None) -> tuple[SyncPlan, dict[str, Any]]:
    """Plan, compare, send: the whole sync. ``progress(bytes sent, bytes to send)``."""
    plan = plan_sync(data_yaml)
    read_remote_hashes(machine, plan)
    total = plan.bytes_to_send()
    account = send(machine, plan, progress=lambda n: progress(n, total), cancel=cancel)
    return plan, account

