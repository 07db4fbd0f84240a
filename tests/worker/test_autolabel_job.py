"""The autolabel job in-process: the real image reading and NMS (only the model is a stand-in that finds one box
per image), a stop after an image, a second start that predicts only the rest, an unreadable image recorded and
not retried, and a second predictor on the same queue refused."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from core.kernel_lock import KernelLock
from core.labelling.plan import plan_queue, write_plan
from core.labelling.records import PENDING, TO_REVIEW, UNREADABLE
from core.labelling.store import QueueFolder, fold_queue
from core.worker import autolabel_job
from core.worker.job import JobError
from tests.worker.test_weights_job import context


def _one_box(batch):
    """A model output (B, 1, 6+): one box at the centre of the 64 px letterbox, objectness 0.9, class 1."""
    out = np.zeros((len(batch), 1, 8), np.float32)
    out[:, 0, :4] = (32, 32, 20, 20)
    out[:, 0, 4] = 0.9
    out[:, 0, 6] = 1.0
    return out


@pytest.fixture
def queue(tmp_path, monkeypatch) -> QueueFolder:
    monkeypatch.setattr(autolabel_job, "load_runner", lambda path: (_one_box, {0: "cat", 1: "dog"}, 32, "stub"))
    images = tmp_path / "new"
    images.mkdir()
    for i in range(4):
        Image.new("RGB", (64, 48), (50 * i, 90, 90)).save(images / f"i{i}.png")
    (images / "i9.jpg").write_bytes(b"not a jpeg")
    plan = plan_queue(tmp_path / "ws", tmp_path / "ws" / "runs" / "exp", tmp_path / "best.pt", images, name="q")
    plan.header.imgsz = 64
    write_plan(plan)
    return plan.folder


def test_a_stop_keeps_whats_done_and_the_next_start_predicts_only_the_rest(tmp_path, queue) -> None:
    spec = {"queue": str(queue.path), "model": str(tmp_path / "best.pt")}
    seen = []

    def stop_after_two(event):
        seen.append(event)
        if event["type"] == "label_progress" and event["index"] == 2:
            ctx.control.stop_requested.set()

    ctx, _ = context(tmp_path / "ws", "autolabel", spec, on_event=stop_after_two)
    assert autolabel_job.run_autolabel(ctx) == "stopped"
    folded = fold_queue(queue)
    assert [folded.items[i].state for i in folded.header.images] == [TO_REVIEW, TO_REVIEW, PENDING, PENDING, PENDING]
    [box] = folded.items["i0.png"].boxes
    assert box.cls == "dog" and box.conf == pytest.approx(0.9) and (folded.items["i0.png"].width, box.x2) == (64, 42)

    ctx, stream = context(tmp_path / "ws", "autolabel", spec)
    assert autolabel_job.run_autolabel(ctx) == "completed"
    progress = [e for e in stream.events if e["type"] == "label_progress"]
    assert [(e["index"], e["image"]) for e in progress] == [(3, "i2.png"), (4, "i3.png"), (5, "i9.jpg")]
    assert [e["code"] for e in stream.events if e["type"] == "warning"] == ["unreadable-image"]
    assert ctx.done_fields == {"images": 2, "queue": "q"}
    folded = fold_queue(queue)
    assert folded.items["i9.jpg"].state == UNREADABLE and folded.pending() == []

    ctx, stream = context(tmp_path / "ws", "autolabel", spec)  # nothing left: the unreadable one is not retried
    assert autolabel_job.run_autolabel(ctx) == "completed"
    assert not [e for e in stream.events if e["type"] == "label_progress"]


def test_a_second_predictor_on_the_same_queue_is_refused(tmp_path, queue) -> None:
    ctx, _ = context(tmp_path / "ws", "autolabel", {"queue": str(queue.path), "model": str(tmp_path / "best.pt")})
    with KernelLock(queue.lock):
        with pytest.raises(JobError) as refused:
            autolabel_job.run_autolabel(ctx)
    assert "being filled" in refused.value.message
    assert fold_queue(queue).pending() == ["i0.png", "i1.png", "i2.png", "i3.png", "i9.jpg"]
