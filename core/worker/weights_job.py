"""The weights-store worker jobs: ``weights_get`` (download, check, store) and ``weights_import`` (check, store).

``weights_get`` spec: ``{"workspace", "name": "yolov5s", "timeout_s"?, "retries"?}``. The file comes from
the official release URL (``core.weights.download``: HTTPS, resume, retries) into
``weights/.partial/<name>.pt.part``, reporting ``download`` events (bytes, speed, ETA); a stop cancels it
at once and keeps the partial file for a later resume. Then, in this worker, never in the GUI: the size
the server announced, the published SHA-256 when there is one (none is published today: see
``core.weights.catalog``), and a full load as the expected architecture (``weights_check``). Only then is
it moved to its final name and its SHA-256 recorded in the manifest (``core.weights.store``). A file that
fails the checks is deleted, so the next try starts clean; one that was merely interrupted is kept.

``weights_import`` spec: ``{"workspace", "source": FILE, "name": "x.pt"}`` — run only after the user
confirmed that they trust the file (it is unpickled here). It is copied in, checked as a YOLOv5 detection
checkpoint (as the official one when it is named like one), hashed into the manifest and then trusted.
"""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path
from typing import Any

from core.i18n import tr
from core.weights.catalog import Checkpoint, find_checkpoint
from core.weights.download import Download, Progress, url_for
from core.weights.download_errors import DownloadError
from core.weights.store import StoredFile, StoreError, WeightsStore, sha256_of, valid_store_name
from core.worker.job import JobContext, JobError
from core.worker.weights_check import CheckpointMismatch, check_checkpoint

#: A download whose announced size is outside this share of the size the published parameter count implies
#: is refused before it starts (a yolov5s is ~15 MB: an error page or a 2 GB file is not it).
PLAUSIBLE_SIZE = (0.5, 2.0)
#: Failures that say the bytes are wrong (not merely incomplete): the partial file goes.
_BAD_BYTES = ("size", "refused", "hash", "checkpoint")


def _checkpoint_named(name: str) -> Checkpoint:
    checkpoint = find_checkpoint(name)
    if checkpoint is None:
        raise JobError("weights", tr("{name} is not an official YOLOv5 v7.0 checkpoint.", name=name),
                       tr("See the list with: yolostudio weights list"))
    return checkpoint


def run_weights_get(ctx: JobContext) -> str:
    checkpoint = _checkpoint_named(str(ctx.spec["name"]))
    store = WeightsStore(ctx.workspace)
    file_name = checkpoint.file_name
    if store.state(file_name) == "ok" and store.verify(file_name):
        ctx.emit("log", level="info", message=tr("{file} is already on this machine.", file=file_name))
        _finish(ctx, store, file_name, already=True)
        return "completed"
    try:
        with store.download_lock(file_name):
            part = store.partial_path(file_name)
            size = _download(ctx, checkpoint, part)
            if size is None:
                return "stopped"
            ctx.prepare_stack()  # yolov5's offline patches and hello, now that torch is needed
            ctx.emit("stage", stage="verifying", detail=file_name)
            try:
                record = _check(ctx, part, file_name, checkpoint, source="download", url=url_for(file_name))
            except JobError:
                store.clear_partial(file_name)
                raise
            store.add(part, record)
            store.clear_partial(file_name)
    except StoreError as exc:
        raise JobError("weights", exc.message, exc.hint) from None
    _finish(ctx, store, file_name)
    return "completed"


def _download(ctx: JobContext, checkpoint: Checkpoint, part: Path) -> int | None:
    """The file into ``part``; its size, or None when the user stopped it (the part stays, to resume)."""
    low, high = PLAUSIBLE_SIZE
    download = Download(url_for(checkpoint.file_name), part,
                        timeout_s=float(ctx.spec.get("timeout_s", 30)), retries=int(ctx.spec.get("retries", 3)),
                        plausible=(int(checkpoint.estimated_bytes * low), int(checkpoint.estimated_bytes * high)),
                        expected_size=checkpoint.size_bytes,
                        on_progress=lambda p: _progress(ctx, checkpoint.file_name, p),
                        on_retry=lambda error, attempt, pause: ctx.emit("log", level="warning", message=tr(
                            "{reason} Trying again in {seconds:g} s (try {attempt} of {tries}).",
                            reason=error.message, seconds=pause, attempt=attempt, tries=download.retries + 1)))
    finished = threading.Event()

    def cancel_on_stop() -> None:
        """A stop cancels at once; meanwhile a silent server still gets a progress line each second."""
        while not finished.is_set():
            if ctx.control.stop_requested.wait(0.2):
                download.cancel()
                return
            download.tick()

    watcher = threading.Thread(target=cancel_on_stop, name="weights-cancel", daemon=True)
    watcher.start()
    ctx.emit("stage", stage="downloading", detail=download.url)
    try:
        size = download.run()
    except DownloadError as exc:
        if exc.kind == "cancelled":
            return None
        if exc.kind in _BAD_BYTES:
            WeightsStore(ctx.workspace).clear_partial(checkpoint.file_name)
        raise JobError(f"download-{exc.kind}", exc.message, exc.hint) from None
    finally:
        finished.set()
        watcher.join(1)
    ctx.done_fields["resumed_from"] = download.resumed_from
    return size


