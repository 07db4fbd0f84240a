"""The one terminal progress line every verb uses: rewritten in place on a terminal, silent elsewhere.

Why one: eleven verbs wrote ``"\\r" + text`` themselves, each with its own way to erase what a longer line
left behind (trailing spaces, ``\\033[K``, ``\\x1b[2K``, padding by characters — wrong for Chinese, whose
characters take two cells) and its own idea of when to end the line. Here a line is padded by terminal cells
over the one it replaces (``cli.columns``; no escape codes, so a plain console shows it right), clipped to
the terminal's width (less one cell) so it never wraps, and ``clear``/``keep``/``say`` decide what is left when other text comes.
Off a terminal (a pipe, CI, a log file) ``show`` writes nothing: the verb decides what a log gets.
"""

from __future__ import annotations

import shutil
import sys
from typing import IO

from cli.columns import cells, clip, pad
from cli.terminal import redraw

#: The terminal width assumed when the stream's cannot be read (``shutil.get_terminal_size``'s fallback).
FALLBACK_COLUMNS = 120


class ProgressLine:
    """A progress line on ``stream`` (stderr unless told); ``tty`` None asks the stream."""

    def __init__(self, stream: IO[str] | None = None, *, tty: bool | None = None, width: int | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = (hasattr(self.stream, "isatty") and self.stream.isatty()) if tty is None else tty
        self.width = width  # None: the terminal's columns, asked at each show (a window may be resized)
        self.shown = ""  # what the line says now ("" when none is shown)

    def show(self, text: str) -> None:
        """Put ``text`` on the line in place of what it said (on a terminal only)."""
        if not self.tty:
            return
        width = self.width or shutil.get_terminal_size((FALLBACK_COLUMNS, 24)).columns - 1
        text = clip(text, width)
        redraw(self.stream, pad(text, cells(self.shown)))
        self.stream.flush()
        self.shown = text

    def clear(self) -> None:
        """Erase the line, leaving the cursor where it began (before a result is printed)."""
        if self.shown:
            redraw(self.stream, " " * cells(self.shown))
            redraw(self.stream, "")
            self.stream.flush()
            self.shown = ""

    def keep(self) -> None:
        """End the line where it is, so its last words stay on screen."""
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()
            self.shown = ""

    def say(self, text: str) -> None:
        """A line of its own that stays (a stage, a note); the progress line, if shown, is erased first."""
        self.clear()
        self.stream.write(text + "\n")
        self.stream.flush()
