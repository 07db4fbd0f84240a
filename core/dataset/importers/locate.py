"""Find the image an annotation names, the way exports really name them.

An annotation's ``filename``/``imagePath``/``file_name`` may be relative to the annotation, to the export's
root, an absolute path from the labeller's own machine, or only a base name; Windows separators are common.
This tries them in that order and then a base-name index of the whole source (used only when the name is
unique there, so two ``0001.jpg`` in different folders are never confused). Only files inside the source
are taken: an annotation naming ``/home/someone/private.jpg`` or ``../../x.jpg`` cannot pull a file from
elsewhere on the machine into the dataset.
"""

from __future__ import annotations

import os
import stat
from collections import defaultdict
from pathlib import Path, PureWindowsPath

from core.dataset.images import is_image_name


def walk_files(root: Path, suffixes: tuple[str, ...] | None = None) -> list[Path]:
    """Every regular file under ``root`` (hidden files and folders skipped), sorted; only ``suffixes`` when
    given. A FIFO or device named ``x.jpg`` is left out: opening it would wait forever."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if name.startswith(".") or (suffixes is not None and not name.lower().endswith(suffixes)):
                continue
            path = Path(dirpath) / name
            try:
                if stat.S_ISREG(path.stat().st_mode):
                    found.append(path)
            except OSError:
                continue  # a dangling link: nothing to read
    return found


class ImageIndex:
    """The source's images by base name, for annotations whose path does not resolve."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._real_root = Path(os.path.realpath(root))
        self.images = [p for p in walk_files(root) if is_image_name(p.name)]
        self._by_name: dict[str, list[Path]] = defaultdict(list)
        for path in self.images:
            self._by_name[path.name].append(path)

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
            if candidate.is_file() and self.inside(candidate):
                return candidate
        base = name.rsplit("/", 1)[-1]
        if beside is not None and base and (beside / base).is_file() and self.inside(beside / base):
            return beside / base
        matches = self._by_name.get(base, [])
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
        return [folder / n for n in names if Path(n).stem == stem_path.stem and is_image_name(n)]
