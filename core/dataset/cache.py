"""The validator's per-file cache on disk: a saved ``ScanTable`` plus a journal of entries checked since.

Why two files: a re-check after a few fixes should write a few lines, not the whole table. The snapshot
(``<name>.table``: raw arrays behind a JSON header, see ``table``) is rewritten when the dataset's file list
changed or the journal grew long; otherwise freshly checked entries are appended to ``<name>.journal``
as JSON lines. Every entry carries the (size, mtime) key it was checked at, so any entry — even one left
behind by a crash between writing a snapshot and dropping the journal — is used only while its files
still match that key. A torn last journal line (a crash mid-write) is skipped. Nothing here can run code.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from core.atomic import atomic_write_bytes
from core.dataset.table import Entry, ScanTable

JournalEntry = tuple[list[int], Entry]  # stat key, entry
#: A cache that cannot be read or written only makes the next check slower: said here, never raised.
log = logging.getLogger("yolostudio.dataset.cache")


class ScanCache:
    def __init__(self, path: Path | None) -> None:
        self.path = Path(path) if path is not None else None
        self.journal_lines = 0
        self.snapshot_paths: list[str] | None = None

    @property
    def journal(self) -> Path:
        assert self.path is not None
        return self.path.with_suffix(".journal")

    def load(self) -> tuple[ScanTable | None, dict[str, JournalEntry]]:
        """The saved table (None if absent or unusable) and the journal's entries by image path."""
        if self.path is None:
            return None, {}
        table = ScanTable.from_file(str(self.path))
        self.snapshot_paths = table.paths if table is not None else None
        entries: dict[str, JournalEntry] = {}
        self.journal_lines = 0
        try:
            with open(self.journal, encoding="utf-8", errors="surrogateescape") as handle:
                for line in handle:
                    self.journal_lines += 1
                    parsed = _parse_line(line)
                    if parsed is not None:
                        entries[parsed[0]] = parsed[1]
        except FileNotFoundError:
            pass  # no entries checked since the snapshot
        except OSError as exc:
            log.warning("the scan cache's journal %s cannot be read (%s): its entries are checked again",
                        self.journal, exc)
        return table, entries

    def save(self, table: ScanTable, read: list[int], limit: int) -> None:
        """Persist ``table``, of which the entries at ``read`` were just checked: append them to the journal,
        or rewrite the snapshot when the file list changed or the journal would pass ``limit`` lines."""
        if self.path is None:
            return
        try:
            if self.snapshot_paths != table.paths or self.journal_lines + len(read) > limit:
                atomic_write_bytes(self.path, table.to_bytes(), backup=False)  # our own file: no backup
                self.journal.unlink(missing_ok=True)
                self.snapshot_paths, self.journal_lines = table.paths, 0
            elif read:
                self.append({table.paths[i]: (table.keys[i].tolist(), table.entry(i)) for i in read})
        except OSError as exc:
            log.warning("the scan cache %s cannot be written (%s): the next check reads every file again",
                        self.path, exc)

    def append(self, entries: dict[str, JournalEntry]) -> None:
        """Add entries to the journal (also what a cancelled check keeps of its work)."""
        if self.path is None or not entries:
            return
        lines = "".join(json.dumps([image, key, part_i, part_l], separators=(",", ":"), ensure_ascii=False) + "\n"
                        for image, (key, (part_i, part_l)) in entries.items())
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.journal, "a", encoding="utf-8", errors="surrogateescape") as handle:
                handle.write(lines)
            self.journal_lines += len(entries)
        except OSError as exc:
            log.warning("the scan cache's journal %s cannot be written (%s): %d checked entries are not kept",
                        self.journal, exc, len(entries))


def _parse_line(line: str) -> tuple[str, JournalEntry] | None:
    try:
        image, key, part_i, part_l = json.loads(line)
        ok = (isinstance(image, str) and isinstance(key, list) and len(key) == 4 and _image_part(part_i)
              and _label_part(part_l))
    except (ValueError, TypeError):
        return None
    return (image, (key, (part_i, part_l))) if ok else None


def _image_part(part: Any) -> bool:
    return isinstance(part, dict) and {"w", "h", "hash", "f"} <= part.keys()


def _label_part(part: Any) -> bool:
    return isinstance(part, dict) and {"ok", "rows", "f"} <= part.keys()
