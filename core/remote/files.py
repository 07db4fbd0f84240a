"""Both ends of a dataset sync: a folder's files with their SHA-256, and receiving a tar stream into a folder.

The same code runs on both machines (the remote runs this app too, as ``yolostudio machine files-hash|files-receive``):
``folder_hashes`` lists every regular file under a folder (no links followed, yolov5's ``*.cache`` left out: each
machine builds its own); ``receive`` reads a tar stream whose first member, ``.yolostudio-sync.json``, says which
files follow with which hash, which to delete and the data.yaml to write. Each file is written whole beside its
place and renamed in only when its bytes hash to what was promised (a cut stream leaves the files before it
complete and nothing half-written); a member outside the folder, a link or a device is refused (tarfile's
``data`` rules, checked again here by name).
"""

from __future__ import annotations

import hashlib
import json
import os
import tarfile
from pathlib import Path, PurePosixPath
from typing import IO, Any, Iterator

import yaml

from core.atomic import atomic_writer

MANIFEST = ".yolostudio-sync.json"
#: The data.yaml written on the receiving side, its ``path:`` the folder there.
REMOTE_DATA_YAML = ".yolostudio-data.yaml"
SKIPPED_SUFFIXES = (".cache",)
CHUNK = 1 << 20


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def walk_files(folder: Path) -> Iterator[tuple[str, Path]]:
    """(posix relative path, path) of each regular file under ``folder``, links not followed, sorted."""
    folder = Path(folder)
    for base, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            path = Path(base) / name
            if path.is_symlink() or not path.is_file() or name.endswith(SKIPPED_SUFFIXES) or name in (
                    MANIFEST, REMOTE_DATA_YAML) or (name.startswith(".") and name.endswith(".tmp")):
                continue
            yield path.relative_to(folder).as_posix(), path


def folder_hashes(folder: Path) -> dict[str, str]:
    """{relative path: sha256} of every file ``walk_files`` lists; an absent folder has none."""
    return {rel: file_sha256(path) for rel, path in walk_files(folder)} if Path(folder).is_dir() else {}


def dataset_folder(workspace: Path, key: str) -> Path:
    """Where a synced dataset lives in a workspace: ``datasets/KEY`` (KEY one folder name, checked)."""
    if not key or "/" in key or "\\" in key or key in (".", "..") or any(ord(c) < 32 for c in key):
        raise ValueError(f"not a dataset key: {key!r}")
    return Path(workspace) / "datasets" / key


def safe_relative(name: str) -> PurePosixPath:
    """``name`` as a path inside the folder, or ValueError (absolute, ``..``, empty, a control character)."""
    path = PurePosixPath(name)
    if not name or path.is_absolute() or ".." in path.parts or any(ord(c) < 32 for c in name) or "\\" in name:
        raise ValueError(f"refused path in the stream: {name!r}")
    return path


def receive(stream: IO[bytes], folder: Path) -> dict[str, Any]:
    """Unpack a sync stream into ``folder``: each file verified by hash before it replaces the old one, the listed
    files deleted, the data.yaml written. Returns what was done (``bad``: files whose bytes did not match)."""
    folder = Path(folder).absolute()
    folder.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=stream, mode="r|") as tar:
        members = iter(tar)
        first = next(members, None)
        if first is None or first.name != MANIFEST or not first.isfile():
            raise ValueError("the stream does not start with its manifest")
        manifest = json.loads(tar.extractfile(first).read().decode("utf-8"))  # type: ignore[union-attr]
        received, bad = unpack(tar, members, folder, manifest.get("files", {}))
    deleted = []
    for name in manifest.get("delete", []):
        path = folder / safe_relative(name)
        if path.is_file() and not path.is_symlink():
            path.unlink()
            deleted.append(name)
    data_yaml = ""
    if isinstance(manifest.get("data_yaml"), dict):
        doc = dict(manifest["data_yaml"], path=str(folder))
        with atomic_writer(folder / REMOTE_DATA_YAML, keep_mode=False) as out:
            out.write(("# Written by YOLO Studio's dataset sync: the dataset of " + str(manifest.get("source", ""))
                       + "\n" + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)).encode("utf-8"))
        data_yaml = str(folder / REMOTE_DATA_YAML)
    return {"folder": str(folder), "received": received, "bad": bad, "deleted": deleted, "data_yaml": data_yaml}


def unpack(tar: tarfile.TarFile, members: Iterator[tarfile.TarInfo], folder: Path, expected: dict[str, str]
           ) -> tuple[list[str], list[str]]:
    """Write each member named in ``expected`` whose bytes hash to its value into ``folder`` (whole, atomically);
    (received, bad). A member outside the folder or not a plain file is refused; one not expected is skipped."""
    received, bad = [], []
    for member in members:
        rel = safe_relative(member.name)
        if member.isdir():
            continue
        if not member.isfile():
            raise ValueError(f"not a plain file in the stream: {member.name!r}")
        name = rel.as_posix()
        if name not in expected:
            continue
        source = tar.extractfile(member)
        assert source is not None
        digest = hashlib.sha256()
        try:
            with atomic_writer(folder / rel, keep_mode=False) as out:
                for block in iter(lambda: source.read(CHUNK), b""):
                    digest.update(block)
                    out.write(block)
                if digest.hexdigest() != expected[name]:
                    raise _Mismatch()
        except _Mismatch:
            bad.append(name)
            continue
        received.append(name)
    return received, bad


class _Mismatch(Exception):
    """A received file's bytes do not hash to the manifest's value: the write is abandoned."""
