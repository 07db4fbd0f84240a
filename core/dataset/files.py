"""Which images a split holds and which label file belongs to each — yolov5's own rules.

A folder split is searched recursively (hidden files skipped, as ``glob`` does); a ``.txt`` split lists
one image per line (``./x`` is relative to the list's folder). The label of ``…/images/…/a.jpg`` is
``…/labels/…/a.txt`` (the *last* ``/images/`` is swapped, the suffix replaced), exactly
``img2label_paths``. Folder walks follow links but remember every real folder visited, so a symlink
loop is reported once instead of recursing forever.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from core.dataset.findings import Finding, finding
from core.dataset.images import is_image_name, is_other_image_name
from core.dataset.spec import SplitSpec
from core.i18n import tr


def label_path_for(image: str) -> str:
    sa, sb = f"{os.sep}images{os.sep}", f"{os.sep}labels{os.sep}"
    return sb.join(image.rsplit(sa, 1)).rsplit(".", 1)[0] + ".txt"


@dataclass
class SplitFiles:
    name: str
    images: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    label_dirs: set[str] = field(default_factory=set)  # folders whose .txt files are this split's labels
    recursive_label_dirs: set[str] = field(default_factory=set)
    list_files: set[str] = field(default_factory=set)


def list_split(split: SplitSpec, yaml_file: str) -> SplitFiles:
    out = SplitFiles(split.name)
    for entry, path in zip(split.entries, split.paths):
        if path.is_dir():
            _walk(path, out)
            out.recursive_label_dirs.add(label_path_for(str(path) + os.sep + "x.y").rsplit(os.sep, 1)[0])
        elif path.is_file():
            _read_list(path, out)
        else:
            out.findings.append(finding("split-path-missing", yaml_file, tr(
                "{split}: {entry} does not exist (looked for {path}). yolov5 stops with 'Dataset not found'.",
                split=split.name, entry=entry, path=path), split.line))
    out.images = sorted(set(out.images))
    return out


def _walk(top: Path, out: SplitFiles) -> None:
    visited: set[tuple[int, int]] = set()
    stack = [str(top)]
    while stack:
        folder = stack.pop()
        try:
            st = os.stat(folder)
        except OSError:
            out.findings.append(finding("split-symlink-loop", folder, tr(
                "This folder cannot be opened (a broken or looping link?); its images are skipped.")))
            continue
        if (st.st_dev, st.st_ino) in visited:
            out.findings.append(finding("split-symlink-loop", folder, tr(
                "This link leads back to a folder already searched (a symlink loop). yolov5's folder search "
                "follows links, so it lists the same images again or fails; remove the link.")))
            continue
        visited.add((st.st_dev, st.st_ino))
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                stack.append(entry.path)
            elif is_image_name(entry.name):
                out.images.append(entry.path)
            elif is_other_image_name(entry.name):
                out.findings.append(finding("image-unsupported-format", entry.path, tr(
                    "yolov5 does not read .{suffix} images and skips this file silently; convert it to JPEG or "
                    "PNG if it should be used.", suffix=entry.name.rsplit('.', 1)[-1].lower())))


def _read_list(path: Path, out: SplitFiles) -> None:
    out.list_files.add(str(path))
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        out.findings.append(finding("split-path-missing", path, tr("Cannot read the list: {reason}",
                                                                   reason=exc.strerror)))
        return
    parent = str(path.parent) + os.sep
    relative = 0
    for number, line in enumerate(text.splitlines(), 1):
        entry = line.strip()
        if not entry:
            continue
        if entry.startswith("./"):
            image = entry.replace("./", parent, 1)
        elif os.path.isabs(entry):
            image = entry
        else:
            relative += 1
            image = str(path.parent / entry)
        image = os.path.normpath(image)
        name = os.path.basename(image)
        if not is_image_name(name):
            if is_other_image_name(name):
                out.findings.append(finding("image-unsupported-format", path, tr(
                    "{entry}: yolov5 does not read this kind of image and skips it silently.", entry=entry), number))
            continue
        if not os.path.isfile(image):
            out.findings.append(finding("image-missing", path, tr(
                "{entry} is listed but does not exist. yolov5 counts it as corrupt and trains without it.",
                entry=entry), number))
            continue
        out.images.append(image)
        out.label_dirs.add(os.path.dirname(label_path_for(image)))
    if relative:
        out.findings.append(finding("split-path-missing", path, tr(
            "{n} entries are relative paths without './'. They are checked relative to this list's folder, but "
            "yolov5 resolves them against the folder training starts in; write them as './…' or absolute.",
            n=relative), severity="warning"))
