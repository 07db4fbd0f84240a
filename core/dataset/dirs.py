"""Folder listings reused while a folder is unchanged, so a re-check does not list 40,000 names again.

A folder's mtime changes whenever an entry in it is added, removed or renamed (a file written in place
does not change it; the per-file (size, mtime) keys catch that). A saved listing is reused only when the
folder still has the mtime and inode it had, and that mtime was at least ``MARGIN_NS`` older than the
moment the listing started — otherwise a change made in the same timestamp tick as the listing (coarse
file-system clocks, up to 2 s on FAT) could leave the mtime equal and go unnoticed (git's "racy" rule).
A folder touched within the margin is simply listed again.

Only the lists a caller derives from a listing are kept (per ``view``: e.g. image names and sub-folders),
as NUL-joined strings in one JSON file: a path never holds NUL, and loading is one ``split`` per list.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Callable

from core.atomic import atomic_write_bytes

MARGIN_NS = 5_000_000_000
FORMAT = 1


class FolderMemo:
    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._old: dict[str, list[Any]] = {}
        self._new: dict[str, list[Any]] = {}
        self._changed = False
        if self.path is None:
            return
        try:
            data = json.loads(self.path.read_bytes().decode("utf-8", "surrogateescape"))
            if data.get("format") == FORMAT and isinstance(data.get("folders"), dict):
                self._old = data["folders"]
        except (OSError, ValueError, AttributeError):
            self._old = {}

    def lists(self, view: str, folder: str, st: os.stat_result, make: Callable[[], list[list[str]]],
              started_ns: int) -> list[list[str]]:
        """The lists ``make()`` derives from ``folder``'s listing, reused from the last check when unchanged.

        ``st`` is the folder's stat and ``started_ns`` the wall-clock time just before it was taken.
        """
        key = f"{view}\0{folder}"
        entry = self._old.get(key)
        if _unchanged(entry, st):
            self._new[key] = entry
            return [_split(text) for text in entry[3]]  # type: ignore[index]
        made = make()
        if self.path is not None:
            self._new[key] = [st.st_mtime_ns, st.st_ino, started_ns, ["\0".join(names) for names in made]]
            self._changed = True
        return made

    def recall(self, name: str, fingerprint: str) -> list[str] | None:
        """What ``keep`` stored under ``name`` last time, if its fingerprint matches and none of the folders it
        was derived from changed since (each is stat'ed, none listed)."""
        entry = self._old.get(f"derived\0{name}")
        if not (isinstance(entry, list) and len(entry) == 3 and entry[0] == fingerprint
                and isinstance(entry[1], list) and isinstance(entry[2], str)):
            return None
        for key in entry[1]:
            try:
                st = os.stat(str(key).partition("\0")[2])
            except OSError:
                return None
            if not _unchanged(self._old.get(key), st):
                return None
        for key in entry[1]:
            self._new[key] = self._old[key]
        self._new[f"derived\0{name}"] = entry
        return _split(entry[2])

    def keep(self, name: str, fingerprint: str, folders: list[tuple[str, str]], values: list[str]) -> None:
        """Remember ``values`` derived from the listings of ``folders`` (``(view, folder)`` pairs) and from
        whatever ``fingerprint`` stands for."""
        if self.path is not None:
            self._new[f"derived\0{name}"] = [fingerprint, [f"{v}\0{f}" for v, f in folders], "\0".join(values)]
            self._changed = True

    def save(self) -> None:
        """Write the listings used by this check (folders no longer visited are dropped)."""
        if self.path is None or not (self._changed or self._new.keys() != self._old.keys()):
            return
        try:
            blob = json.dumps({"format": FORMAT, "folders": self._new}, separators=(",", ":"), ensure_ascii=False)
            atomic_write_bytes(self.path, blob.encode("utf-8", "surrogateescape"), backup=False)
        except (OSError, UnicodeError):
            pass  # a memo that cannot be written only makes the next check list folders again


def _unchanged(entry: Any, st: os.stat_result) -> bool:
    return (isinstance(entry, list) and len(entry) == 4 and entry[0] == st.st_mtime_ns and entry[1] == st.st_ino
            and isinstance(entry[2], int) and entry[0] < entry[2] - MARGIN_NS and isinstance(entry[3], list))


def _split(text: str) -> list[str]:
    return text.split("\0") if text else []


def stat_folder(folder: str) -> tuple[os.stat_result, int]:
    """The folder's stat (following links) and the wall-clock time taken just before it. Raises OSError."""
    started = time.time_ns()
    return os.stat(folder), started
