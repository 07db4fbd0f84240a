"""A checkpoint in the workspace's weights store as a finished download leaves it, without the download."""

from __future__ import annotations

import time

from core.weights.store import StoredFile, WeightsStore, sha256_of


def store_file(workspace, name: str, data: bytes = b"weights") -> WeightsStore:
    """A file as the store holds it after a download (the GUI's cheap check: listed, recorded size)."""
    store = WeightsStore(workspace)
    store.partial_dir.mkdir(parents=True, exist_ok=True)
    part = store.partial_path(name)
    part.write_bytes(data)
    store.add(part, StoredFile(name, sha256_of(part), len(data), "download", time.time()))
    return store
