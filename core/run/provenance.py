"""Proof that a checkpoint under ``runs/`` was written by this workspace's own worker: a keyed hash per file.

A run folder copied into ``runs/`` (an unzipped colleague's run) looks exactly like the user's own, and its
``.pt`` files are pickles that can run code. So the worker records every checkpoint it writes
(``core.worker.compat.save_checkpoint``, the one place; from the temporary file before its rename, keeping the
replaced version's entry, so a kill mid-save never leaves an unrecorded ``last.pt``) in ``provenance.json``
beside it: the file's size,
mtime and HMAC-SHA256 of its bytes, and a seal (HMAC over that entry), all keyed by a secret that lives in the
workspace (``.secrets/provenance.key``, 0600, created once, atomically) and never in a run folder. Someone
without the secret cannot write a record that verifies; a copied folder's record was made with another key.

Two depths of checking, as ``core.trust`` does for the weights store:
- ``sealed`` (front ends, the GUI thread): the entry's seal holds and the file's size and mtime are the
  recorded ones — a few small reads, no hashing;
- ``verified`` (the worker's ``torch.load`` guard): ``sealed`` and the bytes hash to the recorded HMAC.

Runs from before this change have no record: they are treated as foreign (``core.trust.refusal`` says so)
and asked about once; the door records a checkpoint the user confirmed when it grants it
(``core.usecases.grants.record_grants``, never a worker), so the next resume or export of that run needs no
confirmation. A forged or damaged record is never trusted.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import tempfile
from pathlib import Path
from typing import Any

from core.atomic import atomic_write_text

RECORD_FILE = "provenance.json"
RECORD_VERSION = 1
_KEY_BYTES = 32
_CHUNK = 1 << 20


def key_path(workspace: Path) -> Path:
    """The workspace's secret: outside every run folder, so copying a run never copies it."""
    return Path(workspace) / ".secrets" / "provenance.key"


def workspace_key(workspace: Path, *, create: bool = False) -> bytes | None:
    """The secret (created 0600 and atomically on first use when ``create``); None when there is none yet."""
    path = key_path(workspace)
    try:
        text = path.read_text(encoding="ascii").strip()
        return bytes.fromhex(text) if len(text) == 2 * _KEY_BYTES else None
    except FileNotFoundError:
        if not create:
            return None
    except (OSError, ValueError):
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.chmod(path.parent, 0o700)
    except OSError:
        pass
    fd, tmp = tempfile.mkstemp(prefix=".provenance.key.", suffix=".tmp", dir=path.parent)  # 0600 by mkstemp
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secrets.token_hex(_KEY_BYTES) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(tmp, path)  # never replaces a key another process made first
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links: rename, once
            if not path.exists():
                os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return workspace_key(workspace, create=False)


def _content_mac(key: bytes, path: Path) -> str:
    with open(path, "rb") as handle:
        return _fd_mac(key, handle.fileno())


def _fd_mac(key: bytes, fd: int) -> str:
    mac = hmac.new(key, digestmod=hashlib.sha256)
    offset = 0
    while chunk := os.pread(fd, _CHUNK, offset):
        mac.update(chunk)
        offset += len(chunk)
    return mac.hexdigest()


def _seal(key: bytes, name: str, entry: dict[str, Any]) -> str:
    text = json.dumps([RECORD_VERSION, name, entry.get("size"), entry.get("mtime_ns"), entry.get("hmac")])
    return hmac.new(key, text.encode("utf-8"), hashlib.sha256).hexdigest()


