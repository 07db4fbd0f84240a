"""Which images a new or resumed auto-label queue holds, and the refusals before any file is written.

The images of a folder are found by the dataset check's own rules (``core.dataset.files.list_split``: yolov5's
ten suffixes, a recursive search that skips hidden files, a folder bound), so the queue holds exactly what
yolov5 would train on once accepted. Running ``label auto`` again on a queue adds the folder's new images and
keeps every proposal and decision made; the images already predicted are not predicted again. A queue holds
one run's proposals: another run's go into a queue of their own (mixed, "least certain" would compare two
models' confidences).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from core.dataset.files import WalkLimits, list_split
from core.dataset.spec import SplitSpec
from core.i18n import tr
from core.labelling.store import QueueError, QueueFolder, QueueHeader, default_queue_name, read_header, write_header

#: A folder of new images is searched at most this far (``WalkLimits``: ``train: /`` must not search the disk).
MAX_FOLDERS = 20_000


@dataclass
class QueuePlan:
    """The queue an auto-label start will fill: its folder, its header as it will be written, and how many
    images are new to it."""

    folder: QueueFolder
    header: QueueHeader
    new_images: int = 0
    problems: list[tuple[str, str]] = field(default_factory=list)  # (message, hint)


def find_images(images_dir: Path) -> tuple[list[str], list[str]]:
    """The image ids under ``images_dir`` (relative, ``/``-separated, sorted) and the search's problems."""
    folder = Path(images_dir).expanduser().absolute()
    found = list_split(SplitSpec("images", [str(folder)], [folder], 0), "", limits=WalkLimits(MAX_FOLDERS))
    ids = sorted(Path(p).relative_to(folder).as_posix() for p in found.images)
    return ids, [f.message for f in found.findings if f.severity == "error"]


def plan_queue(workspace: Path, run_dir: Path, weights: Path, images_dir: Path, *, name: str | None = None,
               threshold: float = 0.25, imgsz: int = 640) -> QueuePlan:
    """The queue ``name`` (default ``<run>-<folder>``) for ``run_dir``'s ``weights`` on ``images_dir``:
    a new header, or the existing one with the folder's new images added. Nothing is written here
    (``write_plan`` does); what stops the start is in ``problems``."""
    images_dir = Path(images_dir).expanduser().absolute()
    name = name or default_queue_name(Path(run_dir).name, images_dir)
    try:
        folder = QueueFolder.of(workspace, name)
    except QueueError as exc:
        return QueuePlan(QueueFolder(Path(workspace)), QueueHeader(name, "", "", "", ""), 0, [(exc.message, "")])
    plan = QueuePlan(folder, QueueHeader(name, Path(run_dir).name, str(run_dir), str(weights), str(images_dir),
                                         threshold=threshold, imgsz=imgsz, created=time.time()))
    if not images_dir.is_dir():
        plan.problems.append((tr("{path} is not a folder of images.", path=images_dir),
                              tr("Give --images the folder that holds the new images.")))
        return plan
    ids, search_problems = find_images(images_dir)
    plan.problems += [(message, "") for message in search_problems]
    if folder.exists():
        try:
            old = read_header(folder)
        except QueueError as exc:
            plan.problems.append((exc.message, exc.hint))
            return plan
        if Path(old.run_dir).resolve() != Path(run_dir).resolve() or Path(old.images_dir) != images_dir:
            plan.problems.append((tr("Queue '{name}' holds proposals of run {run} for {folder}.", name=name,
                                     run=old.run, folder=old.images_dir),
                                  tr("Give another --name for a new queue.")))
            return plan
        known = set(old.images)
        new = [i for i in ids if i not in known]
        old.images = old.images + new
        old.weights, old.threshold, old.imgsz = str(weights), threshold, imgsz
        plan.header, plan.new_images = old, len(new)
        return plan
    if not ids:
        plan.problems.append((tr("{path} holds no image yolov5 can read (.jpg, .png, .bmp, .tif, .webp …).",
                                 path=images_dir), tr("Give --images the folder that holds the new images.")))
    plan.header.images, plan.new_images = ids, len(ids)
    return plan


def write_plan(plan: QueuePlan) -> None:
    """Create or extend the queue's header (atomically: a kill leaves the old header or the new one)."""
    write_header(plan.folder, plan.header)
