"""The Label page's review of a queue driven by its keys, then its "Add reviewed to dataset": nothing enters the
dataset before the add; the add writes the reviewed images' accepted rows and the provenance sidecar; a rejected
box or image leaves no trace; a class the dataset lacks is refused in words before any write. Retrain on the Train
page builds ``TrainDoor(from_run=…)``. The queue is written as the autolabel worker writes it (the worker itself:
tests/worker/test_autolabel_job.py, tests/e2e/test_label_e2e.py)."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt

from core.labelling.provenance import origins_of, sidecar_path
from core.labelling.records import ACCEPTED, IMAGE_REJECTED, PROPOSED, REJECTED, REVIEWED, TO_REVIEW
from core.boxedit.queue_session import QueueSession
from core.labelling.store import open_queue
from gui.label.label_page import LabelPage
from tests.core.test_labelling_accept import _setup, _tree
from tests.waits import TIMEOUT_MS


def _page(qtbot, ws: Path, data: Path) -> LabelPage:
    page = LabelPage(ws)
    qtbot.addWidget(page)
    page.resize(1280, 720)
    page.show()
    page.set_dataset(str(data))
    qtbot.waitUntil(lambda: page.bar.split_box.currentText() == "train", timeout=TIMEOUT_MS)
    page.open_queue("q")
    qtbot.waitUntil(lambda: isinstance(page.editor.session, QueueSession), timeout=TIMEOUT_MS)
    return page


def _on(qtbot, page: LabelPage, image_id: str) -> None:
    qtbot.waitUntil(lambda: isinstance(page.editor.session, QueueSession) and page.editor.session.image_id == image_id,
                    timeout=TIMEOUT_MS)


def test_review_by_keys_then_add_writes_only_what_was_accepted(qtbot, tmp_path) -> None:
    data, ws = _setup(tmp_path)
    before = _tree(data.parent)
    page = _page(qtbot, ws, data)
    assert [i.id for i in page.opened.items] == ["b.jpg", "a.jpg", "c.jpg", "d.jpg"]  # least certain first
    assert "0.30" in page.rows[0].reason  # the reason shown: a box close to the threshold
    _on(qtbot, page, "b.jpg")
    assert len(page.editor.session.boxes) == 1  # the 0.1 proposal under the threshold is not shown
    qtbot.keyClick(page.editor, Qt.Key.Key_Return)  # accept the image as proposed
    _on(qtbot, page, "a.jpg")
    qtbot.keyClick(page.editor, Qt.Key.Key_Tab)  # the cat
    qtbot.keyClick(page.editor, Qt.Key.Key_Delete)  # reject that box
    qtbot.keyClick(page.editor, Qt.Key.Key_D)  # next: the decision written
    _on(qtbot, page, "c.jpg")
    qtbot.keyClick(page.editor, Qt.Key.Key_Delete)  # no box selected: the image rejected
    _on(qtbot, page, "d.jpg")
    assert _tree(data.parent) == before  # nothing entered the dataset yet
    queue = open_queue(ws, "q")
    assert queue.item("b.jpg").state == REVIEWED and queue.item("b.jpg").boxes[0].state == ACCEPTED
    a = queue.item("a.jpg")
    assert a.state == REVIEWED and [b.state for b in a.boxes] == [PROPOSED, REJECTED]
    assert queue.item("c.jpg").state == IMAGE_REJECTED and queue.item("d.jpg").state == TO_REVIEW
    assert page.bar.add_button.isEnabled()

    page.bar.add_button.click()
    qtbot.waitUntil(lambda: "Added 2 images" in page.banner.text, timeout=TIMEOUT_MS)
    added = data.parent / "images" / "train" / "q"
    assert sorted(p.name for p in added.iterdir()) == ["a.jpg", "b.jpg"]  # d was not reviewed: not added
    label_a = data.parent / "labels" / "train" / "q" / "a.txt"
    assert label_a.read_text() == "1 0.650000 0.500000 0.200000 0.666667\n"  # the dog only: the cat was rejected
    assert (data.parent / "labels" / "train" / "q" / "b.txt").read_text().split()[0] == "1"
    assert sidecar_path(data.parent).is_file()
    assert origins_of(data.parent, label_a) == ["model-proposed"]
    assert not [p for p in data.parent.rglob("c.*")]  # the rejected image: no trace
    assert json.loads(sidecar_path(data.parent).read_text())  # a record, not an empty file


def test_a_class_the_dataset_lacks_is_refused_in_words_before_any_write(qtbot, tmp_path) -> None:
    data, ws = _setup(tmp_path, names=("cat", "bird"))
    before = _tree(data.parent)
    page = _page(qtbot, ws, data)
    qtbot.keyClick(page.editor, Qt.Key.Key_Return)  # b: a dog
    _on(qtbot, page, "a.jpg")
    page.bar.add_button.click()
    qtbot.waitUntil(lambda: "no class" in page.banner.text, timeout=TIMEOUT_MS)
    assert "'dog'" in page.banner.text and _tree(data.parent) == before


def test_retrain_fine_tunes_the_queues_run_through_the_train_pages_door(qtbot, tmp_path, fake_worker) -> None:
    """Retrain = the Train page's fine-tune: the form takes the run's options with its best.pt, Start goes through
    ``TrainDoor(from_run=…)``, and the new run's spec names its parent (what its dataset version compares with)."""
    from core.training.config import MachineFacts
    from gui.pages.page import AppServices
    from gui.runs_store import RunsStore
    from gui.train.train_page import TrainPage
    from tests.cli.test_train_from import parent_run
    from tests.gui.test_train_page import FakeLauncher

    from tests.core.test_dataset_validate import build

    run, _ = parent_run(tmp_path)
    config = json.loads((run / "config.json").read_text())
    config["spec"]["config"]["data"] = str(build(tmp_path / "checked"))  # a dataset that passes the check
    (run / "config.json").write_text(json.dumps(config))
    launcher = FakeLauncher(fake_worker)
    train = TrainPage(tmp_path / "ws", launcher=launcher, prepare_demo=False, machine_facts=MachineFacts(gpu_count=0))
    qtbot.addWidget(train)
    label = LabelPage(tmp_path / "ws")
    qtbot.addWidget(label)
    label.bind(AppServices(RunsStore(tmp_path / "ws", label), fine_tune=train.control.fine_tune))
    qtbot.waitUntil(lambda: label.bar.run_box.count() == 1, timeout=TIMEOUT_MS)  # exp: it has a best.pt
    assert label.bar.retrain_button.isEnabled()
    label.bar.retrain_button.click()
    best = str(run / "weights" / "best.pt")
    assert train.form.editors["model"].value() == best
    if not launcher.spec_files:  # the dataset was still being checked: Start once it passed
        qtbot.waitUntil(train.start_button.isEnabled, timeout=TIMEOUT_MS)
        train.start_button.click()
    qtbot.waitUntil(lambda: bool(launcher.spec_files), timeout=TIMEOUT_MS)
    spec = json.loads(launcher.spec_files[-1].read_text(encoding="utf-8"))
    assert spec["from_run"] == str(run.resolve()) and spec["config"]["model"] == best
    assert Path(spec["run_dir"]).name == "exp-ft"
    if train.active:
        train.session.kill()
        qtbot.waitUntil(lambda: not train.active, timeout=TIMEOUT_MS)


