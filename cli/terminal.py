"""The one writer between the CLI and the terminal: no control character from a file or a worker is obeyed.

Why one: a COCO category name in ``dataset import``'s report, an image path in ``evaluate``'s error list, a
worker's ``detail`` or a tune trial's ``reason`` reached the terminal raw — ``ESC [2K CR`` erased an ERROR
line, an OSC retitled the window, U+009B is a one-character CSI — each verb having to remember
``cli.render.shown``. ``main`` now puts ``TerminalText`` in front of ``sys.stdout`` and ``sys.stderr`` for the
whole run of a verb (``guarded``), and ``Output`` writes through it too, so everything printed is cleaned on
its way out, whichever verb printed it and however: C0 controls but the newline, DEL, C1 controls and the
Unicode bidirectional overrides become visible escapes (``core.display_text``'s set); everything else, Chinese
included, is kept. A C1 or bidi character becomes ``\\u0085`` — a JSON escape, so a ``--json`` document
(``ensure_ascii=False``; JSON itself already escapes C0 inside strings) stays valid and means the same.

The newline is kept because the CLI's own lines need it; a newline *inside* a field still forges a line,
so verbs also pass file-derived values through ``cli.render.shown`` (it escapes ``\\n`` too). The progress
line's carriage return is the one control the CLI sends on purpose: ``redraw`` writes it.
``tests/cli/test_terminal_writer_rule.py`` reads cli/'s source: nothing writes around this module.
"""

from __future__ import annotations

import contextlib
import re
import sys
from typing import IO, Any, Iterator

#: ``core.display_text``'s controls, less the newline.
_CONTROLS = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group(0)
    code = ord(char)
    if code < 0x20:
        return _NAMED.get(char, f"\\x{code:02x}")
    return f"\\u{code:04x}"  # a JSON escape too: a --json document stays valid


def clean(text: str) -> str:
    """``text`` with every control character but the newline shown as an escape."""
    return _CONTROLS.sub(_escape, text)


class TerminalText:
    """A text stream that cleans what is written to it before the stream it wraps sees it."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(clean(text))

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, isatty, fileno, encoding, …: the wrapped stream's
        return getattr(self.stream, name)


def terminal(stream: IO[str]) -> IO[str]:
    """``stream`` behind the writer (once: a wrapped stream is not wrapped again)."""
    return stream if isinstance(stream, TerminalText) else TerminalText(stream)  # type: ignore[return-value]


@contextlib.contextmanager
def guarded() -> Iterator[None]:
    """``sys.stdout`` and ``sys.stderr`` behind the writer while a verb runs (``cli.main``)."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = terminal(sys.stdout), terminal(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def redraw(stream: IO[str], text: str) -> None:
    """Back to the start of the line, then ``text`` cleaned: the progress line's one deliberate control."""
    raw = stream.stream if isinstance(stream, TerminalText) else stream
    raw.write("\r" + clean(text))
