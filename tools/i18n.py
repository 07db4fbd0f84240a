"""The translation catalogues: find every user-visible string in the sources and keep the .ts files current.

``python -m tools.i18n update`` is the one command after adding or changing a string: it reads the sources,
adds new strings to ``resources/i18n/*_zh_CN.ts`` as unfinished (keeping every translation whose source is
unchanged, dropping the ones whose source is gone), compiles the widget catalogue with PySide6's
``lrelease`` to the ``.qm`` the app loads, rebuilds the bundled CJK font subset (``tools/cjk_font.py``) so
new characters have glyphs, and lists what still needs a translation. ``check`` only lists (exit 1 when
something is missing). Translate in Qt Linguist (``pyside6-linguist resources/i18n/yolostudio_zh_CN.ts``)
or any editor: fill ``<translation>`` and remove ``type="unfinished"``.

What counts as a string (one extractor for both catalogues, Python's ``ast``, so wrappers lupdate cannot
see are found too):

- widgets: ``self.tr("…")`` inside class ``C`` -> context ``C`` (PySide6 tries every class of the object's
  MRO, so a base class's strings are found from a subclass); ``QCoreApplication.translate("Ctx", "…")`` and
  ``QT_TRANSLATE_NOOP("Ctx", "…")``; a module's one-line helper ``def _tr(text): return
  QCoreApplication.translate("Ctx", text)`` makes its ``_tr("…")`` calls context ``Ctx``;
- ``core.i18n``: ``tr("…")``, ``N_("…")`` and both sentences of ``tr_n("…", "…", n)`` anywhere (core, cli,
  gui) -> the ``core`` catalogue, plus the
  tables whose strings are translated when shown (``LATER`` below: option labels and help, check titles…).

Anything else (``other.tr("…")``, an f-string in ``tr``) is reported as an error: its context is unknowable
or its text not fixed.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from tools.i18n_verbatim import lost_tokens

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE_DIR = ROOT / "resources" / "i18n"
SOURCE_DIRS = ("core", "cli", "gui", "installer")
CORE = "core"  # the context of every core.i18n string (core.i18n.CORE_CONTEXT)
LANGUAGE = "zh_CN"
UPDATE_COMMAND = "python -m tools.i18n update"
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)[^{}]*\}|%[vmn%]|%\d")


@dataclass(frozen=True)
class Message:
    context: str
    source: str
    where: str  # "path:line", for the person who has to translate or fix it


def _option_strings() -> list[str]:
    from core.training.options import train_options  # noqa: PLC0415

    out = []
    for opt in train_options():
        out += [opt.label, opt.help, opt.suffix, opt.special, *(label for _value, label in (opt.choices or ()))]
    return out


#: Strings kept in tables and passed to ``tr()`` when shown; new code marks such strings with ``N_()``.
LATER: dict[str, Callable[[], Iterable[str]]] = {
    "core/training/options.py": _option_strings,
    "core/environment/rules/__init__.py": lambda: [title for _key, title, _rule in
                                                   importlib.import_module("core.environment.rules").RULES],
    "core/environment/probe_launch.py": lambda: [*importlib.import_module("core.environment.probe_launch")
                                                 .STEP_WORDS.values(), "Checking…"],
    "core/training/errors.py": lambda: [rule[3] for rule in importlib.import_module("core.training.errors")._RULES],
    "core/weights/download_errors.py": lambda: [importlib.import_module("core.weights.download_errors")._PROXY_HINT],
    "core/weights/catalog.py": lambda: [c.purpose for c in importlib.import_module("core.weights.catalog").CATALOG],
    "cli/verbs/doctor.py": lambda: importlib.import_module("cli.verbs.doctor")._WORDS.values(),
}


# -- extraction ------------------------------------------------------------------------------------------

def _const(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _helper_context(tree: ast.Module) -> str | None:
    """The context of a module's ``def _tr(text): return QCoreApplication.translate("Ctx", text)``."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "_tr" and node.body:
            ret = node.body[-1]
            if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Call) and ret.value.args:
                func = ret.value.func
                if isinstance(func, ast.Attribute) and func.attr == "translate":
                    return _const(ret.value.args[0])
    return None


