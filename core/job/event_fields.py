"""The typed boundary of protocol events: every field a reader uses has one declared kind, checked once.

Events come from files anyone can edit or tear (``events.jsonl`` of a killed worker, a copied run, a
hand-edited file) and from worker pipes. Readers — the run fold, the progress model, the CLI renderers,
the GUI's plots — used to coerce fields where they read them (``int(ev.get("epoch"))``), so one
``"epoch": null`` or ``"abc"`` or ``1e400`` failed a whole listing. Here, as a line is parsed
(``core.job.protocol.parse_line``), each known field is checked against its kind: a value of the wrong kind
(or ``null``) is dropped, as if the worker had not written it, and every reader's default applies. Inside
the number maps (``metrics``, ``efficiency`` …) entries that are not finite numbers are dropped the same
way (``null`` stays where the protocol uses it for "unknown"). Fields not listed pass through untouched:
readers of those check what they read.
"""

from __future__ import annotations

import math
from typing import Any, Callable

#: Counters and sizes above this are not a run's figures (and would overflow what shows them).
MAX_COUNT = 10**12


def _count(value: Any) -> bool:
    return type(value) is int and 0 <= value <= MAX_COUNT


def _positive_count(value: Any) -> bool:
    return type(value) is int and 0 < value <= MAX_COUNT


def _number(value: Any) -> bool:
    return (type(value) is int and abs(value) <= MAX_COUNT) or (type(value) is float and math.isfinite(value))


def _text(value: Any) -> bool:
    return type(value) is str


def _flag(value: Any) -> bool:
    return type(value) is bool


def _mapping(value: Any) -> bool:
    return type(value) is dict


def _sequence(value: Any) -> bool:
    return type(value) is list


def _numbers(value: Any, *, nullable: bool) -> dict[str, Any] | None:
    """A dict of finite numbers (``nullable``: or null), without the entries that are not."""
    if type(value) is not dict:
        return None
    return {k: v for k, v in value.items() if _number(v) or (nullable and v is None)}


_CHECKS: dict[str, Callable[[Any], bool]] = {}
for _name in ("epoch", "epochs", "index", "count", "batches", "batches_done", "instances", "imgsz", "batch_size",
              "epochs_completed", "cpu_count", "width", "height", "images"):
    _CHECKS[_name] = _count
_CHECKS["pid"] = _positive_count
for _name in ("t", "create_time", "started", "elapsed_s", "epoch_time_s", "data_wait_s", "step_s", "fitness",
              "best_fitness", "images_per_s", "gpu_mem_gb", "cpu_percent", "iowait_percent", "proc_cpu_percent",
              "ram_used_gb", "ram_total_gb", "swap_used_gb", "disk_read_mb_s", "fraction", "inference_ms",
              "tensorboard_graph_s"):
    _CHECKS[_name] = _number
for _name in ("type", "stage", "status", "job", "path", "best_path", "best", "last", "reason", "kind", "message",
              "hint", "level", "code", "detail", "title", "severity", "format", "device_type", "traceback",
              "exception", "python", "phase", "text", "at", "image", "step"):
    _CHECKS[_name] = _text
for _name in ("is_best", "warmup", "final", "resume", "cancellable", "ok"):
    _CHECKS[_name] = _flag
for _name in ("versions", "report", "facts", "stopped_at", "evidence"):
    _CHECKS[_name] = _mapping
for _name in ("devices", "gpus", "prescriptions", "boxes", "exports"):
    _CHECKS[_name] = _sequence

#: Number maps: every entry a finite number (``metrics``, ``final_metrics``), or also null where the
#: protocol says "not measured" (``efficiency``, ``window``, ``timing``, ``run_timing``) or, for ``losses``,
#: "not a number" (JSON has no NaN: the writer turns one into null, and renderers show it as NaN, never 0).
_NUMBER_MAPS = {"metrics": False, "losses": True, "final_metrics": False,
                "efficiency": True, "window": True, "timing": True, "run_timing": True}


def clean_event(event: dict[str, Any]) -> dict[str, Any]:
    """``event`` with every known field of the wrong kind removed (in place; returned for convenience)."""
    for key in list(event):
        value = event[key]
        check = _CHECKS.get(key)
        if check is not None:
            if not check(value):
                del event[key]
        elif key in _NUMBER_MAPS:
            cleaned = _numbers(value, nullable=_NUMBER_MAPS[key])
            if cleaned is None:
                del event[key]
            elif len(cleaned) != len(value):
                event[key] = cleaned
    return event
