"""A review queue on disk: ``<workspace>/labelling/<name>/``, written so that a killed process never spoils it.

Layout (``QueueFolder`` alone spells it):

- ``queue.json`` — the header, replaced atomically (``core.atomic``): the run and weights the proposals come
  from, the images folder, every image id in the order found (an id is the image's path relative to that
  folder, ``/``-separated), the confidence threshold, the image size.
- ``proposals.jsonl`` — appended by the auto-label worker only: one ``{"kind": "model", "names": {...}}`` line
  per worker start, then one whole line per image predicted (``{"kind": "image", "id", "width", "height",
  "boxes": [[x1, y1, x2, y2, conf, class index], ...]}`` or ``{"kind": "image", "id", "unreadable": why}``).
- ``reviews.jsonl`` — appended by the faces (Label page, ``yolostudio label accept``): one whole line per
  decision, each the image's full box list and state after it (``{"id", "state", "boxes": [Box.to_list()]}``),
  or ``{"id", "added_as", "dataset"}`` once the image is in a dataset. The last line of an image wins, so an
  undo is one more line.
- ``worker.lock`` — held (kernel lock) by the auto-label worker for its life: one predictor per queue.

Why append-only lines: an image's line is written whole or not at all (``core.job.protocol.append_line``); a
process killed mid-line leaves a torn tail that readers skip and the next writer ends first
(``open_lines_for_append``), so the queue is always the images whose lines are whole — the killed worker's
next start redoes only the image it was writing. Appending costs the same at image 10,000 as at image 1, and
two writers (the worker, a face) never rewrite each other's file.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from core.atomic import atomic_write_text
from core.i18n import tr
from core.job.protocol import append_line, open_lines_for_append
from core.labelling.records import (ADDED, IMAGE_REJECTED, IMAGE_STATES, KEEP_FLOOR, MODEL, PENDING, PROPOSED,
                                    REVIEWED, TO_REVIEW, UNREADABLE, Box, ImageItem, rank, review_order)

FORMAT_VERSION = 1
LABELLING_DIR = "labelling"
HEADER_FILE = "queue.json"
PROPOSALS_FILE = "proposals.jsonl"
REVIEWS_FILE = "reviews.jsonl"
LOCK_FILE = "worker.lock"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


class QueueError(ValueError):
    """A queue that cannot be opened or changed as asked: the words name the queue and a way out."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message, self.hint = message, hint


def queues_dir(workspace: Path) -> Path:
    return Path(workspace) / LABELLING_DIR


def queue_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a queue folder (None when it can): letters, digits, ``.``, ``_``, ``-``."""
    if _NAME.match(name or "") and name not in (".", ".."):
        return None
    return tr("'{name}' cannot name a review queue: use letters, digits, '.', '_' or '-' (at most 64).", name=name)


def default_queue_name(run_name: str, images_dir: Path) -> str:
    """``<run>-<images folder>``, made safe for a folder name."""
    raw = f"{run_name}-{Path(images_dir).name}"
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", raw).strip("._-")[:64]
    return safe or "queue"


@dataclass(frozen=True)
class QueueFolder:
    """A queue folder's layout (no I/O to make one)."""

    path: Path

    @classmethod
    def of(cls, workspace: Path, name: str) -> QueueFolder:
        problem = queue_name_problem(name)
        if problem:
            raise QueueError(problem)
        return cls(queues_dir(workspace) / name)

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def header(self) -> Path:
        return self.path / HEADER_FILE

    @property
    def proposals(self) -> Path:
        return self.path / PROPOSALS_FILE

    @property
    def reviews(self) -> Path:
        return self.path / REVIEWS_FILE

    @property
    def lock(self) -> Path:
        return self.path / LOCK_FILE

    def exists(self) -> bool:
        return self.header.is_file()


