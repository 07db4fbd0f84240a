"""A split's images for the jobs that only need the files: disk timing, export calibration, "Try it".

The dataset check owns the rules for which files a split holds (``core.dataset.files.list_split``: yolov5's
ten image suffixes, ``images/``→``labels/``, ``.txt`` lists, a folder bound so ``train: /`` cannot search the
whole disk). The disk-speed probe, the export's verification images and the Export page's "Try it" used to
list splits themselves, with seven suffixes and an unbounded ``rglob``; they call this instead, so every
part of the app sees the same images yolov5 trains on. It does I/O: the GUI calls it off its thread.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from core.dataset.data_yaml import read_data_yaml
from core.dataset.files import WalkLimits, list_split
from core.dataset.spec import SplitSpec


@dataclass
class SplitImages:
    """The images of the first split found (``split`` names which); ``root`` is the dataset's ``path``."""

    root: Path | None = None
    split: str = ""
    images: list[Path] = field(default_factory=list)
    problem: str = ""  # why there are no images: the data.yaml's first error, when it cannot be read


def split_images(data_yaml: str | Path, splits: tuple[str, ...] = ("val", "train"), *, limit: int = 0,
                 limits: WalkLimits | None = None) -> SplitImages:
    """The images of the first of ``splits`` the data.yaml has (``limit`` > 0: at most that many).

    A data.yaml that cannot be read, or names none of ``splits``, gives no images (the caller says what it
    uses instead); nothing here raises for what the files contain."""
    judged = read_data_yaml(Path(data_yaml))
    if judged.spec is None:
        return SplitImages(problem=judged.errors[0].message if judged.errors else "")
    for name in splits:
        split = judged.spec.splits.get(name)
        if split is not None:
            found = [Path(p) for p in list_split(split, str(judged.path), None, limits).images]
            return SplitImages(judged.spec.root, name, found[:limit] if limit else found)
    return SplitImages(judged.spec.root)


def folder_images(folder: Path, limit: int = 0, limits: WalkLimits | None = None) -> list[Path]:
    """The images yolov5 would train on if ``folder`` were a split (the same walk and suffixes)."""
    split = SplitSpec(name="train", entries=[str(folder)], paths=[Path(folder)], line=0)
    found = [Path(p) for p in list_split(split, str(folder), None, limits).images]
    return found[:limit] if limit else found
