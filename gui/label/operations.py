"""The Label page's core calls for the labelling loop, each a ``CoreOp`` off the GUI thread: the auto-label door's
pre-flight (it searches the images folder), a queue read and ordered (10,000 images: ~0.5 s, bench/queue_fold.py),
the workspace's queues, a person's decision on one image, and the accept into a dataset — the same
``core.labelling.accept.accept_into`` ``yolostudio label accept`` calls."""

from __future__ import annotations

import gc
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject

from core.boxedit.review import ReviewRow
from core.dataset.data_yaml import read_data_yaml
from core.labelling.accept import AcceptReport, accept_into
from core.labelling.records import ADDED, IMAGE_REJECTED, PENDING, REVIEWED, TO_REVIEW, UNREADABLE, ImageItem
from core.boxedit.queue_session import QueueSession, queue_class_names
from core.labelling.store import Queue, list_queues, open_queue
from core.usecases.label import AutoLabelDoor
from core.workspace import app_cache_dir
from gui.operations import CoreOp


def _tr(text: str) -> str:
    return QCoreApplication.translate("LabelPage", text)


def state_words(state: str) -> str:
    """An image's queue state in the reader's language."""
    return {TO_REVIEW: _tr("to review"), REVIEWED: _tr("reviewed"), IMAGE_REJECTED: _tr("rejected"),
            ADDED: _tr("added"), UNREADABLE: _tr("unreadable"), PENDING: _tr("not predicted yet")}.get(state, state)


def class_names_of(queue: Queue) -> list[str]:
    """The editor's class numbers for a queue: the model's classes, then other names its boxes carry."""
    return queue_class_names(queue)


def row_of(item: ImageItem) -> ReviewRow:
    """The list's row for a queue image: its state, then why it needs a person (``ImageItem.reason_text``)."""
    reason = item.reason_text
    return ReviewRow(item.path, item.uncertainty, f"{state_words(item.state)} · {reason}" if reason else
                     state_words(item.state), len(item.boxes))


@dataclass
class OpenedQueue:
    queue: Queue
    items: list[ImageItem]  # in review order: least certain first
    rows: list[ReviewRow]


def _opened(queue: Queue) -> OpenedQueue:
    items = queue.ordered()
    return OpenedQueue(queue, items, [row_of(i) for i in items])


def _read_without_collections(workspace: Path, name: str) -> OpenedQueue:
    """Queue ``name`` read with Python's cyclic garbage collector paused, its objects then frozen (``gc.freeze``).

    Why: a 10,000-image queue is ~100,000 objects; while they are made, the collector's full passes over every
    object hold the interpreter lock for 100-400 ms at a time, and the GUI thread waits for it (the window froze
    up to 463 ms in bench/label_queue_page.py). The queue's values hold no reference cycles, so reference counting
    frees them when the queue is closed; frozen, no later pass walks them again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _opened(open_queue(workspace, name))
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def read_queue(parent: QObject, workspace: Path, name: str) -> CoreOp[OpenedQueue]:
    """Queue ``name`` folded and ordered, with its rows (what most needs a person first)."""
    return CoreOp(parent, lambda: _read_without_collections(workspace, name),
                  what=_tr("Reading the review queue {name}").format(name=name))


def queue_names(parent: QObject, workspace: Path) -> CoreOp[list[str]]:
    """The workspace's review queues (``<workspace>/labelling/``), by name."""
    return CoreOp(parent, lambda: [q.name for q in list_queues(workspace)], what=_tr("Listing the review queues"))


def _preflighted(door: AutoLabelDoor) -> AutoLabelDoor:
    door.preflight()
    return door


def plan_autolabel(parent: QObject, run_dir: Path, images_dir: Path, workspace: Path, conf: float,
                   trust_weights: bool = False) -> CoreOp[AutoLabelDoor]:
    """The auto-label door (the one ``yolostudio label auto`` builds) and its pre-flight: the run's weights and
    their trust, the images searched, the queue."""
    return CoreOp(parent, lambda: _preflighted(AutoLabelDoor(run_dir, images_dir, workspace, conf=conf,
                                                             trust_weights=trust_weights)),
                  what=_tr("Checking the auto-label"))


def queue_session(queue: Queue, image_id: str, names: list[str]) -> QueueSession:
    """One queue image for the box editor (no I/O: its save is a decision appended to the queue)."""
    return QueueSession(queue, image_id, names)


def reviewing(session: object) -> bool:
    """The editor shows a queue image (not a label file of a folder)."""
    return isinstance(session, QueueSession)


def decide(parent: QObject, session: QueueSession, state: str) -> CoreOp[ImageItem]:
    """A person's decision on one image (reviewed or rejected) appended to the queue."""
    return CoreOp(parent, lambda: session.decide(state), what=_tr("Recording the decision"))


def splits_of(parent: QObject, data_yaml: str) -> CoreOp[list[str]]:
    """The splits a data.yaml names ([] when it cannot be read)."""
    def call() -> list[str]:
        spec = read_data_yaml(Path(data_yaml)).spec
        return list(spec.splits) if spec is not None else []

    return CoreOp(parent, call, what=_tr("Reading {path}").format(path=data_yaml))


def accept(parent: QObject, workspace: Path, queue: Queue, data_yaml: Path, split: str,
           image_ids: list[str]) -> CoreOp[AcceptReport]:
    """``image_ids`` of ``queue`` into ``data_yaml``'s ``split`` (``accept_into``: a missing class refuses before
    any write; the dataset check judges what was added)."""
    return CoreOp(parent, lambda: accept_into(queue, data_yaml, split=split, image_ids=image_ids,
                                              check_cache=app_cache_dir(workspace) / "dataset-check"),
                  what=_tr("Adding the reviewed images to {path}").format(path=data_yaml))
