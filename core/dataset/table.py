"""Every image's per-file results as columns (numpy arrays), so a re-check never rebuilds 20,000 dicts.

Why columns: a re-check after a fix changes a handful of entries, yet the report needs totals, class
counts, box statistics and duplicate groups over all of them. Kept as arrays, those are a few vectorised
passes, and the table saves and loads as raw arrays (a JSON header plus the arrays' bytes, read back
with ``np.frombuffer``: a cache file can never run code). Rows are stored image by image in path order;
per-file findings are sparse (most files have none) and stay plain lists keyed by image path.

One entry in dict form, as the checks produce it and the journal stores it (``scan.check_image`` /
``scan.check_label``): image part ``{"w", "h", "hash", "f"}``, label part ``{"ok", "rows", "f"}``, where
``rows`` are ``[line, class, x, y, w, h]`` and ``f`` are finding rows.
"""

from __future__ import annotations

import json
import uuid
from bisect import bisect_left
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np

Entry = tuple[dict[str, Any], dict[str, Any]]  # (image part, label part)
HAS_DIGEST, HAS_LABEL = 1, 2
FORMAT = 2
MAGIC = b"YOLOSTUDIO-SCAN-TABLE\n"


@dataclass
class ScanTable:
    """Per image ``i`` of ``paths`` (sorted): its label path, stat key and checked facts."""

    paths: list[str]
    labels: list[str]
    keys: np.ndarray  # (N, 4) int64: image size, image mtime_ns, label size, label mtime_ns (-1: missing)
    wh: np.ndarray  # (N, 2) int64: width, height (0 when unreadable)
    digest: np.ndarray  # (N, 2) uint64: content hash, valid where flags & HAS_DIGEST
    flags: np.ndarray  # (N,) uint8
    counts: np.ndarray  # (N,) int64: usable label rows per image
    rows: np.ndarray  # (M, 6) float64: line, class, x, y, w, h
    image_findings: dict[str, list[list[Any]]] = field(default_factory=dict)  # by image path
    label_findings: dict[str, list[list[Any]]] = field(default_factory=dict)  # by image path too
    #: Names this exact list of paths: equal ids mean equal ``paths`` and ``labels`` (kept while they are),
    #: so results derived from the file list alone (orphans) can be reused without comparing 20,000 paths.
    paths_id: str = field(default_factory=lambda: uuid.uuid4().hex)

    def __len__(self) -> int:
        return len(self.paths)

    @cached_property
    def starts(self) -> np.ndarray:
        return np.cumsum(self.counts) - self.counts

    @cached_property
    def owner(self) -> np.ndarray:
        """The image index of every row."""
        return np.repeat(np.arange(len(self.paths)), self.counts)

    def row_index(self, images: np.ndarray) -> np.ndarray:
        """Indices into ``rows`` of the given images' rows, image by image."""
        return gather(self.starts[images], self.counts[images])

    def entry(self, i: int) -> Entry:
        """Image ``i`` in dict form (for the journal, or to keep one part when only the other changed)."""
        path, flags = self.paths[i], int(self.flags[i])
        digest = "%016x%016x" % tuple(int(v) for v in self.digest[i]) if flags & HAS_DIGEST else ""
        start, count = int(self.starts[i]), int(self.counts[i])
        image = {"w": int(self.wh[i, 0]), "h": int(self.wh[i, 1]), "hash": digest,
                 "f": self.image_findings.get(path, [])}
        label = {"ok": bool(flags & HAS_LABEL), "f": self.label_findings.get(path, []),
                 "rows": [[int(r[0]), *r[1:]] for r in self.rows[start:start + count].tolist()]}
        return image, label

    def to_bytes(self) -> bytes:
        """One file: a magic line, a JSON header (findings, and each array's dtype, shape and offset), then
        the arrays' raw bytes. Loading maps them back with ``np.frombuffer``: no pickle, no zip overhead."""
        arrays = {"keys": self.keys, "wh": self.wh, "digest": self.digest, "flags": self.flags,
                  "counts": self.counts, "rows": self.rows, "paths": _blob(self.paths), "labels": _blob(self.labels)}
        specs, offset, chunks = {}, 0, []
        for name, array in arrays.items():
            data = np.ascontiguousarray(array).tobytes()
            specs[name] = [array.dtype.str, list(array.shape), offset, len(data)]
            chunks.append(data + b"\0" * (-len(data) % 8))
            offset += len(chunks[-1])
        header = json.dumps({"format": FORMAT, "arrays": specs, "i": self.image_findings, "l": self.label_findings,
                             "id": self.paths_id},
                            separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogateescape")
        return MAGIC + len(header).to_bytes(8, "little") + header + b"".join(chunks)

    @classmethod
    def from_file(cls, path: str) -> ScanTable | None:
        """The saved table, or None when it is missing, from another format or damaged."""
        try:
            with open(path, "rb") as handle:
                blob = handle.read()
            if not blob.startswith(MAGIC):
                return None
            start = len(MAGIC) + 8
            end = start + int.from_bytes(blob[len(MAGIC):start], "little")
            meta = json.loads(blob[start:end].decode("utf-8", "surrogateescape"))
            if meta.get("format") != FORMAT:
                return None
            body = memoryview(blob)[end:]
            arrays = {}
            for name, (dtype, shape, offset, size) in meta["arrays"].items():
                if np.dtype(dtype).hasobject or offset + size > len(body):
                    return None
                arrays[name] = np.frombuffer(body[offset:offset + size], dtype=dtype).reshape(shape)
            paths, labels = _unblob(arrays["paths"]), _unblob(arrays["labels"])
            table = cls(paths, labels, arrays["keys"], arrays["wh"], arrays["digest"], arrays["flags"],
                        arrays["counts"], arrays["rows"], meta["i"], meta["l"], str(meta["id"]))
        except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
            return None
        n = len(paths)
        shapes_ok = (len(labels) == n and table.keys.shape == (n, 4) and table.wh.shape == (n, 2)
                     and table.digest.shape == (n, 2) and table.flags.shape == (n,) and table.counts.shape == (n,)
                     and table.rows.ndim == 2 and table.rows.shape == (int(table.counts.sum()), 6)
                     and isinstance(table.image_findings, dict) and isinstance(table.label_findings, dict))
        return table if shapes_ok else None


def gather(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``concatenate([arange(s, s + c) for s, c in zip(starts, counts)])`` without a Python loop."""
    counts = np.asarray(counts, dtype=np.int64)
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.cumsum(counts) - counts
    return np.repeat(np.asarray(starts, dtype=np.int64) - offsets, counts) + np.arange(total, dtype=np.int64)


def from_entries(paths: list[str], labels: list[str], keys: np.ndarray, entries: list[Entry]) -> ScanTable:
    """A table of freshly checked entries (``entries[i]`` belongs to ``paths[i]``)."""
    n = len(entries)
    wh = np.zeros((n, 2), dtype=np.int64)
    digest = np.zeros((n, 2), dtype=np.uint64)
    flags = np.zeros(n, dtype=np.uint8)
    counts = np.zeros(n, dtype=np.int64)
    rows: list[list[float]] = []
    image_findings: dict[str, list[list[Any]]] = {}
    label_findings: dict[str, list[list[Any]]] = {}
    for i, (image, label) in enumerate(entries):
        wh[i] = image["w"], image["h"]
        if image["hash"]:
            digest[i] = int(image["hash"][:16], 16), int(image["hash"][16:32], 16)
            flags[i] |= HAS_DIGEST
        if label["ok"]:
            flags[i] |= HAS_LABEL
        counts[i] = len(label["rows"])
        rows += label["rows"]
        if image["f"]:
            image_findings[paths[i]] = image["f"]
        if label["f"]:
            label_findings[paths[i]] = label["f"]
    array = np.array(rows, dtype=np.float64).reshape(-1, 6)
    return ScanTable(list(paths), list(labels), np.asarray(keys, dtype=np.int64).reshape(-1, 4), wh, digest, flags,
                     counts, array, image_findings, label_findings)


def merge(paths: list[str], labels: list[str], keys: np.ndarray, old: ScanTable | None, source: np.ndarray,
          fresh: dict[int, Entry]) -> ScanTable:
    """The table for ``paths``: entry ``i`` from ``fresh[i]`` when given, else row ``source[i]`` of ``old``.

    Unchanged entries are copied as whole arrays (no per-entry Python work), so a re-check after a few
    fixes costs a few vectorised copies however large the dataset is.
    """
    order = sorted(fresh)
    at = np.array(order, dtype=np.int64)
    new = from_entries([paths[i] for i in order], [labels[i] for i in order],
                       keys[at] if order else np.zeros((0, 4), dtype=np.int64), [fresh[i] for i in order])
    keys = np.asarray(keys, dtype=np.int64)
    if old is None or not len(old):
        assert len(order) == len(paths), "every entry must come from somewhere"
        new.keys = keys
        return new
    n = len(paths)
    if n == len(old) and bool((np.asarray(source) == np.arange(n)).all()):
        return _patched(old, keys, at, new)  # same files as last time: the usual re-check
    src = np.asarray(source, dtype=np.int64).copy()
    src[at] = -1
    taken = src >= 0
    assert int(taken.sum()) + len(order) == n, "every entry must come from somewhere"
    pick = src[taken]

    def column(old_col: np.ndarray, new_col: np.ndarray) -> np.ndarray:
        out = np.zeros((n,) + old_col.shape[1:], dtype=old_col.dtype)
        out[taken] = old_col[pick]
        out[at] = new_col
        return out

    counts = column(old.counts, new.counts)
    starts = np.zeros(n, dtype=np.int64)
    starts[taken] = old.starts[pick]
    starts[at] = new.starts + len(old.rows)
    rows = np.concatenate([old.rows, new.rows])[gather(starts, counts)]
    kept = np.zeros(len(old), dtype=bool)
    kept[pick] = True
    image_findings = {p: f for p, f in old.image_findings.items() if _kept(old.paths, kept, p)}
    label_findings = {p: f for p, f in old.label_findings.items() if _kept(old.paths, kept, p)}
    image_findings.update(new.image_findings)
    label_findings.update(new.label_findings)
    return ScanTable(list(paths), list(labels), keys, column(old.wh, new.wh), column(old.digest, new.digest),
                     column(old.flags, new.flags), counts, rows, image_findings, label_findings, uuid.uuid4().hex)


def _patched(old: ScanTable, keys: np.ndarray, at: np.ndarray, new: ScanTable) -> ScanTable:
    """``old`` with the entries at positions ``at`` replaced by ``new``'s (same paths, same order)."""
    if not len(at):
        return replace(old, keys=keys)
    wh, digest, flags, counts = old.wh.copy(), old.digest.copy(), old.flags.copy(), old.counts.copy()
    wh[at], digest[at], flags[at], counts[at] = new.wh, new.digest, new.flags, new.counts
    if bool((old.counts[at] == new.counts).all()):  # same number of rows each: overwrite them in place
        rows = old.rows.copy()
        rows[gather(old.starts[at], new.counts)] = new.rows
    else:
        starts = old.starts.copy()
        starts[at] = new.starts + len(old.rows)
        rows = np.concatenate([old.rows, new.rows])[gather(starts, counts)]
    changed = {old.paths[i] for i in at.tolist()}
    image_findings = {p: f for p, f in old.image_findings.items() if p not in changed}
    label_findings = {p: f for p, f in old.label_findings.items() if p not in changed}
    image_findings.update(new.image_findings)
    label_findings.update(new.label_findings)
    return ScanTable(old.paths, old.labels, keys, wh, digest, flags, counts, rows, image_findings, label_findings,
                     old.paths_id)


def _kept(paths: list[str], kept: np.ndarray, path: str) -> bool:
    j = bisect_left(paths, path)  # paths are sorted; the findings are few, so no path -> index dict is built
    return j < len(paths) and paths[j] == path and bool(kept[j])


def _blob(texts: list[str]) -> np.ndarray:
    """Strings as one NUL-separated UTF-8 byte array (a path never holds NUL); no object arrays, no pickle."""
    return np.frombuffer("\0".join(texts).encode("utf-8", "surrogateescape"), dtype=np.uint8)


def _unblob(array: np.ndarray) -> list[str]:
    text = array.tobytes().decode("utf-8", "surrogateescape")
    return text.split("\0") if text else []
