"""The values of an annotation file, held to what the tools write before any arithmetic sees them.

A labelling tool writes sizes and corners as finite numbers (CVAT, Datumaro, Label Studio and LabelMe all
write ``int`` or ``float`` from their own geometry). A file holding ``inf``, ``1e999`` (``json`` reads it as
``inf``), strings where numbers belong, or JSON nested deeper than any tool nests was written by hand or by
an attacker; the import refuses it with one sentence naming the file and the value (``ImportSourceError``,
exit 2 in the CLI), never a traceback. A ``nan`` corner is different: it is one box's value, dropped and
reported by ``convert`` like any box that cannot be placed.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from core.dataset.importers.model import ImportSourceError
from core.i18n import tr


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def bad_value(file: Path | str, what: str, value: Any) -> ImportSourceError:
    """The one sentence for a value no tool writes."""
    return ImportSourceError(tr(
        "{file}: {what} is {value}, which no labelling tool writes. Fix or remove it in that file (or leave the "
        "file out of the source), then import again.", file=file, what=what, value=_shown(value)))


def number(value: Any, file: Path | str, what: str, *, allow_nan: bool = False) -> float:
    """``value`` as a float: a JSON/XML number (or numeric text); else ``bad_value``. ``inf`` is refused;
    ``nan`` passes only when ``allow_nan`` (a corner, dropped later with its reason)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise bad_value(file, what, value)
    try:
        result = float(value)
    except (TypeError, ValueError, OverflowError):
        raise bad_value(file, what, value) from None
    if math.isinf(result) or (math.isnan(result) and not allow_nan):
        raise bad_value(file, what, value)
    return result


def size(value: Any, file: Path | str, what: str) -> int | None:
    """A declared side in pixels; None when the tool left it out (``null``, ``""``, ``0``: Label Studio writes
    ``None`` for an image it could not open), else a finite number or ``bad_value``."""
    if value is None or value == "" or value == 0:
        return None
    side = number(value, file, what)
    return int(side) if side > 0 else None


def load_json(path: Path) -> Any:
    """The JSON document in ``path``. OSError/ValueError as ``json`` raises them; nesting deeper than Python
    can follow (a 200,000-deep ``[[[…]]]``) is ``ImportSourceError`` naming the file."""
    text = path.read_text(encoding="utf-8-sig")
    try:
        return json.loads(text)
    except RecursionError:
        raise ImportSourceError(tr(
            "{file}: the JSON is nested deeper than any labelling tool writes (more than a thousand levels); "
            "it is not an annotation file. Leave it out of the source.", file=path)) from None
