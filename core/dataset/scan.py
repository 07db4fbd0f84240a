"""Per-file checks of every image and its label, in parallel processes, re-reading only what changed.

Why processes: decoding headers and hashing tens of thousands of files is CPU-bound, and a GUI-side
thread pool would fight the window for the GIL. The processes are *spawned* (not forked: safe in a Qt
process with threads, and the same on Windows) and receive chunks of paths, so start-up is paid once.
When only a few files changed (the usual re-check after a fix) they are read in-process: spawning would
cost more than the whole re-check.

Each image and each label is cached by its own (size, mtime), so fixing a label re-reads that label only
(not its image). A re-check therefore costs one ``stat`` per file (``statkeys``, over two cores) — on a
slow-syscall VM that is most of its time, which is why the rest (cache load, merge, totals) is
vectorised in ``table``.
"""

from __future__ import annotations

import os
import time
from bisect import bisect_left
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any, Callable

import numpy as np

from core.dataset.cache import ScanCache
from core.dataset.files import ScanCancelled, label_path_for  # noqa: F401 - ScanCancelled re-exported
from core.dataset.statkeys import stat_keys
from core.dataset.table import Entry, ScanTable, merge
from core.findings import Finding

Progress = Callable[[int, int], None]
#: ``progress(n, SEARCHING)``: the folder search has listed ``n`` folders; how many files to check is not known
#: yet (a split that is a large tree takes seconds to search before the first file is read).
SEARCHING = -1
Cancelled = Callable[[], bool]
PARALLEL_MIN = 1500  # below this many files to read, spawning processes costs more than it saves
CHUNK = 400
Task = tuple[int, "str | None", "str | None"]  # position, image to read (or None), label to read (or None)


@dataclass
class ScanStats:
    total: int = 0
    from_cache: int = 0  # images whose image and label were both unchanged
    read: int = 0  # images of which the image, the label or both were read


def _f(findings: list[Finding]) -> list[list[Any]]:
    return [[f.code, str(f.severity), f.file, f.line, f.message, f.column] for f in findings]


def findings_from(rows: list[list[Any]]) -> list[Finding]:
    return [Finding(code, severity, message, file=file, line=line, column=column)
            for code, severity, file, line, message, column in rows]


