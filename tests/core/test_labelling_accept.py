"""Accepting a review queue into a dataset: nothing enters before accept, classes by name, provenance recorded,
a re-run adds nothing twice, the dataset's own files are left alone, the check judges what was added."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from PIL import Image

from core.labelling.accept import AcceptRefused, accept_into
from core.labelling.plan import plan_queue, write_plan
from core.labelling.provenance import MODEL_PROPOSED, PERSON_CONFIRMED, PERSON_DRAWN, origins_of, sidecar_path
from core.labelling.records import ACCEPTED, ADDED, EDITED, PERSON, REJECTED, TO_REVIEW, Box
from core.labelling.store import append, open_queue, save_image, set_box_state
from tests.core.test_dataset_validate import build


def _tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _setup(tmp_path: Path, names=("cat", "dog")) -> tuple[Path, Path]:
    """A dataset with classes a, b renamed to ``names``, and a queue of four new images with proposals."""
    data = build(tmp_path / "data", yaml_text=None)
    data.write_text(data.read_text().replace("names: [a, b]", f"names: [{', '.join(names)}]"))
    new = tmp_path / "new"
    new.mkdir()
    for i, name in enumerate(("a.jpg", "b.jpg", "c.jpg", "d.jpg")):
        Image.new("RGB", (40, 30), (40 * i, 90, 200 - 30 * i)).save(new / name)
    ws = tmp_path / "ws"
    plan = plan_queue(ws, ws / "runs" / "exp3", ws / "runs" / "exp3" / "weights" / "best.pt", new, name="q")
    write_plan(plan)
    proposals = plan.folder.proposals
    append(proposals, {"kind": "model", "names": {"0": "cat", "1": "dog"}})
    for image_id, boxes in (("a.jpg", [[4, 3, 20, 15, 0.9, 0], [22, 5, 30, 25, 0.6, 1]]),
                            ("b.jpg", [[4, 3, 20, 15, 0.3, 1], [1, 1, 5, 5, 0.1, 0]]),
                            ("c.jpg", [[1, 1, 5, 5, 0.1, 0]]), ("d.jpg", [[0, 0, 40, 30, 0.8, 0]])):
        append(proposals, {"kind": "image", "id": image_id, "width": 40, "height": 30, "boxes": boxes})
    return data, ws


def test_nothing_enters_the_dataset_before_accept(tmp_path: Path) -> None:
    data, ws = _setup(tmp_path)
    before = _tree(data.parent)
    queue = open_queue(ws, "q")
    set_box_state(queue, "a.jpg", 0, ACCEPTED)
    save_image(queue, "b.jpg", [Box(1, 1, 9, 9, "dog", None, ACCEPTED, PERSON)])
    assert _tree(data.parent) == before


def test_accept_writes_images_labels_and_provenance(tmp_path: Path) -> None:
    data, ws = _setup(tmp_path)
    queue = open_queue(ws, "q")
    set_box_state(queue, "a.jpg", 0, ACCEPTED)  # a person's yes on the cat
    boxes = queue.item("b.jpg").boxes
    save_image(queue, "b.jpg", [Box(4, 3, 21, 15, "dog", 0.3, EDITED), boxes[1].with_state(REJECTED),
                                Box(30, 20, 38, 28, "cat", None, ACCEPTED, PERSON)])
    report = accept_into(queue, data, threshold=0.5, check_cache=tmp_path / "cache")
    assert sorted(a.id for a in report.added) == ["a.jpg", "b.jpg", "d.jpg"]
    assert [i for i, _ in report.skipped] == ["c.jpg"]  # nobody reviewed it and nothing reached 0.5
    train = data.parent / "images" / "train" / "q"
    assert (train / "a.jpg").read_bytes() == (tmp_path / "new" / "a.jpg").read_bytes()
    label_a = data.parent / "labels" / "train" / "q" / "a.txt"
    assert label_a.read_text() == "0 0.300000 0.300000 0.400000 0.400000\n1 0.650000 0.500000 0.200000 0.666667\n"
    assert origins_of(data.parent, label_a) == [PERSON_CONFIRMED, MODEL_PROPOSED]
    label_b = data.parent / "labels" / "train" / "q" / "b.txt"
    assert [r.split()[0] for r in label_b.read_text().splitlines()] == ["1", "0"]
    assert origins_of(data.parent, label_b) == [PERSON_DRAWN, PERSON_DRAWN]
    assert sidecar_path(data.parent).is_file()
    again = open_queue(ws, "q")
    assert again.item("a.jpg").state == ADDED and again.item("c.jpg").state == TO_REVIEW
    assert report.findings == []  # the added files pass the check
    assert accept_into(again, data).added == []  # nothing twice


def test_a_class_the_dataset_lacks_refuses_before_anything_is_written(tmp_path: Path) -> None:
    data, ws = _setup(tmp_path, names=("cat", "bird"))
    before = _tree(data.parent)
    with pytest.raises(AcceptRefused) as refused:
        accept_into(open_queue(ws, "q"), data, threshold=0.5)
    assert "'dog'" in refused.value.message and "bird" in refused.value.message
    assert _tree(data.parent) == before
    with pytest.raises(AcceptRefused):
        accept_into(open_queue(ws, "q"), data, split="test")  # no such split
    assert accept_into(open_queue(ws, "q"), data, threshold=0.7, check=False).added  # only cats at 0.7


def test_the_datasets_own_file_is_left_alone(tmp_path: Path) -> None:
    data, ws = _setup(tmp_path)
    own = data.parent / "images" / "train" / "q" / "d.jpg"
    own.parent.mkdir()
    own.write_bytes(b"the user's own d.jpg")
    report = accept_into(open_queue(ws, "q"), data, check=False)
    assert own.read_bytes() == b"the user's own d.jpg" and "d.jpg" in dict(report.skipped)
    assert open_queue(ws, "q").item("d.jpg").state == TO_REVIEW


def test_a_list_split_gets_its_line_and_the_check_judges_the_added(tmp_path: Path) -> None:
    data, ws = _setup(tmp_path)
    (data.parent / "train.txt").write_text("./images/train/t1.png\n./images/train/t2.png\n")
    data.write_text(data.read_text().replace("train: images/train", "train: train.txt"))
    (tmp_path / "new" / "d.jpg").write_bytes(b"not a picture any more")  # broken after it was predicted
    report = accept_into(open_queue(ws, "q"), data, threshold=0.5, check_cache=tmp_path / "cache")
    listed = (data.parent / "train.txt").read_text().splitlines()
    assert listed[2:] == ["./images/train/q/a.jpg", "./images/train/q/d.jpg"]
    assert (data.parent / "train.txt.bak").is_file()
    assert any(f.file.endswith("d.jpg") and f.severity == "error" for f in report.findings)


def test_accepting_one_image_the_label_pages_way(tmp_path: Path) -> None:
    data, ws = _setup(tmp_path)
    queue = open_queue(ws, "q")
    report = accept_into(queue, data, image_ids=["d.jpg"], check=False)
    assert [a.id for a in report.added] == ["d.jpg"] and report.skipped == []
    assert queue.item("d.jpg").state == ADDED and queue.item("a.jpg").state == TO_REVIEW
    again = accept_into(queue, data, image_ids=["d.jpg"], check=False)
    assert again.added == [] and [i for i, _ in again.skipped] == ["d.jpg"]  # in the dataset already
