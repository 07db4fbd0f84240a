"""The worker protocol: versioned JSON-lines events, their writer and an incremental reader.

Every line a worker writes is one JSON object ``{"v": 1, "type": ..., "t": <unix time>, ...}``. The same
lines go to the worker's stdout (for whoever launched it) and to ``<run_dir>/events.jsonl`` (so a GUI that
was closed can re-attach to a live run, or replay a finished one). ``docs/protocol.md`` documents every
event type and field; keep it in step with ``EVENT_TYPES`` below.

Readers must survive the real world: a pipe hands over arbitrary chunks, so ``LineDecoder`` keeps the
partial last line between reads, and a line that is not a protocol object (a stray print, a C-level
warning) comes back as log text instead of an exception.
"""

from __future__ import annotations

import errno
import json
import math
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Iterator

from core.job.event_fields import clean_event
from core.stored_file import NotRegularFile, open_regular

PROTOCOL_VERSION = 1

#: Every event type a worker may emit, with the fields it always carries (beyond v/type/t).
EVENT_TYPES: dict[str, tuple[str, ...]] = {
    "hello": ("job", "pid", "versions", "devices"),
    "stage": ("stage",),
    "epoch_start": ("epoch", "epochs"),
    "batch": ("epoch", "epochs", "index", "count", "losses", "data_wait_s", "step_s", "window"),
    "epoch_end": ("epoch", "epochs", "metrics", "fitness", "best_fitness", "epoch_time_s"),
    "system": ("cpu_percent", "ram_used_gb", "ram_total_gb", "gpus"),
    "checkpoint": ("path", "epoch", "reason"),
    "log": ("level", "message"),
    "warning": ("code", "message"),
    "error": ("kind", "message", "hint"),
    "diagnosis": ("code", "severity", "title", "detail", "evidence", "prescriptions"),
    "trial": ("trial", "run", "state"),
    "done": ("status", "elapsed_s"),
    "probe_step": ("step", "index", "count"),
    "facts": ("facts", "final"),
    "export_result": ("format", "ok", "report"),
    "predictions": ("image", "width", "height", "boxes", "names"),
    "preview": ("image", "frame", "width", "height", "boxes", "jpeg"),
    "repair_progress": ("phase", "text", "fraction", "cancellable"),
    "download": ("name", "received", "total", "speed_bps", "eta_s"),
    "wizard_step": ("step", "index", "count", "status"),
    "import_progress": ("phase", "done", "total"),
    "eval_progress": ("index", "count", "images"),
    "kfold_progress": ("fold", "folds", "stage", "epoch", "epochs"),
}

#: Final states of a run as carried by the ``done`` event.
DONE_STATUSES = ("completed", "stopped", "failed")

#: Control messages a worker accepts on stdin or in ``<run_dir>/control.jsonl``.
CONTROL_TYPES = ("stop",)


def _clean(value: Any) -> Any:
    """Make a value JSON-safe: numpy/torch scalars to Python numbers, NaN/inf to None, paths to str."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    item = getattr(value, "item", None)  # numpy / torch scalars, without importing either
    if callable(item):
        try:
            return _clean(item())
        except (TypeError, ValueError):
            pass
    tolist = getattr(value, "tolist", None)
    if callable(tolist):
        return _clean(tolist())
    return str(value)


def make_event(event_type: str, *, t: float | None = None, **fields: Any) -> dict[str, Any]:
    """Build one protocol event; unknown types are refused so typos can't leak into the stream."""
    if event_type not in EVENT_TYPES:
        raise ValueError(f"unknown event type {event_type!r}")
    event: dict[str, Any] = {"v": PROTOCOL_VERSION, "type": event_type, "t": time.time() if t is None else t}
    event.update(_clean(fields))
    return event


def encode(event: dict[str, Any]) -> str:
    """One event as one line of compact JSON, newline included (non-ASCII kept readable)."""
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"


def encode_control(control_type: str) -> str:
    """One control line for a worker (its stdin, or ``<run_dir>/control.jsonl``), newline included.

    The only encoder of control lines: the GUI, the CLI and ``yolostudio stop`` all send these."""
    if control_type not in CONTROL_TYPES:
        raise ValueError(f"unknown control type {control_type!r}")
    return encode({"v": PROTOCOL_VERSION, "type": control_type, "t": time.time()})


