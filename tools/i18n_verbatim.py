"""What a translation must keep character for character: file names, flags, placeholders, paths, commands.

A translator turns words into words; a file name, a command-line flag, a ``{placeholder}``, a path, an
environment variable or a command the user types is not a word of the sentence but a name the program and
the user's files share — translated, it names nothing ("exp2 · 最佳.pt" for ``best.pt``, issue 25). This
module finds such tokens in a source text (``verbatim_tokens``) and says which of them a translation lost
(``lost_tokens``); ``tools.i18n``'s ``problems()`` reports every entry that lost one, so ``python -m
tools.i18n check`` and the catalogue test fail on it.

Why these shapes and not others:

- file names: a name ending in an extension the app reads or writes (``best.pt``, ``data.yaml``,
  ``*.txt``, ``{name}.onnx``), matched case-insensitively (``x.TXT`` is a finding of its own);
- flags: ``--word`` (every flag of ``yolostudio`` and of yolov5's ``train.py`` is a double-dash one);
- placeholders: the whole ``{name:spec}`` (``tools.i18n.PLACEHOLDER``), spec included — ``{rate:.0f}``
  rewritten as ``{rate}`` changes the number shown;
- paths: a token with a separator that is rooted (``/dev/shm``, ``~/x``, ``./x``, ``C:\\x``), ends in one
  (``runs/``), has two (``a/b/c``), holds a file name (``weights/best.pt``), or starts with yolov5's
  ``images``/``labels`` folders (yolov5's ``img2label_paths`` pairs them by those literal names). One
  relative separator between words is prose ("train/val", "Debian/Ubuntu") and a unit ("images/s",
  "MB/s") is a word to translate, so neither counts;
- environment variables (``YOLOSTUDIO_LANG``, ``CUDA_VISIBLE_DEVICES``) and commands the user types: a
  ``yolostudio`` verb, ``python -m module``, ``pip install``, ``sudo x``, ``apt``/``dnf install``.
"""

from __future__ import annotations

import re

#: Extensions of files the app, yolov5 or the installer read or write (weights, exports, configs, logs, labels).
EXTENSIONS = ("pt", "yaml", "yml", "txt", "json", "jsonl", "log", "onnx", "engine", "torchscript", "csv", "png",
              "jpg", "jpeg", "bmp", "webp", "sh", "bat", "ps1", "exe", "qm", "ts", "py", "toml", "cache", "zip",
              "desktop", "whl", "xml", "npy", "table", "journal", "lock", "bak", "tmp", "otf")
FILE_NAME = re.compile(r"(?<![\w.-])[\w{}*~-]*[\w}*](?:\.[\w{}-]+)*\.(?:" + "|".join(EXTENSIONS) + r")(?![\w-])",
                       re.IGNORECASE)
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*[^{}]*\}|%[vmn%]|%\d")
ENV_VAR = re.compile(r"(?<![\w$%])[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")
COMMAND = re.compile(r"\byolostudio +[a-z][a-z-]*|\bpython3? +-m +[\w.]+|\bpip3? +(?:install|uninstall|download)\b"
                     r"|\bsudo +[a-z][\w-]*|\b(?:apt-get|apt|dnf) +install\b")
TAG = re.compile(r"<[^<>]*>")  # rich text's markup is not a path ("</b>")
#: A run of characters a path can hold: no spaces, no CJK, no brackets or quotes around it.
_NOT_IN_PATH = r"\s()\[\]<>\"'`,;，。；：（）\u3000-\u303f\u4e00-\u9fff"  # spaces, brackets, quotes, CJK
PATH_RUN = re.compile(f"[^{_NOT_IN_PATH}]*[/\\\\][^{_NOT_IN_PATH}]*")
ROOTED = re.compile(r"^(?:/|~[/\\]|\.{1,2}[/\\]|[A-Za-z]:\\|%[A-Z_]+%\\|\$[A-Z_]+/)")
YOLO_FOLDERS = re.compile(r"^(?:images|labels)[/\\]")
UNIT = re.compile(r"[/\\](?:s|h|min|epoch)$", re.IGNORECASE)


def _is_path(token: str) -> bool:
    if "://" in token or UNIT.search(token) or re.fullmatch(r"(?:\{[^{}]*\}|%\w|\d+)(?:/(?:\{[^{}]*\}|%\w|\d+))+",
                                                               token):
        return token.startswith("http")  # an address is a path too; a fraction "{done}/{total}" is not
    separators = len(re.findall(r"[/\\]", token))
    return bool(ROOTED.match(token) or token.endswith(("/", "\\")) or separators >= 2 or FILE_NAME.search(token)
                or YOLO_FOLDERS.match(token))


def verbatim_tokens(source: str) -> list[str]:
    """The tokens of ``source`` a translation must contain unchanged, in order of first appearance."""
    found: list[tuple[int, str]] = []
    for pattern in (PLACEHOLDER, FLAG, FILE_NAME, ENV_VAR, COMMAND):
        found += [(m.start(), m.group(0)) for m in pattern.finditer(source)]
    for m in PATH_RUN.finditer(TAG.sub(" ", source)):
        token = m.group(0).rstrip(".:!?")
        if len(token) > 1 and _is_path(token):
            found.append((m.start(), token))
    return list(dict.fromkeys(token for _start, token in sorted(found)))


def lost_tokens(source: str, translation: str) -> list[str]:
    """The verbatim tokens of ``source`` that ``translation`` does not contain as they are."""
    return [token for token in verbatim_tokens(source) if token not in translation]
