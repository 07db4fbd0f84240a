"""A stored evaluation's ``result.json``, checked once at the store's boundary before any reader uses it.

Why: the store is a file anyone can edit, and its readers (``yolostudio evaluate`` and ``--list``, the
Evaluate window, Compare) format its values directly — ``images: "lots"`` raised ``ValueError`` from
``int()``, ``created: "yesterday"`` from ``float()`` in the newest-first sort. Each value a reader uses is
checked here against the kind the worker writes (``core/worker/evaluate_job.py``); a wrong one is
``StoredEvaluationError``, whose words name the file, the key and the value, and say the way out (remove the
evaluation's folder: the next ``evaluate`` makes it again).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.file_values import FileValueError, finite_number, shown_value
from core.i18n import tr

#: Whole numbers of the result.
COUNTS = ("images", "instances")
#: Objects of the result; each nested value may be a number, a text, a list, an object or null.
OBJECTS = ("metrics", "settings", "dataset", "interval", "confusion", "kfold", "error_counts", "speed_ms",
           "best_f1")
LISTS = ("per_class", "errors", "image_scores")
TEXTS = ("split", "weights", "predictions", "run", "key")
#: Figures in ``metrics`` / a ``per_class`` row that are printed as numbers (null: not measured).
FIGURES = ("precision", "recall", "map50", "map")


class StoredEvaluationError(FileValueError):
    """A ``result.json`` value no reader can use; ``hint`` says how to get a good one back."""

    def __init__(self, error: FileValueError, folder: Path) -> None:
        super().__init__(error.file, error.key, error.value, error.expected)
        self.hint = tr("Remove the folder {folder}: the next yolostudio evaluate makes that evaluation again.",
                       folder=folder)


def _expect(ok: bool, file: Path, key: str, value: Any, expected: str) -> None:
    if not ok:
        raise FileValueError(str(file), key, shown_value(value), expected)


def _figure(value: Any, file: Path, key: str) -> None:
    if value is not None:
        finite_number(value, file=file, key=key)


def check_result(result: dict[str, Any], file: Path) -> dict[str, Any]:
    """``result`` when every value its readers use has the kind the worker writes; else
    ``StoredEvaluationError`` naming ``file``, the key and the value."""
    try:
        finite_number(result.get("created", 0), file=file, key="created", low=0)
        for key in COUNTS:
            finite_number(result.get(key, 0), file=file, key=key, low=0, integer=True)
        for key in TEXTS:
            _expect(not isinstance(result.get(key), (dict, list)) and (result.get(key) is None or
                    isinstance(result[key], str)), file, key, result.get(key), tr("a text"))
        for key in OBJECTS:
            _expect(isinstance(result.get(key, {}), dict) or result.get(key) is None, file, key, result.get(key),
                    tr("an object ({…})"))
        for key in LISTS:
            _expect(isinstance(result.get(key, []), list), file, key, result.get(key), tr("a list ([…])"))
        for name in FIGURES:
            _figure((result.get("metrics") or {}).get(name), file, f"metrics.{name}")
        for i, row in enumerate(result.get("per_class", [])):
            _expect(isinstance(row, dict) and isinstance(row.get("name"), (str, int)), file, f"per_class[{i}]", row,
                    tr("an object with a class name"))
            for name in FIGURES:
                _figure(row.get(name), file, f"per_class[{i}].{name}")
            finite_number(row.get("instances", 0), file=file, key=f"per_class[{i}].instances", low=0, integer=True)
        for i, row in enumerate(result.get("errors", [])):
            _expect(isinstance(row, dict) and isinstance(row.get("image"), str) and isinstance(row.get("kind"), str),
                    file, f"errors[{i}]", row, tr("an object with an image path and a kind"))
            _figure(row.get("confidence"), file, f"errors[{i}].confidence")
        for key, value in (result.get("error_counts") or {}).items():
            finite_number(value, file=file, key=f"error_counts.{key}", low=0, integer=True)
    except FileValueError as error:
        raise StoredEvaluationError(error, file.parent) from None
    return result