def check_image(image: str) -> dict[str, Any]:
    """Read one image once: size, content hash and problems (JSON-able, cached as is)."""
    from core.dataset.images import check_image_bytes  # Pillow only when an image is really read

    try:
        with open(image, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        from core.dataset.findings import finding
        from core.i18n import tr
        return {"w": 0, "h": 0, "hash": "", "f": _f([finding("image-corrupt", image, tr(
            "Cannot read the file: {reason}", reason=exc.strerror or exc))])}
    facts = check_image_bytes(data, image)
    return {"w": facts.width, "h": facts.height, "hash": facts.digest, "f": _f(facts.findings)}


def check_label(label: str) -> dict[str, Any]:
    """Read one label file once: its usable rows and per-line problems; ``ok`` False when yolov5 finds no
    label there (absent, or not a regular file). Bounded by ``label_file``: a pipe is never opened for a
    blocking read, a device or a huge file never read whole."""
    from core.dataset.label_file import read_label_file
    from core.dataset.labels import parse_label_bytes

    found = read_label_file(label)
    if found.data is None:
        return {"ok": found.kind in ("too-large", "unreadable"), "rows": [], "f": _f(_label_unread(label, found))}
    parsed = parse_label_bytes(found.data, label)
    return {"ok": True, "rows": [list(r) for r in parsed.rows], "f": _f(parsed.findings)}


def _label_unread(label: str, found: Any) -> list[Finding]:
    """The finding for a label that was not read (none for one that is simply absent)."""
    from core.dataset.findings import finding
    from core.dataset.label_file import MAX_LABEL_BYTES
    from core.i18n import tr

    if found.kind == "special":
        return [finding("label-not-a-file", label, tr(
            "This label is not a file but a pipe, device or socket. yolov5 uses a label only when it is a "
            "regular file, so it trains the image as a background (no objects); it is not read here either. "
            "Replace it with the real label file."))]
    if found.kind == "too-large":
        return [finding("label-too-large", label, tr(
            "This label file is {size} MB; YOLO Studio reads label files up to {limit} MB (over 25,000 boxes). "
            "yolov5 would read it whole into memory for this one image. Is it really this image's labels?",
            size=f"{found.size / 1e6:,.1f}", limit=f"{MAX_LABEL_BYTES / 1e6:.1f}"))]
    if found.kind == "unreadable":
        return [finding("label-unreadable", label, tr(
            "The label file cannot be read ('{reason}'). yolov5 drops the image as corrupt.",
            reason=found.reason))]
    return []


def check_chunk(tasks: list[tuple[str | None, str | None]]) -> list[tuple[dict | None, dict | None]]:
    return [(check_image(image) if image else None, check_label(label) if label else None) for image, label in tasks]


def scan_images(images: list[str], cache: ScanCache, progress: Progress | None = None,
                cancelled: Cancelled | None = None, workers: int | None = None) -> tuple[ScanTable, ScanStats]:
    """The checked table for ``images`` (sorted, unique). Raises ``ScanCancelled`` after caching what was read."""
    progress = progress or (lambda done, total: None)
    cancelled = cancelled or (lambda: False)
    old, journal = cache.load()
    n = len(images)
    if old is not None and old.paths == images:
        labels, source = old.labels, np.arange(n)
    else:
        labels = [label_path_for(image) for image in images]
        if old is not None:
            index = {path: j for j, path in enumerate(old.paths)}
            source = np.fromiter((index.get(path, -1) for path in images), dtype=np.int64, count=n)
        else:
            source = np.full(n, -1, dtype=np.int64)
    keys = stat_keys(images, labels)
    cached = np.full((n, 4), -2, dtype=np.int64)  # -2 never equals a real key (-1 means "missing")
    known = source >= 0
    if old is not None:
        cached[known] = old.keys[source[known]]
    base: dict[int, Entry] = {}
    for path, (key, entry) in journal.items():
        i = bisect_left(images, path)
        if i < n and images[i] == path:
            cached[i], base[i] = key, entry
    image_changed = (keys[:, :2] != cached[:, :2]).any(axis=1)
    label_changed = (keys[:, 2:] != cached[:, 2:]).any(axis=1)
    todo: list[Task] = [(i, images[i] if image_changed[i] else None, labels[i] if label_changed[i] else None)
                        for i in np.flatnonzero(image_changed | label_changed).tolist()]
    stats = ScanStats(total=n, from_cache=n - len(todo), read=len(todo))
    fresh = dict(base)
    read: list[int] = []

    def keep(i: int, part_i: dict | None, part_l: dict | None) -> None:
        """Store a re-read entry; the part that did not change comes from the journal or the old table."""
        before = base.get(i) or (old.entry(int(source[i])) if old is not None and source[i] >= 0 else None)
        if part_i is None or part_l is None:
            assert before is not None, "a part is kept only for an entry checked before"
            part_i, part_l = part_i or before[0], part_l or before[1]
        fresh[i] = (part_i, part_l)
        read.append(i)

    try:
        _read(todo, keep, n - len(todo), n, progress, cancelled, workers)
    except ScanCancelled:
        cache.append({images[i]: (keys[i].tolist(), fresh[i]) for i in read})
        raise
    table = merge(images, labels, keys, old, source, fresh)
    cache.save(table, read, limit=max(100, n // 50))
    return table, stats


def _read(todo: list[Task], keep: Callable[[int, Any, Any], None], done: int, total: int, progress: Progress,
          cancelled: Cancelled, workers: int | None) -> None:
    progress(done, total)
    workers = workers if workers is not None else max(1, min(os.cpu_count() or 1, 16))
    if len(todo) < PARALLEL_MIN or workers <= 1:
        last = time.monotonic()
        for index, (i, image, label) in enumerate(todo):
            if index % 32 == 0 and cancelled():
                raise ScanCancelled()
            keep(i, *check_chunk([(image, label)])[0])
            now = time.monotonic()
            if now - last > 0.1:
                last = now
                progress(done + index + 1, total)
    else:
        _read_in_processes(todo, keep, done, total, progress, cancelled, workers)
    progress(done + len(todo), total)


def _read_in_processes(todo: list[Task], keep: Callable[[int, Any, Any], None], done: int, total: int,
                       progress: Progress, cancelled: Cancelled, workers: int) -> None:
    size = max(64, min(CHUNK, len(todo) // (workers * 4) or 64))
    chunks = iter([todo[i:i + size] for i in range(0, len(todo), size)])
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"))
    pending: dict[Future, list[Task]] = {}

    def submit() -> None:
        chunk = next(chunks, None)
        if chunk is not None:
            pending[pool.submit(check_chunk, [(image, label) for _, image, label in chunk])] = chunk

    try:
        for _ in range(workers * 3):
            submit()
        while pending:
            finished, _ = wait(list(pending), timeout=0.2, return_when=FIRST_COMPLETED)
            if cancelled():
                raise ScanCancelled()
            for future in finished:
                chunk = pending.pop(future)
                for (i, _, _), (part_i, part_l) in zip(chunk, future.result()):
                    keep(i, part_i, part_l)
                    done += 1
                submit()
            if finished:
                progress(done, total)
    finally:
        pool.shutdown(wait=not cancelled(), cancel_futures=True)


class Eta:
    """Remaining time from the rate so far (files per second since the first progress report)."""

    def __init__(self) -> None:
        self._start: float | None = None
        self._start_done = 0

    def update(self, done: int, total: int, now: float | None = None) -> float | None:
        now = time.monotonic() if now is None else now
        if self._start is None:
            self._start, self._start_done = now, done
            return None
        elapsed, progressed = now - self._start, done - self._start_done
        if elapsed <= 0 or progressed <= 0:
            return None
        return (total - done) * elapsed / progressed