class _Extractor(ast.NodeVisitor):
    def __init__(self, rel: str, tree: ast.Module) -> None:
        self.rel, self.classes = rel, [""]
        self.helper = _helper_context(tree)
        self.messages: list[Message] = []
        self.errors: list[str] = []

    def visit_ClassDef(self, node: ast.ClassDef) -> None:  # noqa: N802 - ast's visitor names
        self.classes.append(node.name)
        self.generic_visit(node)
        self.classes.pop()

    def _add(self, context: str, node: ast.Call, arg: ast.AST | None) -> None:
        where = f"{self.rel}:{node.lineno}"
        text = _const(arg) if arg is not None else None
        if text is None:
            if isinstance(arg, ast.JoinedStr):
                self.errors.append(f"{where}: an f-string in a translation call (use named placeholders)")
            return  # a variable: the string is marked where it is written (N_, LATER)
        self.messages.append(Message(context, text, where))

    def visit_Call(self, node: ast.Call) -> None:  # noqa: N802
        func, args = node.func, node.args
        if isinstance(func, ast.Name) and func.id in ("tr", "N_") and args:
            self._add(CORE, node, args[0])
        elif isinstance(func, ast.Name) and func.id == "tr_n" and len(args) >= 2:  # the singular and the plural
            self._add(CORE, node, args[0])
            self._add(CORE, node, args[1])
        elif isinstance(func, ast.Name) and func.id == "_tr" and self.helper and args:
            self._add(self.helper, node, args[0])
        elif isinstance(func, ast.Name) and func.id == "QT_TRANSLATE_NOOP" and len(args) >= 2:
            self._add(_const(args[0]) or "", node, args[1])
        elif isinstance(func, ast.Attribute) and func.attr == "translate" and len(args) >= 2 \
                and isinstance(func.value, ast.Name) and func.value.id == "QCoreApplication":
            if _const(args[0]) is not None:
                self._add(_const(args[0]) or "", node, args[1])
        elif isinstance(func, ast.Attribute) and func.attr == "tr" and args:
            if isinstance(func.value, ast.Name) and func.value.id == "self" and self.classes[-1]:
                self._add(self.classes[-1], node, args[0])
            elif _const(args[0]) is not None:
                self.errors.append(f"{self.rel}:{node.lineno}: .tr() on something other than self: use "
                                   "QCoreApplication.translate(\"Context\", …) or a module _tr helper")
        self.generic_visit(node)


def source_files(root: Path = ROOT) -> list[Path]:
    return sorted(p for d in SOURCE_DIRS for p in (root / d).rglob("*.py") if "__pycache__" not in p.parts)


def extract(root: Path = ROOT) -> tuple[list[Message], list[str]]:
    """Every translatable string of the sources, and the call sites that cannot be extracted."""
    messages, errors = [], []
    for path in source_files(root):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), rel)
        extractor = _Extractor(rel, tree)
        extractor.visit(tree)
        messages += extractor.messages
        errors += extractor.errors
    sys.path.insert(0, str(root))
    try:
        for rel, strings in LATER.items():
            messages += [Message(CORE, text, rel) for text in strings() if text]
    finally:
        sys.path.remove(str(root))
    return messages, errors


# -- the .ts files ---------------------------------------------------------------------------------------

def ts_path(catalogue: str, language: str = LANGUAGE) -> Path:
    """``catalogue``: "yolostudio" (widgets, QTranslator) or "core" (core.i18n)."""
    return CATALOGUE_DIR / f"{catalogue}_{language}.ts"


def read_ts(path: Path) -> dict[tuple[str, str], str | None]:
    """{(context, source): translation, or None when unfinished}."""
    if not path.is_file():
        return {}
    entries: dict[tuple[str, str], str | None] = {}
    for context in ElementTree.parse(path).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            source = message.findtext("source") or ""
            translation = message.find("translation")
            done = translation is not None and translation.get("type") is None and bool(translation.text)
            entries[(name, source)] = translation.text if done and translation is not None else None
    return entries


def write_ts(path: Path, entries: dict[tuple[str, str], str | None], language: str = LANGUAGE) -> None:
    root = ElementTree.Element("TS", version="2.1", language=language)
    for context in sorted({c for c, _ in entries}):
        ctx = ElementTree.SubElement(root, "context")
        ElementTree.SubElement(ctx, "name").text = context
        for (c, source), translation in sorted(entries.items()):
            if c != context:
                continue
            message = ElementTree.SubElement(ctx, "message")
            ElementTree.SubElement(message, "source").text = source
            element = ElementTree.SubElement(message, "translation")
            if translation:
                element.text = translation
            else:
                element.set("type", "unfinished")
    ElementTree.indent(root)
    text = ElementTree.tostring(root, encoding="unicode")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + text + "\n", encoding="utf-8")


