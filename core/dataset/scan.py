"""Per-file checks of every image and its label, in parallel processes, with a cache of results.

Why processes: decoding headers and hashing tens of thousands of files is CPU-bound, and a GUI-side
thread pool would fight the window for the GIL. The processes are *spawned* (not forked: safe in a Qt
process with threads, and the same on Windows) and receive chunks of paths, so start-up is paid once.
Small datasets are checked in-process, where spawning would cost more than it saves.

The cache is keyed per image by (path, size, mtime) of the image *and* of its label, so a re-check after
a fix reads only the pairs that changed. Results are plain JSON: a cache file can never run code.
"""

from __future__ import annotations

import json
import os
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any, Callable

from core.atomic import atomic_write_bytes
from core.dataset.findings import Finding
from core.dataset.images import check_image_bytes
from core.dataset.labels import parse_label_bytes

Progress = Callable[[int, int], None]
Cancelled = Callable[[], bool]
CACHE_VERSION = 1
PARALLEL_MIN = 1500  # below this many unchecked files, spawning processes costs more than it saves
CHUNK = 400


class ScanCancelled(Exception):
    """The user cancelled; results so far are in the cache, so the next check resumes from there."""


def _f(findings: list[Finding]) -> list[list[Any]]:
    return [[f.code, f.severity, f.file, f.line, f.message, f.column] for f in findings]


def findings_from(rows: list[list[Any]]) -> list[Finding]:
    return [Finding(code, severity, file, line, message, column) for code, severity, file, line, message, column in rows]