def parse_control(line: str) -> str | None:
    """The control type a line asks for, or None for anything else (garbage is ignored, never fatal)."""
    try:
        message = json.loads(line)
    except ValueError:
        return None
    if isinstance(message, dict) and message.get("type") in CONTROL_TYPES:
        return str(message["type"])
    return None


@dataclass
class Decoded:
    """One complete line from a stream: a protocol event, or plain text that was not one."""

    event: dict[str, Any] | None = None
    text: str | None = None


#: How every event line starts (``encode`` of ``make_event``): where a glued event begins after a torn fragment.
EVENT_START = '{"v":'
#: How many event starts inside one unparsable line are tried (several torn fragments in a row, at most).
_GLUE_TRIES = 8


def _event_of(text: str) -> dict[str, Any] | None:
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(obj, dict) and isinstance(obj.get("type"), str) and type(obj.get("v")) is int:
        return clean_event(obj)
    return None


def parse_line(line: str) -> Decoded:
    """Parse one complete line; anything that is not a versioned protocol object is log text.

    A line that starts with a torn fragment (a killed writer's last bytes, then the next worker's first
    event glued on by an older writer) still yields the whole event after the fragment. Every event's
    fields pass the typed boundary (``core.job.event_fields``) here, for every reader."""
    stripped = line.strip()
    if not stripped:
        return Decoded(text="")
    if stripped.startswith("{"):
        event = _event_of(stripped)
        if event is not None:
            return Decoded(event=event)
        glued = stripped.find(EVENT_START, 1)
        for _ in range(_GLUE_TRIES):
            if glued < 0:
                break
            event = _event_of(stripped[glued:])
            if event is not None:
                return Decoded(event=event)
            glued = stripped.find(EVENT_START, glued + 1)
    return Decoded(text=line.rstrip("\r\n"))


@dataclass
class LineDecoder:
    """Turns arbitrary chunks of bytes into complete lines, keeping the partial last line between calls.

    ``max_line`` bounds memory when a producer never writes a newline: an over-long partial line is
    flushed as text rather than growing without limit.
    """

    max_line: int = 1 << 20
    _buffer: bytearray = field(default_factory=bytearray)

    def feed(self, chunk: bytes) -> list[Decoded]:
        self._buffer.extend(chunk)
        out: list[Decoded] = []
        while True:
            newline = self._buffer.find(b"\n")
            if newline < 0:
                break
            raw = bytes(self._buffer[: newline + 1])
            del self._buffer[: newline + 1]
            out.append(parse_line(raw.decode("utf-8", errors="replace")))
        if len(self._buffer) > self.max_line:
            out.append(Decoded(text=self._buffer.decode("utf-8", errors="replace")))
            self._buffer.clear()
        return out

    def flush(self) -> list[Decoded]:
        """At end of stream: the unterminated last line, if any, as a final line."""
        if not self._buffer:
            return []
        raw = bytes(self._buffer)
        self._buffer.clear()
        return [parse_line(raw.decode("utf-8", errors="replace"))]

    @property
    def pending(self) -> int:
        return len(self._buffer)


def open_lines_for_append(path: Path) -> IO[bytes]:
    """A binary append handle on a JSON-lines file (events, control), positioned at the start of a line.

    A writer killed mid-line leaves a torn tail; the next writer's first line would be glued onto it and
    both lost to every reader. So a file that does not end with a newline gets one first: the fragment
    becomes a line of its own, which readers skip."""
    handle = open(path, "a+b")  # noqa: SIM115 - the caller closes it
    try:
        if handle.seek(0, os.SEEK_END) > 0:
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) != b"\n":
                handle.write(b"\n")
                handle.flush()
    except BaseException:
        handle.close()
        raise
    return handle


def append_line(handle: IO[bytes], line: bytes) -> None:
    """Append one whole line or nothing: a write cut short (a full disk) is truncated away again, so no
    reader ever meets a torn line this process wrote. Raises the write's OSError."""
    start = handle.seek(0, os.SEEK_END)
    try:
        handle.write(line)
        handle.flush()
    except OSError:
        try:
            handle.truncate(start)
        except OSError:
            pass
        raise