def _progress(ctx: JobContext, name: str, progress: Progress) -> None:
    ctx.emit("download", name=name, received=progress.received, total=progress.total,
             speed_bps=progress.speed_bps, eta_s=progress.eta_s)


def _check(ctx: JobContext, part: Path, file_name: str, checkpoint: Checkpoint | None, *, source: str,
           url: str = "", origin: str = "") -> StoredFile:
    """Hash and load ``part``; the manifest record when it is what it claims, else ``JobError``."""
    sha256 = sha256_of(part)
    if checkpoint is not None and checkpoint.sha256 and sha256 != checkpoint.sha256:
        raise JobError("download-hash", tr("{file}'s SHA-256 is {got}, not the published {want}: refused and "
                                           "deleted.", file=file_name, got=sha256, want=checkpoint.sha256),
                       tr("Get it again; if it happens again the file on the server has changed."))
    try:
        facts = check_checkpoint(part, checkpoint)
    except CheckpointMismatch as exc:
        raise JobError("checkpoint", str(exc), tr("Nothing was stored. Check where the file came from.")) from None
    ctx.emit("log", level="info", message=tr("{file}: {params:,} parameters, {layers} output layers, {classes} "
                                             "classes.", file=file_name, params=facts["params"],
                                             layers=facts["detect_layers"], classes=facts["classes"]))
    return StoredFile(file_name, sha256, part.stat().st_size, source, time.time(), url=url, origin=origin,
                      facts=facts)


def _finish(ctx: JobContext, store: WeightsStore, file_name: str, already: bool = False) -> None:
    record = store.entry(file_name)
    fields: dict[str, Any] = {"name": file_name, "path": str(store.path(file_name)), "already": already}
    if record is not None:
        fields.update(sha256=record.sha256, size=record.size, facts=record.facts)
    ctx.done_fields.update(fields)


def run_weights_import(ctx: JobContext) -> str:
    source = Path(str(ctx.spec["source"])).expanduser()
    file_name = str(ctx.spec.get("name") or source.name)
    if not valid_store_name(file_name):
        raise JobError("weights", tr("{name} is not a valid name for the weights store.", name=file_name),
                       tr("Give a plain file name ending in .pt (--name)."))
    if not source.is_file():
        raise JobError("weights", tr("File not found: {path}", path=source), "")
    store = WeightsStore(ctx.workspace)
    if store.state(file_name) != "absent":
        raise JobError("weights", tr("{name} is already in the weights store.", name=file_name),
                       tr("Remove it first (yolostudio weights remove {name}), or import under another name "
                          "(--name).", name=file_name))
    try:
        with store.download_lock(file_name):
            part = store.partial_path(file_name, ".import")
            part.parent.mkdir(parents=True, exist_ok=True)
            ctx.emit("stage", stage="copying", detail=str(source))
            try:
                shutil.copyfile(source, part)
                ctx.emit("stage", stage="verifying", detail=file_name)
                record = _check(ctx, part, file_name, find_checkpoint(file_name), source="import",
                                origin=str(source.resolve()))
            except BaseException:
                store.clear_partial(file_name)
                raise
            store.add(part, record)
    except StoreError as exc:
        raise JobError("weights", exc.message, exc.hint) from None
    except OSError as exc:
        raise JobError("weights", tr("Could not copy {path} into the weights store: {reason}", path=source,
                                     reason=exc), tr("Check the disk space and permissions of {folder}.",
                                                     folder=store.root)) from None
    _finish(ctx, store, file_name)
    return "completed"