def check_pair(image: str, label: str) -> dict[str, Any]:
    """Read one image and its label file once each; a JSON-able result (cached as is)."""
    result: dict[str, Any] = {"w": 0, "h": 0, "fmt": "", "hash": "", "if": [], "lbl": False, "rows": [],
                              "lf": [], "seg": False, "bom": False}
    try:
        with open(image, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        from core.dataset.findings import finding
        from core.i18n import tr
        result["if"] = _f([finding("image-corrupt", image, tr("Cannot read the file: {reason}",
                                                               reason=exc.strerror or exc))])
    else:
        facts = check_image_bytes(data, image)
        result.update(w=facts.width, h=facts.height, fmt=facts.format, hash=facts.digest, **{"if": _f(facts.findings)})
    try:
        with open(label, "rb") as handle:
            raw = handle.read()
    except FileNotFoundError:
        return result
    except OSError:
        return result
    parsed = parse_label_bytes(raw, label)
    result.update(lbl=True, rows=[list(r) for r in parsed.rows], lf=_f(parsed.findings), seg=parsed.segments,
                  bom=parsed.fixable_bom)
    return result


def check_chunk(pairs: list[tuple[str, str]]) -> list[dict[str, Any]]:
    return [check_pair(image, label) for image, label in pairs]


def _stat_key(image: str, label: str) -> list[int]:
    key: list[int] = []
    for path in (image, label):
        try:
            st = os.stat(path)
            key += [st.st_size, st.st_mtime_ns]
        except OSError:
            key += [-1, -1]
    return key


class ScanCache:
    """``{image path: {"k": stat key, "r": result}}``: a JSON snapshot plus a JSON-lines journal of changes.

    A re-check after a few fixes appends a few journal lines instead of rewriting every entry; the snapshot
    is rewritten (and the journal dropped) when the journal grows past a fifth of the entries or entries
    for files that left the dataset are pruned. JSON only, no pickle: a cache file can never run code, and
    a torn last journal line (a crash mid-write) is skipped.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.entries: dict[str, dict[str, Any]] = {}
        self._new: list[str] = []
        self._journal_lines = 0
        if path is None:
            return
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            if data.get("version") == CACHE_VERSION:
                self.entries = data.get("files", {})
        except (OSError, ValueError, AttributeError):
            self.entries = {}
        try:
            with open(self._journal(), encoding="utf-8") as handle:
                for line in handle:
                    try:
                        image, key, result = json.loads(line)
                    except (ValueError, TypeError):
                        continue
                    self.entries[image] = {"k": key, "r": result}
                    self._journal_lines += 1
        except OSError:
            pass

    def _journal(self) -> Path:
        assert self.path is not None
        return Path(self.path).with_suffix(".journal")

    def get(self, image: str, key: list[int]) -> dict[str, Any] | None:
        entry = self.entries.get(image)
        return entry["r"] if entry is not None and entry.get("k") == key else None

    def put(self, image: str, key: list[int], result: dict[str, Any]) -> None:
        self.entries[image] = {"k": key, "r": result}
        self._new.append(image)

    def save(self, keep: set[str] | None = None) -> None:
        if self.path is None:
            return
        stale = [k for k in self.entries if k not in keep] if keep is not None else []
        for image in stale:
            del self.entries[image]
        try:
            if stale or self._journal_lines + len(self._new) > max(100, len(self.entries) // 5):
                blob = json.dumps({"version": CACHE_VERSION, "files": self.entries}, separators=(",", ":"))
                atomic_write_bytes(self.path, blob.encode("utf-8"), backup=False)  # our own file: no backup
                self._journal().unlink(missing_ok=True)
                self._journal_lines = 0
            elif self._new:
                lines = "".join(json.dumps([i, self.entries[i]["k"], self.entries[i]["r"]], separators=(",", ":"))
                                + "\n" for i in dict.fromkeys(self._new) if i in self.entries)
                self._journal().parent.mkdir(parents=True, exist_ok=True)
                with open(self._journal(), "a", encoding="utf-8") as handle:
                    handle.write(lines)
                self._journal_lines += len(self._new)
            self._new = []
        except OSError:
            pass  # a cache that cannot be written only makes the next check slower


@dataclass
class ScanStats:
    total: int = 0
    from_cache: int = 0
    read: int = 0


def scan_pairs(pairs: list[tuple[str, str]], cache: ScanCache, progress: Progress | None = None,
               cancelled: Cancelled | None = None, workers: int | None = None) -> tuple[dict[str, dict], ScanStats]:
    """Results per image path; raises ``ScanCancelled`` (after caching what was done) on cancel."""
    progress = progress or (lambda done, total: None)
    cancelled = cancelled or (lambda: False)
    results: dict[str, dict[str, Any]] = {}
    todo: list[tuple[str, str, list[int]]] = []
    for image, label in pairs:
        key = _stat_key(image, label)
        hit = cache.get(image, key)
        if hit is not None:
            results[image] = hit
        else:
            todo.append((image, label, key))
    stats = ScanStats(total=len(pairs), from_cache=len(results), read=len(todo))
    total = len(pairs)
    progress(len(results), total)
    workers = workers if workers is not None else max(1, min(os.cpu_count() or 1, 16))
    try:
        if len(todo) < PARALLEL_MIN or workers <= 1:
            _scan_here(todo, cache, results, total, progress, cancelled)
        else:
            _scan_processes(todo, cache, results, total, progress, cancelled, workers)
    finally:
        if cancelled():
            cache.save()
    return results, stats


def _scan_here(todo: list[tuple[str, str, list[int]]], cache: ScanCache, results: dict[str, dict], total: int,
               progress: Progress, cancelled: Cancelled) -> None:
    last = time.monotonic()
    for index, (image, label, key) in enumerate(todo):
        if index % 32 == 0 and cancelled():
            raise ScanCancelled()
        result = check_pair(image, label)
        cache.put(image, key, result)
        results[image] = result
        now = time.monotonic()
        if now - last > 0.1:
            last = now
            progress(len(results), total)
    progress(len(results), total)


def _scan_processes(todo: list[tuple[str, str, list[int]]], cache: ScanCache, results: dict[str, dict], total: int,
                    progress: Progress, cancelled: Cancelled, workers: int) -> None:
    size = max(64, min(CHUNK, len(todo) // (workers * 4) or 64))
    chunks = [todo[i:i + size] for i in range(0, len(todo), size)]
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"))
    pending: dict[Future, list[tuple[str, str, list[int]]]] = {}
    try:
        queue = iter(chunks)
        for chunk in queue:
            pending[pool.submit(check_chunk, [(i, lbl) for i, lbl, _ in chunk])] = chunk
            if len(pending) >= workers * 3:
                break
        while pending:
            done, _ = wait(list(pending), timeout=0.2, return_when=FIRST_COMPLETED)
            if cancelled():
                raise ScanCancelled()
            for future in done:
                chunk = pending.pop(future)
                for (image, _, key), result in zip(chunk, future.result()):
                    cache.put(image, key, result)
                    results[image] = result
                nxt = next(queue, None)
                if nxt is not None:
                    pending[pool.submit(check_chunk, [(i, lbl) for i, lbl, _ in nxt])] = nxt
            if done:
                progress(len(results), total)
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