@dataclass
class QueueHeader:
    """``queue.json``: what the queue's proposals come from and which images it holds."""

    name: str
    run: str  # the run's name
    run_dir: str
    weights: str  # the checkpoint that proposed (the run's best.pt)
    images_dir: str
    images: list[str] = field(default_factory=list)  # ids, in the order found
    threshold: float = 0.25  # confidence at which a model box is proposed
    imgsz: int = 640
    created: float = 0.0
    version: int = FORMAT_VERSION

    @property
    def keep_floor(self) -> float:
        """Boxes under this confidence are not kept (the predictor's own threshold)."""
        return min(KEEP_FLOOR, self.threshold)

    def path_of(self, image_id: str) -> Path:
        return Path(self.images_dir) / image_id

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, doc: Any, where: Path) -> QueueHeader:
        try:
            if not isinstance(doc, dict) or doc.get("version") != FORMAT_VERSION:
                raise ValueError("version")
            header = cls(**{k: doc[k] for k in cls.__dataclass_fields__ if k in doc})
            if not all(isinstance(i, str) for i in header.images) or not 0.0 < float(header.threshold) <= 1.0:
                raise ValueError("images")
            header.threshold = float(header.threshold)
            return header
        except (TypeError, ValueError, KeyError) as exc:
            raise QueueError(tr("{path} is not a review queue this app can read ({reason}).", path=where,
                                reason=exc), tr("Start the queue again with 'yolostudio label auto'.")) from exc


def write_header(folder: QueueFolder, header: QueueHeader) -> None:
    """Create or replace ``queue.json`` atomically (the folder is the app's, so no backup)."""
    folder.path.mkdir(parents=True, exist_ok=True)
    atomic_write_text(folder.header, json.dumps(header.to_dict(), indent=1, ensure_ascii=False) + "\n",
                      backup=False)


