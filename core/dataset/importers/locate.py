"""Find the image an annotation names, the way exports really name them.

An annotation's ``filename``/``imagePath``/``file_name`` may be relative to the annotation, to the export's
root, an absolute path from the labeller's own machine, or only a base name; Windows separators are common.
This tries them in that order and then a base-name index of the whole source (used only when the name is
unique there, so two ``0001.jpg`` in different folders are never confused). Only files inside the source
are taken: an annotation naming ``/home/someone/private.jpg`` or ``../../x.jpg`` cannot pull a file from
elsewhere on the machine into the dataset, and the walk holds every file to the source the same way — a
symlink inside the source that resolves outside it is left out (``outside_links`` lists them for the report).

Paths are returned normalised (``annotations/../images/x.jpg`` → ``images/x.jpg``), so one picture reached
by two spellings is one picture. A VOC segmentation export's mask PNGs (``SegmentationClass/``,
``SegmentationObject/``, Datumaro ``voc/exporter.py`` 1.10 lines 199-207 and 421-427; labelme's
``labelme2voc.py`` writes ``SegmentationClassPNG/`` and ``…Visualization/``) are label maps, not photos: the
index leaves them out and lists them (``masks``).
"""

from __future__ import annotations

import os
import stat
from collections import defaultdict
from pathlib import Path, PureWindowsPath

from core.dataset.images import is_image_name


#: Folders of a segmentation export whose PNGs are masks (class or instance ids painted per pixel).
MASK_FOLDERS = frozenset(n.casefold() for n in (
    "SegmentationClass", "SegmentationObject", "SegmentationClassPNG", "SegmentationObjectPNG",
    "SegmentationClassVisualization", "SegmentationObjectVisualization", "SegmentationClassAug",
    "SegmentationClassRaw"))


def inside(path: Path | str, real_root: str) -> bool:
    """True when ``path`` resolves (links followed) to ``real_root`` or below it."""
    real = os.path.realpath(path)
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


def walk_files(root: Path, suffixes: tuple[str, ...] | None = None) -> list[Path]:
    """Every regular file under ``root`` (hidden files and folders skipped), sorted; only ``suffixes`` when
    given. A FIFO or device named ``x.jpg`` is left out: opening it would wait forever. So is a link that
    resolves outside ``root`` (a folder link is not followed at all)."""
    found = []
    real_root = os.path.realpath(root)
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if name.startswith(".") or (suffixes is not None and not name.lower().endswith(suffixes)):
                continue
            path = Path(dirpath) / name
            try:
                if stat.S_ISREG(path.stat().st_mode) and (not path.is_symlink() or inside(path, real_root)):
                    found.append(path)
            except OSError:
                continue  # a dangling link: nothing to read
    return found


def outside_links(root: Path) -> list[tuple[Path, str]]:
    """Links under ``root`` (files or folders, hidden ones skipped) that resolve outside it, with their target."""
    real_root = os.path.realpath(root)
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted([*dirnames, *filenames]):
            path = Path(dirpath) / name
            if not name.startswith(".") and path.is_symlink() and not inside(path, real_root):
                found.append((path, os.path.realpath(path)))
    return found


def is_mask(path: Path, root: Path) -> bool:
    """True for a PNG in a segmentation export's mask folder."""
    try:
        parts = path.relative_to(root).parts[:-1]
    except ValueError:
        parts = path.parts[:-1]
    return path.suffix.lower() == ".png" and any(p.casefold() in MASK_FOLDERS for p in parts)


class ImageIndex:
    """The source's images by base name, for annotations whose path does not resolve."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._real_root = Path(os.path.realpath(root))
        pictures = [p for p in walk_files(root) if is_image_name(p.name)]
        self.masks = [p for p in pictures if is_mask(p, root)]
        self.images = [p for p in pictures if not is_mask(p, root)]
        self._by_name: dict[str, list[Path]] = defaultdict(list)
        self._by_stem: dict[str, list[Path]] = defaultdict(list)
        for path in self.images:
            self._by_name[path.name].append(path)
            self._by_stem[path.stem].append(path)

    def find(self, name: str, beside: Path | None = None) -> Path | None:
        """The image ``name`` refers to, or None (not there, or only ambiguous base-name matches)."""
        if not name:
            return None
        name = name.replace("\\", "/")
        candidates = []
        if not os.path.isabs(name) and not PureWindowsPath(name).drive:
            if beside is not None:
                candidates.append(beside / name)
            candidates.append(self.root / name)
        for candidate in candidates:
            candidate = Path(os.path.normpath(candidate))
            if candidate.is_file() and self.inside(candidate) and not is_mask(candidate, self.root):
                return candidate
        base = name.rsplit("/", 1)[-1]
        if beside is not None and base and (beside / base).is_file() and self.inside(beside / base):
            return beside / base
        matches = self._by_name.get(base, [])
        return matches[0] if len(matches) == 1 else None

    def find_named_stem(self, name: str, beside: Path | None = None) -> Path | None:
        """The image whose stem is ``name``'s base name, for a file name written without its extension
        (Label Studio's VOC export writes the task's file name as it had it): beside the annotation, or
        the one image of that stem in the source."""
        stem = name.replace("\\", "/").rsplit("/", 1)[-1]
        if not stem:
            return None
        matches = self._by_stem.get(stem, [])
        near = [p for p in matches if beside is not None and p.parent == beside]
        if len(near) == 1:
            return near[0]
        return matches[0] if len(matches) == 1 else None

    def inside(self, path: Path) -> bool:
        real = Path(os.path.realpath(path))
        return real == self._real_root or self._real_root in real.parents

    def find_stem(self, stem_path: Path) -> Path | None:
        """An image beside ``stem_path`` with the same stem (``a.xml`` → ``a.jpg``)."""
        for path in self._by_name_stem(stem_path):
            return path
        return None

    def _by_name_stem(self, stem_path: Path) -> list[Path]:
        folder = stem_path.parent
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            return []
        return [folder / n for n in names if Path(n).stem == stem_path.stem and is_image_name(n)
                and (folder / n).is_file() and self.inside(folder / n) and not is_mask(folder / n, self.root)]
