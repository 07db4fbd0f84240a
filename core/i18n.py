"""The one translation helper for every user-visible string outside Qt widgets (CLI, core messages).

Widgets use Qt's ``tr()``; everything in ``core`` that a person reads goes through ``tr()`` here, with
named placeholders (``tr("Run {name} failed", name=...)``), never concatenation, so the Simplified
Chinese catalogue that is coming is a file to fill in, not a rewrite. Until a catalogue is installed the
source text is used as is.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

_catalogue: dict[str, str] = {}


def load_catalogue(path: Path | None) -> None:
    """Install a JSON catalogue ``{source text: translation}``; None goes back to the source texts."""
    global _catalogue
    _catalogue = {} if path is None else dict(json.loads(path.read_text(encoding="utf-8")))


def tr(text: str, /, **values: Any) -> str:
    """Translate ``text`` and fill its named placeholders."""
    template = _catalogue.get(text, text)
    return template.format(**values) if values else template


def preferred_language() -> str:
    """The user's language tag from the environment (``zh_CN``, ``en``...), for choosing a catalogue."""
    for var in ("YOLOSTUDIO_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return value.split(".")[0]
    return "en"
