"""A queue image in the box editor (``core.boxedit.queue_session``): what is shown is what would go in, the edits
come back as the queue's boxes (confirmed, edited, rejected, the hidden ones kept), a decision is one line of
the queue and never a file of the dataset."""

from __future__ import annotations

from core.boxedit.queue_session import QueueSession, queue_class_names
from core.labelling.records import (ACCEPTED, EDITED, IMAGE_REJECTED, MODEL, PERSON, PROPOSED, REJECTED,
                                    REVIEWED)
from core.labelling.store import open_queue
from tests.core.test_labelling_accept import _setup, _tree


def test_shown_boxes_edits_and_the_decision_round_trip(tmp_path) -> None:
    data, ws = _setup(tmp_path)
    before = _tree(data.parent)
    queue = open_queue(ws, "q")
    names = queue_class_names(queue)
    assert names == ["cat", "dog"]
    session = QueueSession(queue, "a.jpg", names)  # cat 0.9, dog 0.6: both above the 0.25 threshold
    assert [(b.cls, b.origin, b.conf) for b in session.boxes] == [(0, "model", 0.9), (1, "model", 0.6)]
    assert not session.dirty and session.save() is None
    session.confirm(0)  # the cat as proposed
    session.set_rect(1, (20, 5, 30, 25))  # the dog moved
    session.add(0, (1, 1, 9, 9))  # a cat the model missed
    assert session.dirty
    item = session.save()
    assert item is not None and item.state == REVIEWED
    again = open_queue(ws, "q").item("a.jpg")
    assert [(b.cls, b.state, b.origin) for b in again.boxes] == [("cat", ACCEPTED, MODEL), ("dog", EDITED, MODEL),
                                                               ("cat", EDITED, PERSON)]
    assert (again.boxes[1].x1, again.boxes[1].x2, again.boxes[1].conf) == (20.0, 30.0, 0.6)

    a = QueueSession(open_queue(ws, "q"), "a.jpg", names)  # reopened: the person's boxes as they left them
    assert [x.origin for x in a.boxes] == ["confirmed", "person", "person"]
    a.set_class(2, 1)  # the drawn cat is a dog after all
    a.save()
    assert [(x.cls, x.state) for x in open_queue(ws, "q").item("a.jpg").boxes] == [
        ("cat", ACCEPTED), ("dog", EDITED), ("dog", EDITED)]

    b = QueueSession(open_queue(ws, "q"), "b.jpg", names)  # dog 0.3 shown; cat 0.1 under the threshold: hidden
    assert [(x.cls, x.conf) for x in b.boxes] == [(1, 0.3)]
    b.delete(0)
    b.save()
    kept = open_queue(ws, "q").item("b.jpg").boxes
    assert [(x.cls, x.state) for x in kept] == [("dog", REJECTED), ("cat", PROPOSED)]  # the refusal remembered

    d = QueueSession(open_queue(ws, "q"), "d.jpg", names)
    d.decide(IMAGE_REJECTED)  # nothing changed, still a decision
    assert open_queue(ws, "q").item("d.jpg").state == IMAGE_REJECTED
    assert _tree(data.parent) == before  # nothing of it in the dataset
