"""The workspace's weights store: ``<workspace>/weights/<name>.pt`` plus ``manifest.json``, the record of each.

A file is in the store only after it checked out (``core/worker/weights_job.py``): it is written under
``weights/.partial/`` and moved to its final name in one rename, so the store never holds a partial file
under a final name. The manifest records for each file its SHA-256 taken when it came in, its size, where
it came from (the official URL, or the path the user imported it from) and what the check found (the
architecture). ``core.trust`` trusts a stored file only while its bytes still hash to that record, so a file
changed on disk after it came in is refused at its next use.

Cheap questions (is it here, listed, the recorded size?) never read the file: the GUI asks them while the
user types. The full hash is ``verify`` — the worker's check before it unpickles, and the CLI's.
Manifest updates hold a kernel lock (``core.kernel_lock``), so a window and a terminal adding files at once lose
nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from core.atomic import atomic_write_text
from core.file_values import FileValueError, finite_number
from core.i18n import tr
from core.kernel_lock import KernelLock, LockBusy
from core.workspace import weights_dir

MANIFEST = "manifest.json"
MANIFEST_VERSION = 1
PARTIAL_DIR = ".partial"
_LOCK_WAIT_S = 10.0
#: The download locks' files: they stay (a kernel lock's file is never deleted, or two could hold "it"), so they
#: live apart from ``.partial/``, which is empty whenever nothing is being fetched.
LOCKS_DIR = ".locks"
_HASH_CHUNK = 1 << 20

#: What a stored name's state means: here and as recorded / here but not what was recorded / here but
#: not in the manifest (a stray file, or a crash between the rename and the manifest) / not here.
STATES = ("ok", "changed", "unlisted", "absent")


class StoreError(RuntimeError):
    """A store operation that cannot be done, with what to do about it."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


@dataclass(frozen=True)
class StoredFile:
    name: str  # file name in the store: "yolov5s.pt"
    sha256: str
    size: int
    source: str  # "download" or "import"
    added: float  # unix time
    url: str = ""  # where a download came from
    origin: str = ""  # the file an import was copied from
    facts: dict[str, Any] = field(default_factory=dict)  # what the load check found (architecture, params)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, name: str, data: dict[str, Any], file: object = MANIFEST) -> StoredFile:
        """A record as the manifest holds it; a size or time that is not a finite number in range (``1e400``
        reads as ``inf``) raises ``FileValueError`` naming ``file`` and the key."""
        size = finite_number(data["size"], file=file, key=f"files.{name}.size", low=0, integer=True)
        added = finite_number(data.get("added") or 0, file=file, key=f"files.{name}.added", low=0, high=1e11)
        return cls(name=name, sha256=str(data["sha256"]), size=int(size), source=str(data["source"]),
                   added=added, url=str(data.get("url") or ""),
                   origin=str(data.get("origin") or ""), facts=dict(data.get("facts") or {}))


