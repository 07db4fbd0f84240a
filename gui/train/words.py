"""Counts in words for the Train page: the singular or the plural sentence, each translated whole.

Why not Qt's ``tr(text, "", n)`` with ``%n``: its plural forms come from a catalogue per language, and the
app ships none for English (its source language), so "%n error(s)" would read "1 error(s)" there; the
project's catalogue tool (``tools/i18n``) keeps no numerus forms either. Two whole sentences, both through
``tr``, read right in English and in Chinese (which has one form: both get the same translation).
"""

from __future__ import annotations


def counted(n: int, one: str, other: str) -> str:
    """``one`` when ``n`` is 1, else ``other`` with ``{n}`` filled (both already translated by the caller)."""
    return one if n == 1 else other.format(n=n)
