"""Reading a run folder's own files at one typed boundary: ``config.json``, ``results.csv``, the events file.

A run folder is data anyone can damage: a worker killed mid-write, a disk that filled, a copy from
another machine, a hand edit. Every value read from it is checked here, once, against the kind the
readers expect; what cannot be read at all raises ``UnreadableRun`` with the reason in words, so the
run is listed as ``unreadable`` and every other run is unaffected (``core.runs.store.read_run``). Event fields
have their own boundary as lines are parsed (``core.job.event_fields``).
"""

from __future__ import annotations

import csv
import json
import math
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.run.best_epoch import BestEpoch, epoch_candidate, update_best
from core.job.event_fields import MAX_COUNT
from core.i18n import tr
from core.stored_file import read_regular_bytes

CONFIG_FILE = "config.json"
EVENTS_FILE = "events.jsonl"
RESULTS_FILE = "results.csv"
#: A config.json is a few kB; anything far larger is not one (and is not read whole into memory).
MAX_CONFIG_BYTES = 4 << 20


class UnreadableRun(ValueError):
    """A run file that cannot be read at all; the message says which file and why."""


@dataclass(frozen=True)
class RunConfig:
    """``config.json``, checked: the worker spec, and the few fields listings show."""

    document: dict[str, Any]
    spec: dict[str, Any] = field(default_factory=dict)
    created: float | None = None
    data: str = ""
    model: str = ""
    epochs: int = 0


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _finite(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    number = float(value) if abs(value) < 1e300 else math.inf
    return number if math.isfinite(number) else None


def _count(value: Any) -> int:
    return value if type(value) is int and 0 <= value <= MAX_COUNT else 0


def _regular_file(path: Path) -> bool:
    """True for a regular file; False when it does not exist; ``UnreadableRun`` for anything else."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise UnreadableRun(tr("{file} cannot be read: {reason}", file=path.name, reason=exc.strerror or exc)) from exc
    if not stat.S_ISREG(mode):
        raise UnreadableRun(tr("{file} is not a file (a folder or a device is in its place).", file=path.name))
    return True


def load_config_document(run_dir: Path) -> dict[str, Any]:
    """``config.json`` as a JSON object whose ``spec`` (and its ``config``) are objects too."""
    path = Path(run_dir) / CONFIG_FILE
    if not _regular_file(path):
        raise UnreadableRun(tr("{file} is missing.", file=CONFIG_FILE))
    try:
        raw = read_regular_bytes(path, MAX_CONFIG_BYTES)  # never blocks: a FIFO swapped in after the check
        if len(raw) > MAX_CONFIG_BYTES:
            raise UnreadableRun(tr("{file} is larger than {limit} MB: it is not a run's settings.",
                                   file=CONFIG_FILE, limit=MAX_CONFIG_BYTES >> 20))
        document = json.loads(raw.decode("utf-8"))
    except OSError as exc:
        raise UnreadableRun(tr("{file} cannot be read: {reason}", file=CONFIG_FILE, reason=exc.strerror or exc)) from exc
    except (ValueError, RecursionError) as exc:  # invalid JSON or UTF-8, or nested past the parser's depth
        raise UnreadableRun(tr("{file} is not valid JSON: {reason}", file=CONFIG_FILE,
                               reason=str(exc).splitlines()[0][:200] or type(exc).__name__)) from exc
    if not isinstance(document, dict):
        raise UnreadableRun(tr("{file} holds a {kind}, not the run's settings (a JSON object).",
                               file=CONFIG_FILE, kind=type(document).__name__))
    spec = document.get("spec", {})
    if not isinstance(spec, dict) or not isinstance(spec.get("config", {}), dict):
        raise UnreadableRun(tr("{file}: 'spec' is not an object; the run's settings cannot be read.", file=CONFIG_FILE))
    return document


def read_config(run_dir: Path) -> RunConfig:
    document = load_config_document(run_dir)
    spec = document.get("spec", {})
    cfg = spec.get("config", {})
    return RunConfig(document, spec, _finite(document.get("created")), _text(cfg.get("data")),
                     _text(cfg.get("model")), _count(cfg.get("epochs")))


def check_events_file(run_dir: Path) -> Path:
    """The run's events file path, after checking that whatever is there is a file (or nothing)."""
    path = Path(run_dir) / EVENTS_FILE
    _regular_file(path)
    return path


def results_csv_best(run_dir: Path) -> BestEpoch | None:
    """The best epoch from yolov5's results.csv (headers padded with spaces), for runs without events.

    Cells that are not finite numbers are skipped; a row without a whole, non-negative epoch is skipped."""
    path = Path(run_dir) / RESULTS_FILE
    try:
        if not _regular_file(path):
            return None
        with open(path, newline="", encoding="utf-8", errors="replace") as handle:
            rows = [{k.strip(): (v or "").strip() for k, v in row.items() if isinstance(k, str) and isinstance(v, str)}
                    for row in csv.DictReader(handle)]
    except (OSError, csv.Error, UnreadableRun):
        return None  # a summary from events is what counts; results.csv is only the fallback
    best: BestEpoch | None = None
    for row in rows:
        numbers = {}
        for key, text in row.items():
            try:
                value = float(text)
            except ValueError:
                continue
            if math.isfinite(value):
                numbers[key] = value
        epoch = numbers.pop("epoch", None)
        if epoch is not None and epoch.is_integer() and 0 <= epoch <= MAX_COUNT:
            best = update_best(best, epoch_candidate(int(epoch), numbers))
    return best


def folder_mtime(run_dir: Path) -> float:
    """When the run's settings were written (its folder's time when that is gone): the start-up grace clock."""
    for path in (Path(run_dir) / CONFIG_FILE, Path(run_dir)):
        try:
            return os.stat(path).st_mtime
        except OSError:
            continue
    return 0.0
