"""Text columns for a terminal: padding by the cells a string takes on screen, not by its characters.

A Chinese character (and other East Asian wide characters) takes two cells, so ``str.ljust`` put every
column after a translated word out of line. ``wcwidth`` knows the Unicode width tables, combining marks
included.
"""

from __future__ import annotations

from wcwidth import wcswidth


def cells(text: str) -> int:
    """Terminal cells ``text`` takes; a control character (width unknown) counts as one."""
    width = wcswidth(text)
    return len(text) if width < 0 else width


def pad(text: str, width: int) -> str:
    """``text`` followed by spaces up to ``width`` cells (unchanged when it is as wide or wider)."""
    return text + " " * max(0, width - cells(text))


def clip(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` cells (a wide character that would straddle the edge is dropped)."""
    out, used = [], 0
    for char in text:
        step = cells(char)
        if used + step > width:
            break
        out.append(char)
        used += step
    return "".join(out)
