"""Values read from a file the user can edit: a finite number in its range, a path text with no control
characters — or one message naming the file, the key and the value, with the way out.

Why one helper: JSON and YAML both parse ``1e400`` as ``inf`` and YAML parses ``.nan``; Python's ``int()``
then raises ``OverflowError``, a comparison with NaN is always false (so a NaN passes every ``x < low``
check), and a NUL in a path raises ``ValueError: embedded null byte`` from the first ``os.stat``. Each
reader of a settings file, a weights manifest, a facts file or a training config calls these instead of
``float()``/``int()``, so a bad value is refused in the words below, never as a traceback.
"""

from __future__ import annotations

import math
import unicodedata
from typing import Any

from core.i18n import tr


class FileValueError(ValueError):
    """A value in ``file`` at ``key`` that no reader can use; ``str()`` is the whole message."""

    def __init__(self, file: str, key: str, value: str, expected: str) -> None:
        self.file, self.key, self.value, self.expected = file, key, value, expected
        super().__init__(tr("{file}: {key} is {value}, which is not {expected}. Correct or remove it in that "
                            "file.", file=file, key=key, value=value, expected=expected))


def shown_value(value: Any) -> str:
    """A value as a message shows it: its ``repr``, cut at 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def is_finite_number(value: Any) -> bool:
    """A real number (not a bool, not NaN, not ±inf) — what ``json``/``yaml`` give for a number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int too large for a float
        return False


def finite_number(value: Any, *, file: object, key: str, low: float | None = None, high: float | None = None,
                  integer: bool = False) -> float:
    """``value`` as a number when it is finite and within ``[low, high]`` (an int when ``integer``), else
    ``FileValueError`` naming ``file`` and ``key``."""
    kind = tr("a whole number") if integer else tr("a finite number")
    if low is not None and high is not None:
        expected = tr("{kind} from {low:g} to {high:g}", kind=kind, low=low, high=high)
    elif low is not None:
        expected = tr("{kind} of at least {low:g}", kind=kind, low=low)
    elif high is not None:
        expected = tr("{kind} of at most {high:g}", kind=kind, high=high)
    else:
        expected = kind
    ok = is_finite_number(value) and (not integer or float(value).is_integer())
    if ok and ((low is not None and value < low) or (high is not None and value > high)):
        ok = False
    if not ok:
        raise FileValueError(str(file), key, shown_value(value), expected)
    return int(value) if integer else float(value)


def has_control_characters(text: str) -> bool:
    """True when ``text`` holds a NUL, a C0/C1 control or an invisible format character (Unicode Cc/Cf)."""
    return any(unicodedata.category(ch) in ("Cc", "Cf") for ch in text)


def path_text(value: Any, *, file: object, key: str) -> str:
    """``value`` as the text of a path: a string with no control characters (a NUL makes every ``os`` call
    raise), else ``FileValueError`` naming ``file`` and ``key``."""
    if not isinstance(value, str) or has_control_characters(value):
        raise FileValueError(str(file), key, shown_value(value), tr("a folder or file path (text without control "
                                                                 "characters)"))
    return value