def split_catalogues(messages: list[Message]) -> dict[str, set[tuple[str, str]]]:
    keys: dict[str, set[tuple[str, str]]] = {"yolostudio": set(), "core": set()}
    for m in messages:
        keys["core" if m.context == CORE else "yolostudio"].add((m.context, m.source))
    return keys


def placeholders(text: str) -> list[str]:
    return sorted({m.group(0) if m.group(1) is None else m.group(1) for m in PLACEHOLDER.finditer(text)})


def problems(language: str = LANGUAGE, root: Path = ROOT,
             messages: list[Message] | None = None) -> tuple[list[Message], list[str]]:
    """(strings of the sources with no translation, translations whose placeholders differ from the source or
    that lost a file name, flag, path or command — ``tools.i18n_verbatim``);
    ``messages`` from an ``extract`` already made, else the sources are read now."""
    messages = extract(root)[0] if messages is None else messages
    catalogues = {name: read_ts(ts_path(name, language)) for name in ("yolostudio", "core")}
    missing, wrong, seen = [], [], set()
    for m in messages:
        entries = catalogues["core" if m.context == CORE else "yolostudio"]
        key = (m.context, m.source)
        if key in seen:
            continue
        seen.add(key)
        translation = entries.get(key)
        if not translation:
            missing.append(m)
        elif placeholders(translation) != placeholders(m.source):
            wrong.append(f"{m.where}: {m.source!r} -> {translation!r}: placeholders {placeholders(m.source)} "
                         f"became {placeholders(translation)}")
        elif lost_tokens(m.source, translation):
            wrong.append(f"{m.where}: {m.source!r} -> {translation!r}: keep {lost_tokens(m.source, translation)} "
                         "as they are (file names, flags, paths and commands are never translated)")
    return missing, wrong


def _tool(name: str) -> str:
    """A Qt tool of the installed PySide6 (``pyside6-lrelease``), whatever the venv's layout."""
    found = shutil.which(f"pyside6-{name}") or str(Path(sys.executable).with_name(f"pyside6-{name}"))
    if Path(found).exists():
        return found
    import PySide6  # noqa: PLC0415

    return str(Path(PySide6.__file__).parent / name)


def update(language: str = LANGUAGE, root: Path = ROOT, *, font: bool = True) -> tuple[list[Message], list[str]]:
    messages, errors = extract(root)
    for name, keys in split_catalogues(messages).items():
        path = ts_path(name, language)
        old = read_ts(path)
        by_source = {source: t for (_c, source), t in old.items() if t}  # a string moved to another class
        write_ts(path, {key: old.get(key) or by_source.get(key[1]) for key in keys}, language)
    qm = ts_path("yolostudio", language).with_suffix(".qm")
    subprocess.run([_tool("lrelease"), "-silent", str(ts_path("yolostudio", language)), "-qm", str(qm)], check=True)
    if font:
        try:
            from tools.cjk_font import SOURCE, build  # noqa: PLC0415

            if SOURCE.is_file():
                build()
            else:
                print(f"note: {SOURCE} not found: the bundled CJK font was not rebuilt", file=sys.stderr)
        except ImportError as exc:
            print(f"note: the CJK font was not rebuilt ({exc})", file=sys.stderr)
    missing, wrong = problems(language, root)
    return missing, errors + wrong


def report(missing: list[Message], errors: list[str]) -> str:
    lines = [f"{m.where}: [{m.context}] {m.source!r}" for m in missing] + errors
    lines.append(f"{len(missing)} string(s) without a {LANGUAGE} translation, {len(errors)} problem(s).")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.i18n", description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("update", "check"))
    parser.add_argument("--no-font", action="store_true", help="do not rebuild the CJK font subset")
    args = parser.parse_args(argv)
    if args.command == "update":
        missing, errors = update(font=not args.no_font)
    else:
        missing, errors = problems()
        errors = extract()[1] + errors
    print(report(missing, errors))
    return 1 if missing or errors else 0


if __name__ == "__main__":
    sys.exit(main())
