"""Edits of a data.yaml that change only the edited text: one scalar (``set_value``) or the class names.

Why text splices instead of load-modify-dump: a YAML emitter (ruamel's included) re-indents, re-wraps
long lines and re-quotes, so a file opened and saved would not come back byte-for-byte. An edit replaces
just the characters of the edited scalar (or of the ``names`` block when classes are added or removed) at
the positions ruamel's composer reported (``yaml_doc``), in the original quoting style where that is still
correct, and is verified by parsing the result: the edited value must read back, every other value must
stay the same, or the edit is refused with ``EditError``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from core.dataset.yaml_doc import KeyPath, YamlDocument, parse_text, safe_load
from core.i18n import tr


class EditError(ValueError):
    """An edit could not be applied without touching more than the edited text."""


def _value_at(data: Any, path: KeyPath) -> Any:
    for key in path:
        if isinstance(data, dict):
            data = data.get(key, data.get(str(key)))
        elif isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
            data = data[key]
        else:
            return None
    return data



#: Characters a YAML file cannot hold as they are (outside YAML 1.1's printable set: C0 and C1 controls, DEL,
#: U+FFFE/U+FFFF, surrogates) or that a quoted scalar folds as a line break (NEL U+0085, U+2028, U+2029):
#: written as ``\uXXXX`` escapes inside double quotes, so every name reads back as it was (a class name
#: with U+0080 otherwise writes a data.yaml no YAML reader opens).
_ESCAPE = re.compile("[^\x09\x0A\x0D\x20-\x7E\xA0-\u2027\u202A-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")


def _double_quoted(text: str) -> str:
    quoted = json.dumps(text, ensure_ascii=False)  # escapes C0, ``"`` and ``\``
    return _ESCAPE.sub(lambda m: f"\\u{ord(m.group()):04x}" if ord(m.group()) <= 0xFFFF
                       else f"\\U{ord(m.group()):08x}", quoted)


def format_scalar(value: Any, style: str | None = None, *, flow: bool = False) -> str:
    """YAML text for ``value``, keeping the original quoting style where that is still correct."""
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    if _ESCAPE.search(text):
        return _double_quoted(text)
    if style == "'" and "\n" not in text:
        return "'" + text.replace("'", "''") + "'"
    if style == '"':
        return _double_quoted(text)
    # YAML's indicators are left to quotes: libyaml (the probe) and PyYAML's pure-Python parser (yolov5's
    # ``yaml.safe_load``) disagree on some of them plain (``[0?]`` reads in one and not the other).
    plain_ok = bool(text) and text == text.strip() and not any(c in text for c in "\n\r\t?:,[]{}#&*!|>'\"%@`")
    if plain_ok:
        try:
            probe = f"k: [{text}]" if flow else f"k: {text}"
            plain_ok = safe_load(probe) == {"k": [text] if flow else text}
        except yaml.YAMLError:
            plain_ok = False
    if plain_ok:
        return text
    if "\n" in text or any(ord(c) < 32 for c in text):
        return _double_quoted(text)
    return "'" + text.replace("'", "''") + "'"


def _in_flow(root: Node | None, target: Node) -> bool:
    """True when ``target`` sits inside a flow collection ([...] or {...})."""
    def walk(node: Node, flow: bool) -> bool | None:
        if node is target:
            return flow
        if isinstance(node, MappingNode):
            inner = flow or bool(node.flow_style)
            for k, v in node.value:
                hit = walk(k, inner)
                if hit is None:
                    hit = walk(v, inner)
                if hit is not None:
                    return hit
        elif isinstance(node, SequenceNode):
            inner = flow or bool(node.flow_style)
            for item in node.value:
                hit = walk(item, inner)
                if hit is not None:
                    return hit
        return None
    return bool(root is not None and walk(root, False))


def _splice(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def set_value(doc: YamlDocument, path: KeyPath, value: Any) -> str:
    """New text with the scalar at ``path`` set to ``value``; a missing top-level key is appended."""
    if not doc.editable:
        raise EditError(tr("Fix the YAML errors first; the file cannot be edited safely while it does not parse."))
    node = doc.node(path)
    if node is None:
        if len(path) != 1:
            raise EditError(tr("There is no {path} to edit.", path=".".join(map(str, path))))
        return _verified(doc, path, value, [_append_key(doc.text, str(path[0]), format_scalar(value))])
    if not isinstance(node, ScalarNode):
        style, start, end = None, node.start_mark.index, _content_end(doc.text, node)
    else:
        style, start, end = node.style, node.start_mark.index, node.end_mark.index
    flow = _in_flow(doc.root, node)
    candidates = [_splice(doc.text, start, end, format_scalar(value, s, flow=flow)) for s in (style, "'", '"')]
    return _verified(doc, path, value, candidates)


def remove_key(doc: YamlDocument, key: str) -> str:
    """New text without the top-level ``key`` (its whole lines, with its comment); every other value stays.
    Clearing an optional key (``test``) means "no test split", which ``test: ''`` would not say."""
    if not doc.editable:
        raise EditError(tr("Fix the YAML errors first; the file cannot be edited safely while it does not parse."))
    pair = doc.key_pair(key)
    if pair is None:
        return doc.text
    key_node, value_node = pair
    text = doc.text
    start = text.rfind("\n", 0, key_node.start_mark.index) + 1
    end = text.find("\n", _content_end(text, value_node))
    end = len(text) if end < 0 else end + 1
    candidate = text[:start] + text[end:]
    expected = {k: v for k, v in doc.data.items() if k != key} if isinstance(doc.data, dict) else None
    try:
        loaded = safe_load(candidate)
    except yaml.YAMLError:
        loaded = None
    if text[start:key_node.start_mark.index].strip() or loaded != expected:
        raise EditError(tr("Could not remove {key} without changing other values; edit it in the YAML view.",
                           key=key))
    return candidate


def _content_end(text: str, node: Node) -> int:
    """End of a node's own text. A block collection's end mark runs past the comments that follow it, so
    its end is its last item's end; trailing whitespace is never part of it."""
    if isinstance(node, (MappingNode, SequenceNode)) and not node.flow_style and node.value:
        last = node.value[-1]
        return _content_end(text, last[1] if isinstance(node, MappingNode) else last)
    end = node.end_mark.index
    while end > node.start_mark.index and text[end - 1] in " \t\r\n":
        end -= 1
    return end


