"""A new dataset from folders: find images and their labels, split train/val, write list files + data.yaml.

Accepts a flat folder (images with their ``.txt`` beside them), the ``images/`` + ``labels/`` layout,
and Roboflow-style exports (``train/images``, ``valid/labels`` …): pairing is yolov5's own rule, so what
is written here is exactly what training will pair. A split the folder already has (``images/train`` +
``images/val``, ``train/`` + ``valid/``; ``split_of_folder``) is kept as it is — only images outside any split
folder are split, deterministically (same folder, ratio and seed → same lists) and stratified by each image's
rarest class, so a rare class lands in val too.

Class names come from the user or a labelling tool's ``classes.txt``, never from the highest id found: one
stray id 5 among 0–1 would invent six classes and hide the mistake. ``class_count`` takes the ids used from 0
without a gap; every row with an id above that is an *outlier*, named by file and line, for the user to see
before the data.yaml is written (the check then reports it as ``label-class-range``).
Nothing the user made is moved or deleted; existing list files or data.yaml are backed up first.
"""

from __future__ import annotations

import os
import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from core.atomic import atomic_write_text
from core.dataset.files import label_path_for
from core.dataset.images import is_image_name
from core.dataset.importers.coco import SPLIT_WORDS
from core.dataset.yaml_edit import format_scalar
from core.i18n import tr

Progress = Callable[[int, int], None]
#: a folder that names a split: the importers' split words (``valid`` → val), with a year as in ``train2017``
_SPLIT_FOLDER = re.compile(r"^(%s)\d*$" % "|".join(word for word, _ in SPLIT_WORDS))
MAX_OUTLIERS = 50  # rows listed (the check lists them all)


@dataclass
class Outlier:
    """A label row whose class id lies beyond the ids used from 0 without a gap."""

    file: str
    line: int
    class_id: int


@dataclass
class SplitPlan:
    folder: Path
    names: list[str]  # from classes.txt; empty when the user must name the classes
    train: list[str] = field(default_factory=list)
    val: list[str] = field(default_factory=list)
    test: list[str] = field(default_factory=list)
    unlabelled: int = 0
    #: images the folder already put in a split (by its folder names), per split; kept as they are
    kept: dict[str, int] = field(default_factory=dict)
    #: images in no split folder, split by the ratio
    free: int = 0
    #: the class count the labels support (ids 0 … n-1 all used), and the rows beyond it
    class_count: int = 0
    outliers: list[Outlier] = field(default_factory=list)
    outlier_rows: int = 0

    @property
    def suggested_names(self) -> list[str]:
        """What to offer the user when there is no classes.txt: one placeholder per class the labels support."""
        return self.names or [f"class{i}" for i in range(self.class_count)]


def split_of_folder(image: str, folder: Path) -> str | None:
    """The split an image's folder names (``images/val/x.jpg`` → val, ``valid/images/x.jpg`` → val), else None.

    Only folder names count, never the file's own name (``train_station.jpg`` says nothing), and the first
    split-named folder under ``folder`` decides."""
    try:
        parts = Path(image).relative_to(folder).parts[:-1]
    except ValueError:
        return None
    words = dict(SPLIT_WORDS)
    for part in parts:
        match = _SPLIT_FOLDER.match(part.lower())
        if match:
            return words[match.group(1)]
    return None


def class_count(counts: Counter[int]) -> int:
    """How many classes the ids support: 0 … n-1, each used, up to the first unused id."""
    n = 0
    while counts.get(n):
        n += 1
    return n


def discover(folder: Path) -> list[tuple[str, str | None]]:
    """(image, label or None) for every image under ``folder``, sorted, hidden folders skipped."""
    pairs = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if name.startswith(".") or not is_image_name(name):
                continue
            image = os.path.join(dirpath, name)
            label = label_path_for(image)
            pairs.append((image, label if os.path.isfile(label) else None))
    return pairs


def _classes(label: str | None) -> list[tuple[int, int]]:
    """(line, class id) of each row of a label file."""
    if label is None:
        return []
    from core.dataset.label_file import read_label_file

    found = read_label_file(label)  # bounded, and never a blocking read of a pipe
    if found.data is None:
        return []
    text = found.data.decode("utf-8-sig", errors="replace")
    ids = []
    for line_no, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        try:
            ids.append((line_no, int(float(parts[0]))))
        except (IndexError, ValueError, OverflowError):
            continue
    return ids


