"""A data.yaml as the user wrote it: exact text, node positions, parse problems, and the atomic save.

Here the text is the single source of truth (edits are text splices, ``yaml_edit``): a file opened and
saved without edits comes back byte-for-byte. ruamel's composer gives the position of every node (it
builds nodes only, never Python objects from tags, so it is as safe as a safe loader). What the data
*means* comes from PyYAML's ``safe_load``, the loader yolov5 itself uses, so the validator sees what
training will see. Parsing never raises: problems (syntax, encoding, duplicate keys) become findings.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import yaml
from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError as RuamelMarkedError
from ruamel.yaml.error import YAMLError as RuamelError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from core.atomic import atomic_write_bytes
from core.dataset.findings import finding
from core.findings import Finding
from core.i18n import tr

BOM = "\ufeff"
KeyPath = Sequence[Any]
#: libyaml's safe loader when PyYAML has it: the same safe constructor yolov5's ``yaml.safe_load`` uses, ~10x
#: faster, which keeps an edit of a 1000-class file responsive on the GUI thread.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


#: A data.yaml is a few kB (a 1000-class one ~30 kB); far larger is not one, and reading it would cost GBs.
MAX_YAML_BYTES = 8 << 20
#: Values the document would hold once every alias is expanded (a "billion laughs" bomb is billions).
MAX_YAML_VALUES = 200_000
#: How deep lists and mappings may nest (a data.yaml needs 3; thousands exhaust the parsers' stacks).
MAX_YAML_DEPTH = 64


def safe_load(text: str) -> Any:
    return yaml.load(text, Loader=_SAFE_LOADER)  # noqa: S506 - a safe loader, never yaml.Loader


def bounds_problem(text: str) -> tuple[str, int] | None:
    """(message naming the limit, line) when the document is too large, too deep or expands too far.

    Checked on the parser's events, before any value is built: an anchor's size is counted once, and each
    alias (merge keys included) adds the size of what it repeats, so an alias bomb is refused after a few
    hundred events instead of after gigabytes. Syntax errors are left to the loader, which words them."""
    if len(text) > MAX_YAML_BYTES:
        return tr("The file is {size} MB; a data.yaml is limited to {limit} MB.",
                  size=round(len(text) / (1 << 20), 1), limit=MAX_YAML_BYTES >> 20), 1
    sizes: dict[str, int] = {}
    stack: list[tuple[str | None, int]] = []  # (anchor, values counted when the collection opened)
    values = 0
    try:
        for event in yaml.parse(text, Loader=_SAFE_LOADER):
            line = event.start_mark.line + 1 if event.start_mark is not None else 1
            if isinstance(event, yaml.AliasEvent):
                values += sizes.get(event.anchor, 1)
            elif isinstance(event, yaml.ScalarEvent):
                values += 1
                if event.anchor:
                    sizes[event.anchor] = 1
            elif isinstance(event, yaml.CollectionStartEvent):
                stack.append((event.anchor, values))
                values += 1
                if len(stack) > MAX_YAML_DEPTH:
                    return tr("Lists and mappings nest more than {limit} levels deep at line {line}; a data.yaml "
                              "needs three.", limit=MAX_YAML_DEPTH, line=line), line
            elif isinstance(event, yaml.CollectionEndEvent) and stack:
                anchor, opened = stack.pop()
                if anchor:
                    sizes[anchor] = values - opened
            if values > MAX_YAML_VALUES:
                return tr("The file holds more than {limit} values once its aliases (*name, <<:) are expanded "
                          "(at line {line}); a data.yaml is limited to that.", limit=f"{MAX_YAML_VALUES:,}",
                          line=line), line
    except (yaml.YAMLError, ValueError, RecursionError):
        return None
    return None


@dataclass
class YamlDocument:
    """One data.yaml. ``text`` is the decoded file without its BOM, newlines as they were."""

    text: str
    file: str = "data.yaml"
    bom: bool = False
    encoding_ok: bool = True
    data: Any = None  # what yolov5's yaml.safe_load returns; None when it cannot be parsed
    root: Node | None = None  # ruamel node tree (positions); None when the text does not parse
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.root is not None and isinstance(self.data, dict)

    @property
    def editable(self) -> bool:
        return self.ok and self.encoding_ok and isinstance(self.root, MappingNode)

    def to_bytes(self) -> bytes:
        """Exactly the bytes read when nothing was edited (invalid bytes survive via surrogateescape)."""
        return ((BOM if self.bom else "") + self.text).encode("utf-8", errors="surrogateescape")

    def key_line(self, key: str) -> int:
        """1-based line of a top-level key, 0 when absent."""
        pair = _find_pair(self.root, key) if isinstance(self.root, MappingNode) else None
        return pair[0].start_mark.line + 1 if pair else 0

    def node(self, path: KeyPath) -> Node | None:
        return _node_at(self.root, path)

    def key_pair(self, key: str) -> tuple[Node, Node] | None:
        """The (key, value) nodes of a top-level key (the last one, as yolov5 reads it), None when absent."""
        return _find_pair(self.root, key)


# ---------------------------------------------------------------- loading


def load_document(path: Path) -> YamlDocument:
    """Read a data.yaml; ``OSError`` (with words) for a file that is not a regular file or is too large —
    a FIFO would block the read forever, a 60 MB file is not a data.yaml."""
    path = Path(path)
    with open(path, "rb", opener=_nonblocking) as handle:
        mode = os.fstat(handle.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, tr("it is not a regular file (a folder, a pipe or a device)"))
        raw = handle.read(MAX_YAML_BYTES + 1)
    if len(raw) > MAX_YAML_BYTES:
        raise OSError(errno.EFBIG, tr("it is larger than {limit} MB, the limit for a data.yaml",
                                      limit=MAX_YAML_BYTES >> 20))
    return parse_bytes(raw, str(path))


def _nonblocking(path: str, flags: int) -> int:
    """Open without blocking: opening a FIFO for reading waits for a writer, forever (POSIX)."""
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))


def parse_bytes(raw: bytes, file: str = "data.yaml") -> YamlDocument:
    findings: list[Finding] = []
    bom = raw.startswith(BOM.encode("utf-8"))
    body = raw[3:] if bom else raw
    try:
        text = body.decode("utf-8")
        encoding_ok = True
    except UnicodeDecodeError as exc:
        encoding_ok = False
        text = body.decode("utf-8", errors="surrogateescape")
        line = body[: exc.start].count(b"\n") + 1
        findings.append(finding("yaml-encoding", file, tr(
            "Byte {offset} is not UTF-8 text. yolov5 silently drops such bytes when it reads the file, so a "
            "class name or path may not be what you see; save the file as UTF-8.", offset=exc.start), line))
    doc = parse_text(text, file)
    doc.bom, doc.encoding_ok = bom, encoding_ok
    doc.findings[:0] = findings
    return doc


def parse_text(text: str, file: str = "data.yaml") -> YamlDocument:
    """Parse without ever raising: problems become findings."""
    doc = YamlDocument(text=text, file=file)
    clean = text.encode("utf-8", errors="surrogateescape").decode("utf-8", errors="ignore")  # as yolov5 reads it
    too_big = bounds_problem(clean)
    if too_big is not None:
        doc.findings.append(finding("yaml-too-large", file, too_big[0], too_big[1]))
        return doc
    try:
        doc.data = safe_load(clean)
    except yaml.MarkedYAMLError as exc:
        doc.findings.append(_syntax_finding(file, exc.problem or str(exc), exc.problem_mark, clean))
        return doc
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        doc.findings.append(finding("yaml-syntax", file, tr("Not valid YAML: {reason}", reason=exc), 1))
        return doc
    try:
        doc.root = YAML(typ="rt").compose(clean)
    except RuamelMarkedError as exc:
        doc.findings.append(_syntax_finding(file, exc.problem or str(exc), exc.problem_mark, clean))
    except (RuamelError, ValueError, RecursionError) as exc:
        doc.findings.append(finding("yaml-syntax", file, tr("Not valid YAML: {reason}", reason=exc), 1))
    if doc.data is None or not isinstance(doc.data, dict):
        what = tr("is empty") if doc.data is None else tr("holds a {kind}, not a mapping", kind=type(doc.data).__name__)
        doc.findings.append(finding("yaml-not-mapping", file, tr(
            "The file {what}. A data.yaml is a mapping with at least 'train', 'val' and 'names'.", what=what), 1))
        return doc
    if doc.root is not None:
        _duplicate_keys(doc.root, file, doc.findings)
    return doc


def _syntax_finding(file: str, problem: str, mark: Any, text: str) -> Finding:
    line = (mark.line + 1) if mark is not None else 1
    column = (mark.column + 1) if mark is not None else 0
    lines = text.splitlines()
    bad_line = lines[line - 1] if 0 < line <= len(lines) else ""
    if "\t" in bad_line[: max(column, 1)] or "'\\t'" in problem:
        message = tr("Line {line} uses a tab to indent; YAML allows only spaces there ({problem}).",
                     line=line, problem=problem)
    else:
        message = tr("YAML syntax error at line {line}, column {column}: {problem}",
                     line=line, column=column, problem=problem)
    return finding("yaml-syntax", file, message, line, column)


def _duplicate_keys(node: Node, file: str, out: list[Finding], depth: int = 0) -> None:
    if depth > 50:
        return
    if isinstance(node, MappingNode):
        seen: dict[str, int] = {}
        for key, value in node.value:
            if isinstance(key, ScalarNode):
                if key.value in seen:
                    out.append(finding("yaml-duplicate-key", file, tr(
                        "Key '{key}' appears twice (first on line {first}). yolov5's loader silently keeps the "
                        "last one; delete the one you do not mean.", key=key.value, first=seen[key.value]),
                        key.start_mark.line + 1, key.start_mark.column + 1))
                else:
                    seen[key.value] = key.start_mark.line + 1
            _duplicate_keys(value, file, out, depth + 1)
    elif isinstance(node, SequenceNode):
        for item in node.value:
            _duplicate_keys(item, file, out, depth + 1)


# ---------------------------------------------------------------- positions


def _find_pair(mapping: Node | None, key: Any) -> tuple[Node, Node] | None:
    if not isinstance(mapping, MappingNode):
        return None
    found = None
    for k, v in mapping.value:
        if isinstance(k, ScalarNode) and k.value == str(key):
            found = (k, v)  # the last one wins, as in yolov5's loader
    return found


def _node_at(root: Node | None, path: KeyPath) -> Node | None:
    node = root
    for key in path:
        if isinstance(node, MappingNode):
            pair = _find_pair(node, key)
            node = pair[1] if pair else None
        elif isinstance(node, SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
            node = node.value[key]
        else:
            return None
    return node


# ---------------------------------------------------------------- saving


def save_document(path: Path, doc: YamlDocument) -> None:
    """Write atomically; the original is kept as ``<name>.bak`` before the first overwrite."""
    atomic_write_bytes(Path(path), doc.to_bytes(), backup=True)