def _append_key(text: str, key: str, value_text: str) -> str:
    newline = "\r\n" if "\r\n" in text else "\n"
    if text and not text.endswith(("\n", "\r")):
        text += newline
    return f"{text}{key}: {value_text}{newline}"


def _verified(doc: YamlDocument, path: KeyPath, value: Any, candidates: list[str]) -> str:
    for candidate in candidates:
        try:
            loaded = safe_load(candidate)
        except yaml.YAMLError:
            continue
        if _value_at(loaded, path) == value and _same_elsewhere(doc.data, loaded, path):
            return candidate
    raise EditError(tr("Could not write {value!r} at {path} without changing other values.",
                       value=value, path=".".join(map(str, path))))


def _same_elsewhere(before: Any, after: Any, path: KeyPath) -> bool:
    if not path or not isinstance(before, dict) or not isinstance(after, dict):
        return True
    head = path[0]
    keys = (set(before) | set(after)) - {head, str(head)}
    if any(before.get(k) != after.get(k) for k in keys):
        return False
    return _same_elsewhere(before.get(head), after.get(head), path[1:])


def names_of(data: Any) -> list[str] | None:
    """Class names by id from a list or an ``{id: name}`` map; None when neither."""
    names = data.get("names") if isinstance(data, dict) else None
    if isinstance(names, list):
        return [str(n) for n in names]
    if isinstance(names, dict) and all(isinstance(k, int) for k in names):
        return [str(names[k]) for k in sorted(names)]
    return None


