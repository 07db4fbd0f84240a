"""What a parsed data.yaml means: class names, the dataset root, and each split's entries.

Accepts every form yolov5 accepts: ``names`` as a list or an ``{id: name}`` map, ``nc`` present or not,
``train``/``val``/``test`` each a folder, a ``.txt`` list of images, or a list of these, relative to
``path``. Everything else in the file (``download`` scripts, ``roboflow`` blocks …) is left alone.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from core.dataset.findings import ERROR, WARNING, finding
from core.dataset.yaml_doc import YamlDocument
from core.findings import Finding
from core.i18n import tr

SPLITS = ("train", "val", "test")
REQUIRED = ("train", "val", "names")
_WINDOWS_ABS = re.compile(r"^[A-Za-z]:[\\/]")
_COLAB_PREFIXES = ("/content/", "/kaggle/", "/gdrive/", "/drive/")


@dataclass
class SplitSpec:
    name: str
    entries: list[str]  # as written
    paths: list[Path]  # resolved against the root
    line: int  # line of the key in data.yaml


@dataclass
class DatasetSpec:
    yaml_file: Path
    root: Path
    names: list[str] = field(default_factory=list)
    nc: int | None = None
    splits: dict[str, SplitSpec] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)


def looks_foreign(path_text: str) -> bool:
    """An absolute path written on another kind of machine (Windows on POSIX, Colab/Kaggle, …)."""
    if sys.platform != "win32" and _WINDOWS_ABS.match(path_text):
        return True
    if sys.platform == "win32" and path_text.startswith("/"):
        return True
    return path_text.startswith(_COLAB_PREFIXES) and not Path(path_text).exists()


def read_spec(doc: YamlDocument, yaml_file: Path) -> DatasetSpec:
    yaml_file = Path(yaml_file).absolute()
    spec = DatasetSpec(yaml_file=yaml_file, root=yaml_file.parent)
    data = doc.data if isinstance(doc.data, dict) else {}
    file = str(yaml_file)
    if not isinstance(doc.data, dict):
        return spec
    for key in REQUIRED:
        if key not in data:
            spec.findings.append(finding("yaml-missing-key", file, tr(
                "'{key}' is missing. yolov5 stops at once with \"data.yaml '{key}:' field missing\".", key=key), 1))
        elif data[key] in (None, "", [], {}):
            spec.findings.append(finding("yaml-missing-key", file, tr(
                "'names' lists no classes. yolov5 would build a model with no classes and stop at the first "
                "label; list the class names.") if key == "names" else tr(
                "'{key}' is empty. yolov5 needs the folder (or list file) of the {key} images.", key=key),
                doc.key_line(key) or 1))
    _read_names(data, doc, file, spec)
    _read_root(data, doc, file, spec)
    _read_download(data, doc, file, spec)
    for split in SPLITS:
        value = data.get(split)
        if value in (None, "", []):
            continue
        entries = value if isinstance(value, list) else [value]
        if not all(isinstance(e, str) for e in entries):
            spec.findings.append(finding("split-path-missing", file, tr(
                "'{split}' must be a path or a list of paths.", split=split), doc.key_line(split)))
            continue
        spec.splits[split] = SplitSpec(split, list(entries), [_resolve(spec.root, e) for e in entries],
                                       doc.key_line(split))
    return spec


#: More classes than any detection dataset has (Objects365: 365, LVIS: 1203, Open Images: 601).
MAX_CLASSES = 100_000


def _read_names(data: dict[str, Any], doc: YamlDocument, file: str, spec: DatasetSpec) -> None:
    names = data.get("names")
    line = doc.key_line("names") or 1
    if isinstance(names, list):
        spec.names = [str(n) for n in names]
    elif isinstance(names, dict):
        if not all(isinstance(k, int) and not isinstance(k, bool) for k in names):
            spec.findings.append(finding("names-invalid", file, tr(
                "The keys of 'names' must be class ids (0, 1, 2 …). yolov5 stops with 'names keys must be "
                "integers'."), line))
            return
        ids = sorted(names)
        if ids != list(range(len(ids))):
            spec.findings.append(finding("names-invalid", file, tr(
                "Class ids in 'names' must run 0, 1, 2 … without gaps; found {ids}. yolov5 sets nc to the "
                "number of names ({n}), so a label with id {top} aborts training.",
                ids=", ".join(map(str, ids[:12])), n=len(ids), top=ids[-1] if ids else 0), line))
        spec.names = [str(names[k]) for k in ids]
    elif names is not None:
        spec.findings.append(finding("names-invalid", file, tr(
            "'names' must be a list of class names or a map of id: name."), line))
        return
    seen: dict[str, int] = {}
    for index, name in enumerate(spec.names):
        if name in seen:
            spec.findings.append(finding("names-duplicate", file, tr(
                "Classes {first} and {second} are both called '{name}'; their predictions cannot be told apart.",
                first=seen[name], second=index, name=name), line))
        seen.setdefault(name, index)
    nc = data.get("nc")
    if nc is not None:
        if not isinstance(nc, int) or isinstance(nc, bool) or not 1 <= nc <= MAX_CLASSES:
            spec.findings.append(finding("names-nc-mismatch", file, tr(
                "'nc' is {value}; it must be a whole number of classes from 1 to {limit}.",
                value=str(nc)[:40], limit=f"{MAX_CLASSES:,}"), doc.key_line("nc")))
        else:
            spec.nc = nc
            if names is not None and nc != len(spec.names):
                spec.findings.append(finding("names-nc-mismatch", file, tr(
                    "nc is {nc} but there are {n} names. yolov5 ignores nc and uses the {n} names, so labels "
                    "with ids from {n} up abort training; fix the names list (or delete nc).",
                    nc=nc, n=len(spec.names)), doc.key_line("nc")))


def download_kind(value: Any) -> str:
    """What yolov5's ``check_dataset`` (7.0.14, ``utils/general.py`` 516-533) would do with ``download:``
    when a val path is missing: fetch and unzip a URL ending ``.zip``, run a ``bash `` line in a shell, or
    ``exec`` anything else as Python."""
    text = str(value)
    if text.startswith("http") and text.endswith(".zip"):
        return tr("a URL to fetch and unzip")
    if text.startswith("bash "):
        return tr("a shell command")
    return tr("a Python script")


def _read_download(data: dict[str, Any], doc: YamlDocument, file: str, spec: DatasetSpec) -> None:
    value = data.get("download")
    if not value:
        return
    spec.findings.append(finding("yaml-download", file, tr(
        "'download' is {kind}: yolov5 would run this script whenever a val path is missing; YOLO Studio does "
        "not (nor fetches it). Get the dataset yourself, then delete the entry.", kind=download_kind(value)),
        doc.key_line("download") or 1))


def _read_root(data: dict[str, Any], doc: YamlDocument, file: str, spec: DatasetSpec) -> None:
    raw = data.get("path")
    relative_splits = [k for k in SPLITS if isinstance(data.get(k), str) and data[k]
                       and not Path(data[k]).is_absolute() and not _WINDOWS_ABS.match(data[k])]
    if relative_splits and (raw in (None, "") or not (Path(str(raw)).is_absolute() or looks_foreign(str(raw)))):
        spec.findings.append(finding("path-relative", file, tr(
            "The dataset folder is given relative to this file. YOLO Studio reads it that way, but yolov5 itself "
            "resolves a relative 'path' (or a missing one) against its own install folder, not this file's; "
            "set 'path' to the absolute folder (one-click fix) so every tool finds the images."),
            doc.key_line("path") or doc.key_line(relative_splits[0])))
    if raw in (None, ""):
        return
    text = str(raw)
    if looks_foreign(text):
        # Relative splits under a foreign root point nowhere on this machine: nothing could be trained.
        spec.findings.append(finding("path-foreign", file, tr(
            "'path' is {path}, an absolute path from another machine (Colab, Kaggle or Windows). Re-root it to "
            "the folder this data.yaml is in (one-click fix) or to where the images are now.", path=text),
            doc.key_line("path"), severity=ERROR if relative_splits else WARNING))
    root = Path(text).expanduser()
    spec.root = root if root.is_absolute() else Path(os.path.normpath(spec.yaml_file.parent / root))


def _resolve(root: Path, entry: str) -> Path:
    """yolov5's rule: relative to the root; a missing ``../x`` is tried as ``x`` too."""
    if _WINDOWS_ABS.match(entry) and sys.platform != "win32":
        return Path(PureWindowsPath(entry).as_posix())
    path = Path(entry).expanduser()
    if path.is_absolute():
        return path
    candidate = root / path
    if not candidate.exists() and entry.startswith("../"):
        shorter = root / PurePosixPath(entry[3:])
        if shorter.exists():
            return shorter
    return candidate


def reroot_target(spec: DatasetSpec) -> Path:
    """Where a foreign root most likely lives now: the folder of this data.yaml."""
    return spec.yaml_file.parent
