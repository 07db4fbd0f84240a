"""Words about weights shared by the CLI and the GUI: store states, download progress, the catalog rows."""

from __future__ import annotations

from typing import Any

from core.export.render import size_text
from core.i18n import tr
from core.run.progress import format_duration
from core.weights.catalog import CATALOG, Checkpoint, find_checkpoint
from core.weights.store import StoredFile, WeightsStore, iter_stored


def row_state_text(row: dict[str, Any]) -> str:
    """The row's state in words; an absent checkpoint with part of it downloaded says a Get resumes it."""
    if row["state"] == "absent" and row.get("partial_bytes"):
        return tr("{size} downloaded — get it again to resume", size=size_text(row["partial_bytes"]))
    return state_text(row["state"])


def state_text(state: str) -> str:
    return {
        "ok": tr("on this machine"),
        "changed": tr("changed on disk — remove and get it again"),
        "unlisted": tr("not recorded — remove, then get or import it"),
        "absent": tr("not on this machine"),
    }.get(state, state)


def progress_text(received: int, total: int | None, speed_bps: float | None, eta_s: float | None) -> str:
    """``4.2 MB of 14.8 MB · 3.1 MB/s · 0:04 left``."""
    done = size_text(received)
    parts = [tr("{done} of {total}", done=done, total=size_text(total)) if total else done]
    if speed_bps:
        parts.append(tr("{mb:.1f} MB/s", mb=speed_bps / 1e6))
    elif speed_bps is not None and received:
        parts.append(tr("waiting for the server"))
    if eta_s is not None and total:
        parts.append(tr("{eta} left", eta=format_duration(eta_s)))
    return " · ".join(parts)


def weights_rows(store: WeightsStore) -> list[dict[str, Any]]:
    """Every official checkpoint, then every other stored file, as one plain record each (``--json``, tables)."""
    entries = {name: (record, state) for name, record, state in iter_stored(store)}
    rows = [_row(c.file_name, c, *entries.pop(c.file_name, (None, "absent")), store) for c in CATALOG]
    rows += [_row(name, None, record, state, store) for name, (record, state) in sorted(entries.items())]
    return rows


def _row(file_name: str, checkpoint: Checkpoint | None, record: StoredFile | None, state: str,
         store: WeightsStore) -> dict[str, Any]:
    row: dict[str, Any] = {
        "file": file_name,
        "official": checkpoint is not None,
        "state": state,
        "path": str(store.path(file_name)) if state != "absent" else None,
        "sha256": record.sha256 if record else None,
        "bytes": record.size if record else None,
        "source": record.source if record else None,
        "origin": (record.url or record.origin) if record else None,
    }
    part = store.partial_path(file_name)
    if state == "absent" and part.is_file():
        row["partial_bytes"] = part.stat().st_size
    if checkpoint is not None:
        row.update(name=checkpoint.name, url=checkpoint.url, image_size=checkpoint.image_size,
                   params_m=checkpoint.params_m, map50_95=checkpoint.map50_95,
                   estimated_bytes=checkpoint.estimated_bytes, purpose=checkpoint.describe())
    else:
        row.update(name=file_name.removesuffix(".pt"), purpose=_import_purpose(record))
    return row


def _import_purpose(record: StoredFile | None) -> str:
    if record is None:
        return tr("A file in the store that its manifest does not list.")
    facts = record.facts
    return tr("Imported: {classes} classes, {params:.1f} M parameters.", classes=facts.get("classes", "?"),
              params=(facts.get("params") or 0) / 1e6)


def size_of(row: dict[str, Any]) -> str:
    """The stored size when the file is here, else the catalog's estimate."""
    if row.get("bytes"):
        return size_text(row["bytes"])
    checkpoint = find_checkpoint(row["file"]) if row.get("official") else None
    return checkpoint.size_text() if checkpoint else "—"