def test_auto_label_runs_the_door_with_progress_and_cancel(qtbot, tmp_path, fake_worker) -> None:
    """Auto-label from the page: the door (``AutoLabelDoor``: the run's best.pt, the folder's images, a new queue)
    started by the page's JobRunner; ``label_progress`` moves the bar; Cancel is the protocol's stop. The worker
    is the fake replaying an autolabel stream (the real one: tests/e2e/test_label_e2e.py)."""
    import os

    from PIL import Image

    from tests.cli.test_train_from import parent_run

    run, _ = parent_run(tmp_path)
    new = tmp_path / "new"
    new.mkdir()
    for i in range(3):
        Image.new("RGB", (40, 30), (60 * i, 90, 90)).save(new / f"n{i}.png")
    stream = tmp_path / "autolabel_events.jsonl"
    events = [{"type": "stage", "stage": "predicting", "backend": "stub", "imgsz": 96, "images": 3}]
    events += [{"type": "label_progress", "index": i + 1, "count": 3, "image": f"n{i}.png", "proposed": 1}
               for i in range(3)]
    events.append({"type": "done", "status": "completed", "images": 3, "queue": "exp-new"})
    stream.write_text("".join(json.dumps({"v": 1, "t": 0.0, **e}) + "\n" for e in events))
    specs: list[dict] = []
    options: list[str] = []

    def launcher(job):
        specs.append(dict(job.spec))
        return fake_worker(*options, events=stream), dict(os.environ)

    page = LabelPage(tmp_path / "ws", launcher=launcher)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: page.bar.run_box.count() == 1, timeout=TIMEOUT_MS)
    page.images_dir = str(new)
    page._buttons()
    assert page.bar.auto_button.isEnabled()
    options[:] = ["--pause-after", "2"]  # the stage and the first image, then it waits for a stop
    page.bar.auto_button.click()
    qtbot.waitUntil(lambda: page.bar.progress.value() == 1, timeout=TIMEOUT_MS)
    assert specs[-1]["job"] == "autolabel" and specs[-1]["model"] == str((run / "weights" / "best.pt").resolve())
    assert (tmp_path / "ws" / "labelling" / "exp-new" / "queue.json").is_file()  # the door wrote the queue
    with qtbot.waitSignal(page.runner.ended, timeout=TIMEOUT_MS) as ended:
        page.bar.cancel_button.click()
    assert ended.args[0].status == "stopped" and "Stopped" in page.banner.text
    options[:] = []
    with qtbot.waitSignal(page.runner.ended, timeout=TIMEOUT_MS) as ended:
        page.bar.auto_button.click()  # again: the same door continues the queue
    assert ended.args[0].status == "completed" and "exp-new" in page.banner.text
    qtbot.waitUntil(lambda: page.bar.queue_box.currentText() == "exp-new", timeout=TIMEOUT_MS)


def test_a_rejected_image_can_be_taken_back_with_enter(qtbot, tmp_path) -> None:
    data, ws = _setup(tmp_path)
    page = _page(qtbot, ws, data)
    qtbot.keyClick(page.editor, Qt.Key.Key_Delete)  # b rejected, on to a
    _on(qtbot, page, "a.jpg")
    assert open_queue(ws, "q").item("b.jpg").state == IMAGE_REJECTED
    qtbot.keyClick(page.editor, Qt.Key.Key_A)  # back to b
    _on(qtbot, page, "b.jpg")
    qtbot.keyClick(page.editor, Qt.Key.Key_Return)  # a person's yes after all
    _on(qtbot, page, "a.jpg")
    assert open_queue(ws, "q").item("b.jpg").state == REVIEWED
    assert "reviewed" in page.rows[0].reason