def _read_record(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """``{file name: [entries]}``: each entry one version of the file that this workspace's worker wrote."""
    try:
        raw = json.loads((folder / RECORD_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    files = raw.get("files") if isinstance(raw, dict) else None
    if not isinstance(files, dict):
        return {}
    return {k: [e for e in v if isinstance(e, dict)] for k, v in files.items() if isinstance(v, list)}


def _write_record(folder: Path, files: dict[str, list[dict[str, Any]]]) -> None:
    atomic_write_text(folder / RECORD_FILE,
                      json.dumps({"version": RECORD_VERSION, "files": files}, indent=2) + "\n", backup=False)


def _new_entry(key: bytes, name: str, size: int, mtime_ns: int, mac: str) -> dict[str, Any]:
    entry: dict[str, Any] = {"size": size, "mtime_ns": mtime_ns, "hmac": mac}
    entry["seal"] = _seal(key, name, entry)
    return entry


def record_checkpoint(workspace: Path, path: Path) -> None:
    """Record ``path`` as it is now (a file the user confirmed, a DDP node's copy of rank 0's checkpoint)."""
    path = Path(path)
    key = workspace_key(workspace, create=True)
    if key is None:
        return
    stat = path.stat()
    files = _read_record(path.parent)
    files[path.name] = [_new_entry(key, path.name, stat.st_size, stat.st_mtime_ns, _content_mac(key, path))]
    _write_record(path.parent, files)


def record_before_rename(workspace: Path, target: Path, fd: int) -> None:
    """Record the new version of ``target`` from its temporary file ``fd`` (written, flushed) *before* it is
    renamed over ``target``, keeping the entry of the version there now: a kill between the record and the
    rename leaves the previous file, which still verifies, and after the rename the new one does."""
    target = Path(target)
    key = workspace_key(workspace, create=True)
    if key is None:
        return
    stat = os.fstat(fd)
    entry = _new_entry(key, target.name, stat.st_size, stat.st_mtime_ns, _fd_mac(key, fd))
    files = _read_record(target.parent)
    current = _matching(key, target, files.get(target.name, []))
    files[target.name] = [entry, *([current] if current is not None else [])]
    _write_record(target.parent, files)


def _matching(key: bytes, path: Path, entries: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The sealed entry that describes ``path`` as it is on disk (size and mtime), if any."""
    try:
        stat = path.stat()
    except OSError:
        return None
    for entry in entries:
        if (hmac.compare_digest(str(entry.get("seal", "")), _seal(key, path.name, entry))
                and stat.st_size == entry.get("size") and stat.st_mtime_ns == entry.get("mtime_ns")):
            return entry
    return None


def _entry(workspace: Path, path: Path) -> tuple[bytes, dict[str, Any]] | None:
    key = workspace_key(workspace)
    if key is None:
        return None
    entry = _matching(key, path, _read_record(path.parent).get(path.name, []))
    return None if entry is None else (key, entry)


def has_record(path: Path) -> bool:
    """Does ``path``'s folder list it at all (a record, valid or not)? For the words of a refusal."""
    return Path(path).name in _read_record(Path(path).parent)


def key_made_after_record(workspace: Path, path: Path) -> float | None:
    """When the workspace's key was made (a Unix time), if that is after ``path``'s record was written and the
    record does not hold under it: the key was deleted and a new one made since (every earlier record is then
    foreign), or the run came from another workspace with older files. None otherwise. For a refusal's words."""
    path = Path(path)
    try:
        made = key_path(workspace).stat().st_mtime
        recorded = (path.parent / RECORD_FILE).stat().st_mtime
    except OSError:
        return None
    return made if made > recorded and has_record(path) and not sealed(workspace, path) else None


def sealed(workspace: Path, path: Path) -> bool:
    """Cheap: the record of ``path`` was sealed with this workspace's key and the file's size and mtime match."""
    return _entry(workspace, Path(path)) is not None


def verified(workspace: Path, path: Path) -> bool:
    """Full: ``sealed`` and the file's bytes hash to the recorded HMAC (what the worker asks before unpickling)."""
    found = _entry(workspace, Path(path))
    if found is None:
        return False
    key, entry = found
    try:
        return hmac.compare_digest(_content_mac(key, Path(path)), str(entry.get("hmac", "")))
    except OSError:
        return False