def plan_split(folder: Path, val_ratio: float = 0.2, seed: int = 0, progress: Progress | None = None) -> SplitPlan:
    """Which image goes where: a split the folder's names give is kept; the others are split by ``val_ratio``."""
    folder = Path(folder).resolve()
    pairs = discover(folder)
    per_image = []
    counts: Counter[int] = Counter()
    rows: list[tuple[str, int, int]] = []
    for index, (image, label) in enumerate(pairs):
        found = _classes(label)
        ids = [cls for _, cls in found]
        per_image.append((image, ids))
        counts.update(set(ids))
        rows += [(label or "", line, cls) for line, cls in found]
        if progress and index % 200 == 0:
            progress(index, len(pairs))
    names = classes_txt_names(folder)
    plan = SplitPlan(folder, names, unlabelled=sum(1 for _, label in pairs if label is None),
                     class_count=len(names) or class_count(counts))
    beyond = [Outlier(file, line, cls) for file, line, cls in rows if not 0 <= cls < plan.class_count]
    plan.outliers, plan.outlier_rows = beyond[:MAX_OUTLIERS], len(beyond)
    named = [split_of_folder(image, folder) for image, _ in per_image]
    if not {"train", "val"} <= set(named):
        named = [None] * len(named)  # a train folder alone is no split to keep: val comes from the ratio
    free_images = []
    for (image, ids), split in zip(per_image, named):
        if split is None:
            free_images.append((image, ids))
        else:
            getattr(plan, split).append(image)
            plan.kept[split] = plan.kept.get(split, 0) + 1
    plan.free = len(free_images)
    groups: dict[int, list[str]] = defaultdict(list)
    for image, ids in free_images:
        key = min(set(ids), key=lambda c: (counts[c], c)) if ids else -1  # the rarest class it shows
        groups[key].append(image)
    rng = random.Random(seed)
    for key in sorted(groups):
        members = sorted(groups[key])
        rng.shuffle(members)
        n_val = round(len(members) * val_ratio)
        if n_val == 0 and val_ratio > 0 and len(members) >= 2:
            n_val = 1
        plan.val += members[:n_val]
        plan.train += members[n_val:]
    plan.train.sort()
    plan.val.sort()
    plan.test.sort()
    if progress:
        progress(len(pairs), len(pairs))
    return plan


def classes_txt_names(folder: Path) -> list[str]:
    """The names in a labelling tool's ``classes.txt`` (LabelImg writes one), else none."""
    for candidate in (folder / "classes.txt", folder / "labels" / "classes.txt"):
        if candidate.is_file():
            names = [n.strip() for n in candidate.read_text(encoding="utf-8-sig", errors="replace").splitlines()
                     if n.strip()]
            if names:
                return names
    return []


def write_split(plan: SplitPlan, yaml_name: str = "data.yaml", names: list[str] | None = None) -> Path:
    """Write ``train.txt``, ``val.txt`` (``test.txt`` when the folder has a test split) and the data.yaml into
    the folder (backups of any old ones); ``names`` are the user's, else the plan's suggestion."""
    folder = plan.folder
    names = list(names) if names else plan.suggested_names
    splits = [("train", plan.train), ("val", plan.val)] + ([("test", plan.test)] if plan.test else [])
    for split, images in splits:
        lines = ["./" + Path(os.path.relpath(i, folder)).as_posix() for i in images]
        atomic_write_text(folder / f"{split}.txt", "\n".join(lines) + "\n")
    flow = ", ".join(format_scalar(n, flow=True) for n in names)
    text = (tr("# Written by YOLO Studio from the folder's images and labels; edit freely.") + "\n"
            f"path: {format_scalar(str(folder))}\n"
            "train: train.txt\n"
            "val: val.txt\n"
            + ("test: test.txt\n" if plan.test else "")
            + f"nc: {len(names)}\n"
            f"names: [{flow}]\n")
    target = folder / yaml_name
    atomic_write_text(target, text)
    return target