#: Events the run's record needs to say how it ended; on a full disk the others go to the stream only.
ESSENTIAL_EVENTS = frozenset({"stage", "error", "done", "checkpoint", "epoch_end", "warning", "export_result"})


class EventWriter:
    """Writes events to a stream and appends them to an events file; thread-safe.

    The stream is optional and may go away: when the launching GUI exits and the run continues in the
    background, writes to the closed pipe fail; the writer then stops using the stream and keeps the
    events file, which is the run's durable record.
    """

    def __init__(self, stream: IO[str] | None = None, events_path: Path | None = None, *,
                 on_disk_full: Callable[[], bool] | None = None) -> None:
        self._lock = threading.Lock()
        self._listeners: list[Callable[[dict[str, Any]], None]] = []
        self._stream = stream
        self._file: IO[bytes] | None = None
        self._on_disk_full = on_disk_full  # frees reserved space; True when it did (``core.worker``)
        self._short_of_space = False
        if events_path is not None:
            events_path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open_lines_for_append(events_path)

    def add_listener(self, listener: Callable[[dict[str, Any]], None]) -> None:
        """Called with every event after it is written (outside the writer's lock, so it may emit)."""
        self._listeners.append(listener)

    def emit(self, event_type: str, **fields: Any) -> dict[str, Any]:
        event = make_event(event_type, **fields)
        self.write(event)
        return event

    def write(self, event: dict[str, Any]) -> None:
        line = encode(event)
        with self._lock:
            if self._file is not None:
                self._write_file(line.encode("utf-8"), essential=event.get("type") in ESSENTIAL_EVENTS)
            if self._stream is not None:
                try:
                    self._stream.write(line)
                    self._stream.flush()
                except (OSError, ValueError):
                    self._stream = None  # the reader went away; the events file carries on
        for listener in self._listeners:
            listener(event)

    def _write_file(self, data: bytes, *, essential: bool) -> None:
        """Whole lines only. On a full disk the reserved space is given up once so that how the run ends
        (its error and done events) can still be written; from then on only essential events are."""
        assert self._file is not None
        if self._short_of_space and not essential:
            return
        try:
            append_line(self._file, data)
        except OSError as exc:
            if exc.errno != errno.ENOSPC or self._on_disk_full is None or self._short_of_space:
                raise
            self._short_of_space = True
            if not self._on_disk_full():
                raise
            if essential:
                append_line(self._file, data)

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None


def read_events(path: Path) -> list[dict[str, Any]]:
    """All complete events of an events file (a torn last line from a killed worker is ignored)."""
    return list(iter_events(path))


def iter_events(path: Path) -> Iterator[dict[str, Any]]:
    try:
        handle = open_regular(path)  # a FIFO in the events file's place must not hang a listing
    except (FileNotFoundError, NotRegularFile):
        return
    with handle:
        for raw in handle:
            if not raw.endswith(b"\n"):
                break  # torn write at the end of a killed worker's file
            decoded = parse_line(raw.decode("utf-8", errors="replace"))
            if decoded.event is not None:
                yield decoded.event


class EventFileTail:
    """Follows a growing events file: each ``poll()`` returns the events appended since the last one.

    This is how a GUI re-attaches to a run it did not start (or started before it was restarted); it
    keeps a partial last line between polls exactly like ``LineDecoder`` does for a pipe.
    """

    def __init__(self, path: Path, *, from_start: bool = True) -> None:
        self.path = path
        self._offset = 0
        self._decoder = LineDecoder()
        #: False when the last poll stopped at its byte limit: more is waiting to be read.
        self.caught_up = True
        if not from_start and path.exists():
            self._offset = path.stat().st_size

    @property
    def offset(self) -> int:
        """Where the next read starts: every byte before it was read once (a partial line waits in the decoder)."""
        return self._offset

    def poll(self, max_bytes: int = 4 << 20) -> list[dict[str, Any]]:
        try:
            with open(self.path, "rb") as handle:
                handle.seek(self._offset)
                chunk = handle.read(max_bytes)
        except FileNotFoundError:
            self.caught_up = True
            return []
        self._offset += len(chunk)
        self.caught_up = len(chunk) < max_bytes
        return [d.event for d in self._decoder.feed(chunk) if d.event is not None]
