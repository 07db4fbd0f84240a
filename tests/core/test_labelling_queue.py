"""The review queue on disk: folded from whole lines only, ordered least certain first, decisions last-wins,
and the provenance sidecar matched by line text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from core.labelling.plan import plan_queue, write_plan
from core.labelling.provenance import (MODEL_PROPOSED, PERSON_CONFIRMED, PERSON_DRAWN, LineOrigin, origin_of_box,
                                       origins_of, read_sidecar, record_labels, sidecar_path)
from core.labelling.records import (ACCEPTED, ADDED, EDITED, IMAGE_REJECTED, PENDING, PERSON, PROPOSED, REJECTED,
                                    REVIEWED, TO_REVIEW, UNREADABLE, Box, goes_in, yolo_row)
from core.labelling.store import (QueueError, QueueFolder, append, list_queues, open_queue, record_added,
                                  reject_image, save_image, set_box_state)


def _images(folder: Path, names: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        Image.new("RGB", (40, 30), "gray").save(folder / name)
    return folder


def _queue(tmp_path: Path, names=("a.jpg", "b.jpg", "c.jpg", "d.jpg")) -> QueueFolder:
    images = _images(tmp_path / "new", list(names))
    plan = plan_queue(tmp_path / "ws", tmp_path / "ws" / "runs" / "exp", tmp_path / "best.pt", images,
                      name="q", threshold=0.25)
    assert plan.problems == [] and plan.new_images == len(names)
    write_plan(plan)
    append(plan.folder.proposals, {"kind": "model", "names": {"0": "cat", "1": "dog"}})
    return plan.folder


def _propose(folder: QueueFolder, image_id: str, boxes: list[list[float]]) -> None:
    append(folder.proposals, {"kind": "image", "id": image_id, "width": 40, "height": 30, "boxes": boxes})


def test_a_new_queue_holds_the_folders_images_all_pending(tmp_path: Path) -> None:
    folder = _queue(tmp_path)
    queue = open_queue(tmp_path / "ws", "q")
    assert queue.pending() == ["a.jpg", "b.jpg", "c.jpg", "d.jpg"]
    assert {item.state for item in queue.items.values()} == {PENDING}
    assert queue.name == folder.name == "q"


def test_least_certain_first_with_the_reason(tmp_path: Path) -> None:
    folder = _queue(tmp_path)
    _propose(folder, "a.jpg", [[1, 1, 10, 10, 0.95, 0]])  # confident
    _propose(folder, "b.jpg", [[1, 1, 10, 10, 0.27, 1]])  # just above the threshold
    _propose(folder, "c.jpg", [])  # nothing found
    _propose(folder, "d.jpg", [[1, 1, 20, 20, 0.9, 0], [1, 1, 20, 21, 0.8, 1]])  # two classes on one object
    queue = open_queue(tmp_path / "ws", "q")
    order = [(item.id, item.reason) for item in queue.ordered()]
    assert order == [("d.jpg", "class-conflict"), ("b.jpg", "near-threshold"), ("c.jpg", "no-boxes"),
                     ("a.jpg", "confident")]
    assert "0.27" in queue.item("b.jpg").reason_text
    assert queue.item("d.jpg").boxes[1].cls == "dog" and queue.item("a.jpg").boxes[0].state == PROPOSED
    assert queue.pending() == []


def test_a_torn_line_is_skipped_and_the_image_predicted_again(tmp_path: Path) -> None:
    folder = _queue(tmp_path)
    _propose(folder, "a.jpg", [[1, 1, 10, 10, 0.9, 0]])
    with open(folder.proposals, "ab") as handle:  # a worker killed in the middle of b's line
        handle.write(b'{"kind": "image", "id": "b.jpg", "width": 40, "hei')
    queue = open_queue(tmp_path / "ws", "q")
    assert queue.pending() == ["b.jpg", "c.jpg", "d.jpg"]
    _propose(folder, "b.jpg", [[2, 2, 9, 9, 0.5, 1]])  # the next start ends the torn line first
    queue = open_queue(tmp_path / "ws", "q")
    assert queue.item("b.jpg").state == TO_REVIEW and queue.pending() == ["c.jpg", "d.jpg"]


def test_decisions_are_last_wins_and_undo_is_one_more_line(tmp_path: Path) -> None:
    folder = _queue(tmp_path)
    _propose(folder, "a.jpg", [[1, 1, 10, 10, 0.9, 0], [20, 5, 30, 25, 0.3, 1]])
    queue = open_queue(tmp_path / "ws", "q")
    set_box_state(queue, "a.jpg", 1, REJECTED)
    drawn = Box(2, 2, 8, 8, "dog", None, EDITED, PERSON)
    save_image(queue, "a.jpg", queue.item("a.jpg").boxes + [drawn], REVIEWED)
    again = open_queue(tmp_path / "ws", "q").item("a.jpg")
    assert again.state == REVIEWED and [b.state for b in again.boxes] == [PROPOSED, REJECTED, EDITED]
    assert again.boxes[2] == drawn
    save_image(queue, "a.jpg", open_queue(tmp_path / "ws", "q").item("a.jpg").boxes[:2], REVIEWED)  # undo
    assert len(open_queue(tmp_path / "ws", "q").item("a.jpg").boxes) == 2
    reject_image(queue, "a.jpg")
    assert open_queue(tmp_path / "ws", "q").item("a.jpg").state == IMAGE_REJECTED
    record_added(queue, "a.jpg", tmp_path / "data" / "a.jpg", tmp_path / "data.yaml")
    assert open_queue(tmp_path / "ws", "q").item("a.jpg").state == ADDED
    with pytest.raises(QueueError):
        save_image(queue, "a.jpg", [], REVIEWED)  # in a dataset already
    with pytest.raises(QueueError):
        save_image(queue, "b.jpg", [], REVIEWED)  # not predicted yet


def test_unreadable_images_and_listing(tmp_path: Path) -> None:
    folder = _queue(tmp_path)
    append(folder.proposals, {"kind": "image", "id": "c.jpg", "unreadable": "unreadable"})
    queue = open_queue(tmp_path / "ws", "q")
    assert [item.state for item in queue.ordered()] == [PENDING] * 3 + [UNREADABLE]
    assert [q.name for q in list_queues(tmp_path / "ws")] == ["q"]
    assert queue.counts()[PENDING] == 3
    (folder.path.parent / "junk").mkdir()
    assert [q.name for q in list_queues(tmp_path / "ws")] == ["q"]


def test_a_rerun_adds_new_images_and_refuses_another_run(tmp_path: Path) -> None:
    folder = _queue(tmp_path)
    _propose(folder, "a.jpg", [[1, 1, 10, 10, 0.9, 0]])
    _images(tmp_path / "new", ["e.png"])
    plan = plan_queue(tmp_path / "ws", tmp_path / "ws" / "runs" / "exp", tmp_path / "best.pt", tmp_path / "new",
                      name="q")
    assert plan.new_images == 1 and plan.header.images[-1] == "e.png"
    write_plan(plan)
    queue = open_queue(tmp_path / "ws", "q")
    assert queue.item("a.jpg").state == TO_REVIEW and queue.pending() == ["b.jpg", "c.jpg", "d.jpg", "e.png"]
    other = plan_queue(tmp_path / "ws", tmp_path / "ws" / "runs" / "exp2", tmp_path / "best.pt", tmp_path / "new",
                       name="q")
    assert other.problems and "exp" in other.problems[0][0]
    assert plan_queue(tmp_path / "ws", tmp_path / "r", tmp_path / "b.pt", tmp_path / "nowhere").problems
    assert plan_queue(tmp_path / "ws", tmp_path / "r", tmp_path / "b.pt", tmp_path / "new", name="../x").problems


def test_what_goes_in_and_its_row() -> None:
    assert goes_in(Box(0, 0, 1, 1, "a", 0.3), 0.25) and not goes_in(Box(0, 0, 1, 1, "a", 0.2), 0.25)
    assert goes_in(Box(0, 0, 1, 1, "a", 0.1, ACCEPTED), 0.25)
    assert not goes_in(Box(0, 0, 1, 1, "a", 0.9, REJECTED), 0.25)
    assert yolo_row(Box(10, 5, 30, 25, "a"), 2, 40, 30) == "2 0.500000 0.500000 0.500000 0.666667"
    assert yolo_row(Box(-5, 0, 50, 30, "a"), 0, 40, 30) == "0 0.500000 0.500000 1.000000 1.000000"
    assert origin_of_box(Box(0, 0, 1, 1, "a", 0.9)) == MODEL_PROPOSED
    assert origin_of_box(Box(0, 0, 1, 1, "a", 0.9, ACCEPTED)) == PERSON_CONFIRMED
    assert origin_of_box(Box(0, 0, 1, 1, "a", 0.9, EDITED)) == PERSON_DRAWN
    assert origin_of_box(Box(0, 0, 1, 1, "a", None, ACCEPTED, PERSON)) == PERSON_DRAWN


def test_the_sidecar_matches_lines_by_their_text(tmp_path: Path) -> None:
    label = tmp_path / "labels" / "train" / "a.txt"
    label.parent.mkdir(parents=True)
    label.write_text("0 0.5 0.5 0.2 0.2\n1 0.1 0.1 0.1 0.1\n", encoding="utf-8")
    record_labels(tmp_path, {label: [LineOrigin("0 0.5 0.5 0.2 0.2", MODEL_PROPOSED, 0.8, "exp", "q"),
                                     LineOrigin("1 0.1 0.1 0.1 0.1", PERSON_DRAWN)]})
    assert origins_of(tmp_path, label) == [MODEL_PROPOSED, PERSON_DRAWN]
    label.write_text("0 0.5 0.5 0.3 0.2\n1 0.1 0.1 0.1 0.1\n", encoding="utf-8")  # edited by hand since
    assert origins_of(tmp_path, label) == [None, PERSON_DRAWN]
    doc = json.loads(sidecar_path(tmp_path).read_text(encoding="utf-8"))
    assert list(doc["labels"]) == ["labels/train/a.txt"] and doc["version"] == 1
    sidecar_path(tmp_path).write_text("{broken", encoding="utf-8")
    assert read_sidecar(tmp_path) == {}