def set_names(doc: YamlDocument, names: list[str], *, update_nc: bool = True) -> str:
    """New text with the class names replaced; renames touch only the renamed scalars.

    The names keep their form (list or map, flow or block). When the count changes, only the ``names``
    value is rewritten (in its own style and indentation) and ``nc``, if present, follows.
    """
    if not doc.editable:
        raise EditError(tr("Fix the YAML errors first; the file cannot be edited safely while it does not parse."))
    node = doc.node(["names"])
    old = names_of(doc.data)
    if node is None or old is None:
        text = _append_key(doc.text, "names", _names_text(names, None, 0, flow=True))
    elif len(old) == len(names):
        text = doc.text
        items = _name_scalars(node)
        # splice from the end so earlier positions stay valid
        for index in reversed(range(len(names))):
            if names[index] == old[index]:
                continue
            scalar = items[index]
            if scalar is None:
                raise EditError(tr("Class {id} is not a plain text value; edit it in the YAML view.", id=index))
            flow = _in_flow(doc.root, scalar)
            text = _splice(text, scalar.start_mark.index, scalar.end_mark.index,
                           format_scalar(names[index], scalar.style, flow=flow))
    else:
        start, end = node.start_mark.index, _content_end(doc.text, node)
        column = node.start_mark.column
        flow = not isinstance(node, (MappingNode, SequenceNode)) or bool(node.flow_style)
        as_map = isinstance(node, MappingNode)
        inner = _inner_style(node)
        kept = {}
        for old_name, scalar in zip(old, _name_scalars(node)):
            if scalar is not None:
                kept.setdefault(old_name, doc.text[scalar.start_mark.index:scalar.end_mark.index])
        replacement = _names_text(names, inner, column, flow=flow, as_map=as_map, kept=kept)
        if not names and not flow:
            replacement = "[]" if not as_map else "{}"
        text = _splice(doc.text, start, end, replacement)
    if update_nc and isinstance(doc.data.get("nc"), int) and doc.data.get("nc") != len(names) or (
            update_nc and isinstance(doc.data.get("nc"), int) and len(names) != len(old or [])):
        interim = parse_text(text, doc.file)
        if interim.editable and interim.node(["nc"]) is not None:
            text = set_value(interim, ["nc"], len(names))
    try:
        check = safe_load(text)
    except yaml.YAMLError:
        check = None
    if names_of(check) != names:
        raise EditError(tr("Could not write the class names without changing other values."))
    return text


def _name_scalars(node: Node) -> list[ScalarNode | None]:
    if isinstance(node, SequenceNode):
        values = list(node.value)
    elif isinstance(node, MappingNode):
        values = [v for _, v in sorted(node.value, key=lambda kv: int(kv[0].value) if kv[0].value.lstrip("-").isdigit() else 0)]
    else:
        return []
    return [v if isinstance(v, ScalarNode) else None for v in values]


def _inner_style(node: Node) -> str | None:
    items = [s for s in _name_scalars(node) if s is not None]
    return items[0].style if items else None


def _names_text(names: list[str], style: str | None, column: int, *, flow: bool, as_map: bool = False,
                kept: dict[str, str] | None = None) -> str:
    """``kept``: the original text of names that stay, so their quoting is not touched."""
    kept = kept or {}
    if flow:
        parts = [kept.get(n) or format_scalar(n, style, flow=True) for n in names]
        if as_map:
            return "{" + ", ".join(f"{i}: {p}" for i, p in enumerate(parts)) + "}"
        return "[" + ", ".join(parts) + "]"
    pad = "\n" + " " * column
    if as_map:
        return pad.join(f"{i}: {kept.get(n) or format_scalar(n, style)}" for i, n in enumerate(names))
    return pad.join(f"- {kept.get(n) or format_scalar(n, style)}" for n in names)
