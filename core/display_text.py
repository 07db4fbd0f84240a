"""Text from files and workers, made safe to show: control characters are shown escaped, never obeyed.

A class name, a file name or an event message comes from a file someone else may have written. Printed raw,
``ESC [2K CR`` erases the line it is on (an ERROR line disappears), an OSC sequence retitles the terminal or
forges a link, BEL rings, a newline forges a line of its own, and U+009B is a one-character CSI. So every
front end shows such text through ``escape_controls``: the CLI's renderer (``cli.render.shown``) and the
GUI's labels, tables and logs. The one rule: C0 controls, DEL, C1 controls (U+0080-U+009F) and the Unicode
bidirectional overrides (which reorder what a line seems to say) become visible escapes — ``\\n``, ``\\r``,
``\\t``, ``\\x1b``, ``\\u202e``; everything else, Chinese included, is kept.
"""

from __future__ import annotations

import re
from typing import Any

_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group(0)
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def escape_controls(text: object) -> str:
    """``text`` as a string with every control character shown as an escape (``\\x1b[2K`` stays visible)."""
    return _CONTROLS.sub(_escape, str(text))


def has_controls(text: object) -> bool:
    return _CONTROLS.search(str(text)) is not None


def escaped_strings(value: Any) -> Any:
    """``value`` (an event: dicts, lists, strings) with ``escape_controls`` applied to every string in it, keys
    included."""
    if isinstance(value, str):
        return escape_controls(value)
    if isinstance(value, dict):  # keys too: a report keys its counts by class name
        return {escaped_strings(k): escaped_strings(v) for k, v in value.items()}
    if isinstance(value, list):
        return [escaped_strings(v) for v in value]
    return value