def read_header(folder: QueueFolder) -> QueueHeader:
    if not folder.exists():
        raise QueueError(tr("No review queue named '{name}' (looked in {path}).", name=folder.name,
                            path=folder.path), tr("List the queues with 'yolostudio label queue'."))
    try:
        doc = json.loads(folder.header.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise QueueError(tr("{path} cannot be read: {reason}", path=folder.header, reason=exc)) from exc
    return QueueHeader.from_dict(doc, folder.header)


def read_lines(path: Path) -> Iterator[dict[str, Any]]:
    """The whole JSON object lines of an append-only file; a torn or foreign line is skipped."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return
    for line in raw.split(b"\n"):
        if not line.strip():
            continue
        try:
            doc = json.loads(line)
        except ValueError:
            continue
        if isinstance(doc, dict):
            yield doc


def append(path: Path, doc: dict[str, Any]) -> None:
    """Append one whole line to ``path`` (or nothing, on a full disk: the OSError is raised)."""
    line = (json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    with open_lines_for_append(path) as handle:
        append_line(handle, line)


@dataclass
class Queue:
    """A queue folded from its files: the header and one ``ImageItem`` per image."""

    folder: QueueFolder
    header: QueueHeader
    items: dict[str, ImageItem]
    names: dict[int, str] = field(default_factory=dict)  # the model's classes

    @property
    def name(self) -> str:
        return self.folder.name

    def ordered(self) -> list[ImageItem]:
        """What most needs a person first (``records.review_order``)."""
        return review_order(list(self.items.values()))

    def pending(self) -> list[str]:
        """Ids not predicted yet, in the header's order (what an auto-label start still has to do)."""
        return [i for i in self.header.images if self.items[i].state == PENDING]

    def counts(self) -> dict[str, int]:
        found = {state: 0 for state in IMAGE_STATES}
        for item in self.items.values():
            found[item.state] += 1
        return found

    def item(self, image_id: str) -> ImageItem:
        try:
            return self.items[image_id]
        except KeyError:
            raise QueueError(tr("Queue '{name}' has no image '{id}'.", name=self.name, id=image_id)) from None


def fold_queue(folder: QueueFolder) -> Queue:
    """Read a queue: the header, then the proposals, then the reviews (the last line of an image wins)."""
    header = read_header(folder)
    base = os.path.join(header.images_dir, "")
    items = {i: ImageItem(i, os.path.normpath(base + i)) for i in header.images}
    names: dict[int, str] = {}
    for doc in read_lines(folder.proposals):
        if doc.get("kind") == "model" and isinstance(doc.get("names"), dict):
            names = {int(k): str(v) for k, v in doc["names"].items()}
        elif doc.get("kind") == "image" and doc.get("id") in items:
            _fold_proposal(items[doc["id"]], doc, names, header.threshold)
    for doc in read_lines(folder.reviews):
        item = items.get(doc.get("id"))  # type: ignore[arg-type]
        if item is None or item.state in (PENDING, UNREADABLE):
            continue
        if isinstance(doc.get("added_as"), str):
            item.state, item.added_as = ADDED, doc["added_as"]
        elif doc.get("state") in (TO_REVIEW, REVIEWED, IMAGE_REJECTED) and isinstance(doc.get("boxes"), list):
            try:
                item.boxes = [Box.from_list(b) for b in doc["boxes"]]
            except (TypeError, ValueError):
                continue
            item.state = doc["state"]
    return Queue(folder, header, items, names)


def _fold_proposal(item: ImageItem, doc: dict[str, Any], names: dict[int, str], threshold: float) -> None:
    if isinstance(doc.get("unreadable"), str):
        item.state, item.problem, item.boxes = UNREADABLE, doc["unreadable"], []
    else:
        try:
            item.width, item.height = int(doc["width"]), int(doc["height"])
            item.boxes = [Box(float(x1), float(y1), float(x2), float(y2), names.get(int(c), str(int(c))),
                              float(conf), PROPOSED, MODEL) for x1, y1, x2, y2, conf, c in doc["boxes"]]
        except (KeyError, TypeError, ValueError):
            return  # a line this version cannot read: the image stays pending and is predicted again
        item.state = TO_REVIEW
    rank(item, threshold)


def open_queue(workspace: Path, name: str) -> Queue:
    """The queue ``name`` of ``workspace`` (``QueueError`` when there is none or it cannot be read)."""
    return fold_queue(QueueFolder.of(workspace, name))


def list_queues(workspace: Path) -> list[Queue]:
    """Every readable queue of the workspace, by name (a folder that is not one is left out)."""
    root = queues_dir(workspace)
    found = []
    for path in sorted(root.iterdir()) if root.is_dir() else []:
        if path.is_dir() and queue_name_problem(path.name) is None and (path / HEADER_FILE).is_file():
            try:
                found.append(fold_queue(QueueFolder(path)))
            except QueueError:
                continue
    return found


# -- what the faces write ------------------------------------------------------------------------------

def save_image(queue: Queue, image_id: str, boxes: list[Box], state: str = REVIEWED) -> ImageItem:
    """Record a person's decision on one image: its whole box list and state (``REVIEWED``, ``TO_REVIEW`` to
    undo back to untouched, ``IMAGE_REJECTED``). One line appended; ``queue`` is updated in place."""
    item = queue.item(image_id)
    if item.state in (PENDING, UNREADABLE, ADDED):
        raise QueueError(tr("Image '{id}' of queue '{name}' is {state}: it cannot be reviewed.", id=image_id,
                            name=queue.name, state=item.state))
    if state not in (TO_REVIEW, REVIEWED, IMAGE_REJECTED):
        raise ValueError(state)
    append(queue.folder.reviews, {"t": time.time(), "id": image_id, "state": state,
                                  "boxes": [b.to_list() for b in boxes]})
    item.boxes, item.state = list(boxes), state
    return item


def set_box_state(queue: Queue, image_id: str, index: int, state: str) -> ImageItem:
    """Accept, reject (or reset to proposed) box ``index`` of an image; the image becomes reviewed."""
    item = queue.item(image_id)
    boxes = list(item.boxes)
    boxes[index] = boxes[index].with_state(state)
    return save_image(queue, image_id, boxes, REVIEWED)


def reject_image(queue: Queue, image_id: str) -> ImageItem:
    item = queue.item(image_id)
    return save_image(queue, image_id, item.boxes, IMAGE_REJECTED)


def record_added(queue: Queue, image_id: str, added_as: Path, dataset: Path) -> None:
    """The image is in a dataset now (``core.labelling.accept``): it leaves the review."""
    append(queue.folder.reviews, {"t": time.time(), "id": image_id, "added_as": str(added_as),
                                  "dataset": str(dataset)})
    item = queue.item(image_id)
    item.state, item.added_as = ADDED, str(added_as)