def sha256_of(path: Path, cancelled: Callable[[], bool] | None = None) -> str:
    """The file's SHA-256 (read in 1 MiB pieces; ``cancelled`` is asked between them)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(_HASH_CHUNK):
            digest.update(chunk)
            if cancelled is not None and cancelled():
                raise InterruptedError(str(path))
    return digest.hexdigest()


def valid_store_name(name: str) -> bool:
    """A plain ``*.pt`` file name: no folders, not hidden (the partial folder and the manifest are ours)."""
    return (bool(name) and Path(name).name == name and name.endswith(".pt") and not name.startswith(".")
            and name not in (".pt",) and "\x00" not in name)


class WeightsStore:
    def __init__(self, workspace: Path) -> None:
        self.root = weights_dir(Path(workspace))
        self.manifest_path = self.root / MANIFEST
        self.partial_dir = self.root / PARTIAL_DIR
        self.manifest_problem = ""  # why the manifest could not be read, when it could not
        self.skipped_records: set[str] = set()

    # -- where ------------------------------------------------------------------------------------------
    def path(self, name: str) -> Path:
        return self.root / name

    def partial_path(self, name: str, suffix: str = ".part") -> Path:
        """Where ``name`` is written while it comes in (never its final name)."""
        return self.partial_dir / f"{name}{suffix}"

    def contains(self, path: str | os.PathLike[str]) -> str | None:
        """The store name of ``path`` when it is a file directly in the store (links and ``..`` resolved)."""
        try:
            candidate = Path(path).expanduser().resolve()
        except (OSError, RuntimeError):
            return None
        if candidate.parent != self.root.resolve() or not valid_store_name(candidate.name):
            return None
        return candidate.name

    # -- the manifest ---------------------------------------------------------------------------------
    def entries(self) -> dict[str, StoredFile]:
        """Every recorded file (present or not). An unreadable manifest reads as empty, and
        ``manifest_problem`` says why: its files are then unlisted — asked about again, never trusted."""
        self.manifest_problem = ""
        self.skipped_records: set[str] = set()  # names whose record holds a value no reader can use
        try:
            data = json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            self.manifest_problem = tr("{path} could not be read ({reason}).", path=self.manifest_path, reason=exc)
            return {}
        files = data.get("files") if isinstance(data, dict) else None
        if not isinstance(files, dict):
            self.manifest_problem = tr("{path} is not a weights manifest.", path=self.manifest_path)
            return {}
        found: dict[str, StoredFile] = {}
        for name, record in files.items():
            try:
                if valid_store_name(name):
                    found[name] = StoredFile.from_json(name, record, self.manifest_path)
            except FileValueError as exc:
                self.manifest_problem = str(exc)  # said by `weights list`; the record is skipped, as below
                self.skipped_records.add(name)
            except (KeyError, TypeError, ValueError):
                continue  # one bad record costs that file its trust, not the others theirs
        return found

    def entry(self, name: str) -> StoredFile | None:
        return self.entries().get(name)

    def _write(self, entries: dict[str, StoredFile]) -> None:
        document = {"version": MANIFEST_VERSION,
                    "files": {name: {k: v for k, v in e.to_json().items() if k != "name"}
                              for name, e in sorted(entries.items())}}
        atomic_write_text(self.manifest_path, json.dumps(document, indent=2, ensure_ascii=False) + "\n")

    # -- questions ------------------------------------------------------------------------------------
    def state(self, name: str, entries: dict[str, StoredFile] | None = None) -> str:
        """One of ``STATES``, without reading the file (its size against the record)."""
        path = self.path(name)
        try:
            size = path.stat().st_size if path.is_file() else None
        except OSError:
            size = None
        if size is None:
            return "absent"
        record = (self.entries() if entries is None else entries).get(name)
        if record is None:
            return "unlisted"
        return "ok" if record.size == size else "changed"

    def verify(self, name: str) -> bool:
        """True when ``name`` is here and its bytes hash to the recorded SHA-256 (reads the whole file)."""
        record = self.entry(name)
        path = self.path(name)
        if record is None or not path.is_file():
            return False
        try:
            return path.stat().st_size == record.size and sha256_of(path) == record.sha256
        except OSError:
            return False

    # -- changes --------------------------------------------------------------------------------------
    def add(self, source: Path, record: StoredFile) -> Path:
        """Move a checked file (already under ``.partial/``) to its final name and record it.

        The rename comes first: a crash before the manifest is written leaves an *unlisted* file, which is
        not trusted, never a listed file with other bytes."""
        if not valid_store_name(record.name):
            raise StoreError(tr("{name} is not a valid weights file name.", name=record.name),
                             tr("Use a plain file name ending in .pt."))
        with self._locked():
            self.root.mkdir(parents=True, exist_ok=True)
            target = self.path(record.name)
            os.replace(source, target)
            entries = self.entries()
            entries[record.name] = record
            self._write(entries)
        return target

    def remove(self, name: str) -> bool:
        """Forget ``name`` and delete its file (the record goes first, so a crash leaves nothing trusted)."""
        with self._locked():
            entries = self.entries()
            known = entries.pop(name, None) is not None or name in self.skipped_records  # a bad record goes too
            if known:
                self._write(entries)
        path = self.path(name)
        existed = path.is_file()
        if existed:
            path.unlink()
        return known or existed

    def clear_partial(self, name: str) -> None:
        for suffix in (".part", ".part.json", ".import"):
            try:
                self.partial_path(name, suffix).unlink()
            except FileNotFoundError:
                pass

    # -- the lock around manifest updates ----------------------------------------------------------------
    def _locked(self) -> _Lock:
        return _Lock(self.root / ".manifest.lock")

    def download_lock(self, name: str) -> _Lock:
        """Held while ``name`` is fetched or imported: two at once would write the same partial file."""
        return _Lock(self.root / LOCKS_DIR / f"{name}.lock", wait_s=0.0)


class _Lock:
    """The store's kernel lock (``core.kernel_lock``, the run folder's mechanism); a refusal names the holder."""

    def __init__(self, path: Path, wait_s: float = _LOCK_WAIT_S) -> None:
        self._lock = KernelLock(path, wait_s=wait_s)

    def __enter__(self) -> _Lock:
        try:
            self._lock.__enter__()
        except LockBusy as busy:
            raise StoreError(tr("{name} is in use by another YOLO Studio process (pid {pid}).",
                                name=busy.path.name.removesuffix(".lock"), pid=busy.owner.pid or "?"),
                             tr("Wait for it to finish, or cancel it there.")) from None
        return self

    def __exit__(self, *exc: object) -> None:
        self._lock.__exit__(*exc)


def iter_stored(store: WeightsStore) -> Iterator[tuple[str, StoredFile | None, str]]:
    """(name, record, state) for every recorded name and every ``*.pt`` lying in the store."""
    entries = store.entries()
    names = set(entries)
    if store.root.is_dir():
        names |= {p.name for p in store.root.glob("*.pt") if valid_store_name(p.name)}
    for name in sorted(names):
        yield name, entries.get(name), store.state(name, entries)
