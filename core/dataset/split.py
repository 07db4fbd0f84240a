"""A new dataset from folders: find images and their labels, split train/val, write list files + data.yaml.

Accepts a flat folder (images with their ``.txt`` beside them), the ``images/`` + ``labels/`` layout,
and Roboflow-style exports (``train/images``, ``valid/labels`` …): pairing is yolov5's own rule, so what
is written here is exactly what training will pair. The split is deterministic (same folder, ratio and
seed → same lists) and stratified by each image's rarest class, so a rare class lands in val too.
Nothing the user made is moved or deleted; existing list files or data.yaml are backed up first.
"""

from __future__ import annotations

import os
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from core.atomic import atomic_write_text
from core.dataset.files import label_path_for
from core.dataset.images import is_image_name
from core.dataset.yaml_edit import format_scalar
from core.i18n import tr

Progress = Callable[[int, int], None]


@dataclass
class SplitPlan:
    folder: Path
    names: list[str]
    train: list[str] = field(default_factory=list)
    val: list[str] = field(default_factory=list)
    unlabelled: int = 0


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


def _classes(label: str | None) -> list[int]:
    if label is None:
        return []
    from core.dataset.label_file import read_label_file

    found = read_label_file(label)  # bounded, and never a blocking read of a pipe
    if found.data is None:
        return []
    text = found.data.decode("utf-8-sig", errors="replace")
    ids = []
    for line in text.splitlines():
        parts = line.split()
        try:
            ids.append(int(float(parts[0])))
        except (IndexError, ValueError):
            continue
    return ids


def plan_split(folder: Path, val_ratio: float = 0.2, seed: int = 0, progress: Progress | None = None) -> SplitPlan:
    folder = Path(folder).resolve()
    pairs = discover(folder)
    per_image = []
    counts: Counter[int] = Counter()
    for index, (image, label) in enumerate(pairs):
        ids = _classes(label)
        per_image.append((image, ids))
        counts.update(set(ids))
        if progress and index % 200 == 0:
            progress(index, len(pairs))
    groups: dict[int, list[str]] = defaultdict(list)
    for image, ids in per_image:
        key = min(set(ids), key=lambda c: (counts[c], c)) if ids else -1  # the rarest class it shows
        groups[key].append(image)
    plan = SplitPlan(folder, _names(folder, counts), unlabelled=sum(1 for _, label in pairs if label is None))
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
    if progress:
        progress(len(pairs), len(pairs))
    return plan


def _names(folder: Path, counts: Counter[int]) -> list[str]:
    """From a labelling tool's ``classes.txt`` when there is one, else ``class0`` … up to the largest id."""
    for candidate in (folder / "classes.txt", folder / "labels" / "classes.txt"):
        if candidate.is_file():
            names = [n.strip() for n in candidate.read_text(encoding="utf-8-sig", errors="replace").splitlines()
                     if n.strip()]
            if names:
                return names
    top = max(counts) if counts else 0
    return [f"class{i}" for i in range(top + 1)]


def write_split(plan: SplitPlan, yaml_name: str = "data.yaml") -> Path:
    """Write ``train.txt``, ``val.txt`` and the data.yaml into the folder (backups of any old ones)."""
    folder = plan.folder
    for split, images in (("train", plan.train), ("val", plan.val)):
        lines = ["./" + Path(os.path.relpath(i, folder)).as_posix() for i in images]
        atomic_write_text(folder / f"{split}.txt", "\n".join(lines) + "\n")
    names = ", ".join(format_scalar(n, flow=True) for n in plan.names)
    text = (tr("# Written by YOLO Studio from the folder's images and labels; edit freely.") + "\n"
            f"path: {format_scalar(str(folder))}\n"
            "train: train.txt\n"
            "val: val.txt\n"
            f"nc: {len(plan.names)}\n"
            f"names: [{names}]\n")
    target = folder / yaml_name
    atomic_write_text(target, text)
    return target
