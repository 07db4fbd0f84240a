"""Each run's folded events, kept between listings: an events file is read once, then only what was appended.

Listing runs folds every ``events.jsonl`` (``core.runs.status.fold_events``); an hour-long run writes ~18 MB of
events, so folding them all again for every listing (start-up, the Runs page, the Export page, after
each run) costs the GUI about half a second per long run. ``RunIndex`` keeps each run's ``RunSummary``
keyed by its events file's identity (device, inode, size, mtime): an unchanged file is not read, a file
that only grew (a run still training — events files are append-only) is folded on from where the last
read stopped, anything else is folded again from the start. A partial last line (a write in progress)
is left for the next read. Lines of the types the fold ignores (batches, system samples: nearly all of a
long run's bytes) are recognised by their prefix and not decoded. Not thread-safe: one owner (the GUI's runs store) uses it from one thread at
a time.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from core.job.protocol import parse_line
from core.run.files import check_events_file
from core.runs.store import RunInfo, list_runs
from core.runs.status import FOLDED_TYPES, RunSummary, fold_events
from core.run.files import EVENTS_FILE


@dataclass
class _Entry:
    identity: tuple[int, int]  # (device, inode): the same file, appended to
    size: int
    mtime_ns: int
    offset: int  # end of the last complete line folded
    summary: RunSummary


class RunIndex:
    def __init__(self) -> None:
        self._entries: dict[Path, _Entry] = {}
        self.reads = 0  # bytes read from events files, for tests and the bench

    def summary(self, run_dir: Path) -> RunSummary:
        """The run's folded events, reading only what changed since the last call."""
        path = Path(run_dir) / EVENTS_FILE
        try:
            st = path.stat()
        except OSError:
            self._entries.pop(path, None)
            return RunSummary()
        check_events_file(run_dir)  # a folder or a device in its place: the run is unreadable, with the reason
        entry = self._entries.get(path)
        identity = (st.st_dev, st.st_ino)
        if entry is not None and (entry.size, entry.mtime_ns, entry.identity) == (st.st_size, st.st_mtime_ns, identity):
            return entry.summary
        if entry is None or entry.identity != identity or st.st_size < entry.offset:
            entry = _Entry(identity, 0, 0, 0, RunSummary())  # new, replaced or truncated: fold from the start
        events = _CompleteEvents(path, entry.offset)
        entry.summary = fold_events(events, entry.summary)
        self.reads += events.read
        entry.offset += events.read
        entry.size, entry.mtime_ns = st.st_size, st.st_mtime_ns
        self._entries[path] = entry
        return entry.summary

    def list_runs(self, workspace: Path) -> list[RunInfo]:
        """``core.runs.store.list_runs`` with the kept summaries; runs no longer in the workspace are forgotten."""
        runs = list_runs(workspace, summaries=self.summary)
        alive = {Path(run.path) / EVENTS_FILE for run in runs}
        for path in [p for p in self._entries if p not in alive]:
            del self._entries[path]
        return runs


#: How the worker writes every event line (``core.job.protocol.encode`` of ``make_event``): the type comes first.
_PREFIX = b'{"v":1,"type":"'
_FOLDED = {kind.encode() for kind in FOLDED_TYPES}


class _CompleteEvents:
    """The events of the complete lines after ``offset``; ``read`` counts the bytes they took.

    Lines of a type the fold does not read (batches, system samples, log lines: nearly all of a long
    run's file) are not decoded, except the last one, whose ``t`` is the run's last sign of life.
    """

    def __init__(self, path: Path, offset: int) -> None:
        self.path, self.offset, self.read = path, offset, 0

    def __iter__(self) -> Iterator[dict]:
        skipped = b""
        with open(self.path, "rb") as handle:
            handle.seek(self.offset, os.SEEK_SET)
            for raw in handle:
                if not raw.endswith(b"\n"):
                    break  # being written: the next read picks it up whole
                self.read += len(raw)
                if raw.startswith(_PREFIX) and raw[len(_PREFIX):raw.find(b'"', len(_PREFIX))] not in _FOLDED:
                    skipped = raw
                    continue
                skipped = b""
                yield from _decode(raw)
        yield from _decode(skipped)


def _decode(raw: bytes) -> Iterator[dict]:
    if raw:
        decoded = parse_line(raw.decode("utf-8", errors="replace"))
        if decoded.event is not None:
            yield decoded.event
