"""The one translation helper for every user-visible string outside Qt widgets (CLI, findings, verdicts).

Widgets use Qt's ``tr()``; everything in ``core`` and ``cli`` that a person reads goes through ``tr()``
here, with named placeholders (``tr("Run {name} failed", name=...)``), never concatenation. A string whose
``tr()`` happens later (a table of labels, an option's help) is marked where it is written with ``N_()``,
so the extractor finds it. A sentence with a count is ``tr_n(one, many, n)``: two whole sentences, for the GUI
too (no "1 epochs"). Both catalogues are Qt Linguist files in ``resources/i18n``:
``yolostudio_<lang>.ts`` for widgets (compiled to ``.qm`` for ``QTranslator``) and ``core_<lang>.ts`` for
these strings, read here with the standard library (``core`` never imports Qt). ``python -m tools.i18n
update`` refreshes both from the sources (docs/architecture.md, "Translation").

The language: ``set_language`` (the GUI's setting, ``--json`` forces English), else the environment
(``YOLOSTUDIO_LANG``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``) on the first ``tr()``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from core import RESOURCES_DIR

LANGUAGES = ("en", "zh_CN")
LANGUAGE_ENV = "YOLOSTUDIO_LANG"  # set by the GUI for its workers; wins over the locale variables
CATALOGUE_DIR = RESOURCES_DIR / "i18n"
CORE_CONTEXT = "core"

_catalogue: dict[str, str] | None = None  # None: not chosen yet (the environment decides on first use)
_language = "en"


def N_(text: str) -> str:  # noqa: N802 - gettext's name for "mark for translation, translate later"
    """Mark ``text`` for the catalogue; the code that shows it calls ``tr(text)``."""
    return text


def supported(tag: str) -> str:
    """The catalogue for a locale tag: any Chinese one ("zh_CN.UTF-8", "zh-Hans", "zh_TW") -> "zh_CN"."""
    return "zh_CN" if tag.lower().replace("-", "_").startswith("zh") else "en"


def language_from_environment() -> str:
    for var in (LANGUAGE_ENV, "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return supported(value)
    return "en"


def read_ts(path: Path, context: str | None = None) -> dict[str, str]:
    """{source: translation} of a Qt Linguist file (one context, or all); unfinished entries left out."""
    import xml.etree.ElementTree as ElementTree  # noqa: PLC0415 - only when a translation is used

    catalogue: dict[str, str] = {}
    for ctx in ElementTree.parse(path).getroot().iter("context"):
        if context is not None and ctx.findtext("name") != context:
            continue
        for message in ctx.iter("message"):
            source, translation = message.findtext("source"), message.find("translation")
            if source is None or translation is None or translation.get("type") in ("unfinished", "obsolete",
                                                                                     "vanished"):
                continue
            if translation.text:
                catalogue[source] = translation.text
    return catalogue


def set_language(language: str) -> None:
    """Use ``language``'s catalogue from now on ("en": the source texts)."""
    global _catalogue, _language
    _language = supported(language)
    path = CATALOGUE_DIR / f"core_{_language}.ts"
    _catalogue = read_ts(path, CORE_CONTEXT) if _language != "en" and path.is_file() else {}


def set_catalogue(catalogue: dict[str, str] | None) -> None:
    """Install a catalogue directly (tests); None goes back to choosing from the environment."""
    global _catalogue
    _catalogue = None if catalogue is None else dict(catalogue)


def language() -> str:
    if _catalogue is None:
        set_language(language_from_environment())
    return _language


def tr(text: str, /, **values: Any) -> str:
    """Translate ``text`` and fill its named placeholders."""
    if _catalogue is None:
        set_language(language_from_environment())
    assert _catalogue is not None
    template = _catalogue.get(text, text)
    return template.format(**values) if values else template


def tr_n(one: str, many: str, n: int, /, **values: Any) -> str:
    """``one`` when ``n`` is 1, else ``many``, translated and filled with ``{n}`` and the named placeholders.

    Why not Qt's ``tr(text, "", n)`` with ``%n``: its plural forms come from a catalogue per language, and the
    app ships none for English (its source language), so "%n error(s)" would read "1 error(s)" there; the
    catalogues (``tools/i18n``, which extracts both sentences) keep no numerus forms either. Two whole
    sentences read right in English and in Chinese (one form: both get the same translation). Widgets use it
    too, so the CLI and the window say a count the same way."""
    return tr(one if n == 1 else many, n=n, **values)


_catalogues: dict[str, dict[str, str]] = {}


def translator(language: str) -> Any:
    """A ``tr`` bound to ``language``'s catalogue, leaving the process's language alone.

    Why: a document in a language the user picks (``yolostudio report --lang``, the Report button) is written
    while the GUI's own texts stay in theirs; switching the global catalogue from a background thread would
    flip words the GUI thread formats meanwhile. Call the result ``tr`` where it is used so ``tools/i18n``
    extracts its strings (it reads calls of a function named ``tr``)."""
    lang = supported(language)
    if lang not in _catalogues:
        path = CATALOGUE_DIR / f"core_{lang}.ts"
        _catalogues[lang] = read_ts(path, CORE_CONTEXT) if lang != "en" and path.is_file() else {}
    catalogue = _catalogues[lang]

    def bound(text: str, /, **values: Any) -> str:
        template = catalogue.get(text, text)
        return template.format(**values) if values else template

    return bound
