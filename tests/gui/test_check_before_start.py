"""The Train page checks the dataset in the background before it says "Ready to train" (issue 11)."""

from __future__ import annotations

from core.training.config import MachineFacts
from gui.train.train_page import TrainPage
from tests.core.test_dataset_validate import BOX, build
from tests.waits import TIMEOUT_MS


def _page(qtbot, tmp_path, data) -> TrainPage:
    page = TrainPage(tmp_path / "ws", launcher=lambda job: ([], {}), prepare_demo=False,
                     machine_facts=MachineFacts(gpu_count=0))
    qtbot.addWidget(page)
    page.form.set_data_path(str(data))
    page.revalidate()
    return page


def test_an_error_that_stops_training_refuses_start_and_names_file_and_line(qtbot, tmp_path):
    data = build(tmp_path / "d", train={"t1": BOX, "t2": "4 0.5 0.5 0.2 0.2\n"})
    page = _page(qtbot, tmp_path, data)
    assert not page.start_button.isEnabled()
    assert any("Checking the dataset" in m for m in page.problems.messages)  # never "Ready" before the check
    qtbot.waitUntil(lambda: not page.options.checking_dataset, timeout=TIMEOUT_MS)
    assert not page.start_button.isEnabled() and page.control.start_run() is False
    assert any(m.startswith(f"{data.parent / 'labels' / 'train' / 't2.txt'}:1: Class id 4") for m in page.problems.messages)
    assert page.options.dataset_link.isVisibleTo(page) and not page.options.start_anyway.isVisibleTo(page)
    assert not (page.workspace / "runs").exists()
    shown: list[str] = []
    page.services.current.show_requested.connect(shown.append)
    page.options.dataset_link.linkActivated.emit("dataset")
    assert shown == ["dataset"] and page.services.current.dataset == str(data.resolve())
    (data.parent / "labels" / "train" / "t2.txt").write_text(BOX)  # fixed elsewhere; F5 checks again
    page.refresh()
    qtbot.waitUntil(page.start_button.isEnabled, timeout=TIMEOUT_MS)
    assert not page.options.dataset_link.isVisibleTo(page)


def test_images_yolov5_would_drop_can_be_started_anyway_knowingly(qtbot, tmp_path):
    data = build(tmp_path / "d", train={"t1": BOX, "t2": BOX, "t3": "0 0.5 0.5 0.2 1.7\n"})
    page = _page(qtbot, tmp_path, data)
    qtbot.waitUntil(lambda: not page.options.checking_dataset, timeout=TIMEOUT_MS)
    assert not page.start_button.isEnabled()
    assert "yolov5 would skip 1 image it cannot read." in page.problems.messages
    assert page.options.start_anyway.isVisibleTo(page)
    page.options.start_anyway.setChecked(True)
    assert page.start_button.isEnabled()
    assert any("t3.txt:1" in m for m in page.problems.messages)  # still listed, now as a warning


def _fix_text(page: TrainPage) -> str:
    [total] = [p for p in page.problems.problems if p.code == "dataset-check"]
    return total.fix


def test_the_fix_it_promises_is_the_one_fix_offers(qtbot, tmp_path):
    """The sentence under the check's errors comes from the fix catalogue Fix… reads (issue 25: it promised
    "several have one-click fixes" for errors that had none)."""
    fixable = build(tmp_path / "a", train={"t1": BOX, "t2": "4 0.5 0.5 0.2 0.2\n"})  # an impossible class id
    page = _page(qtbot, tmp_path, fixable)
    qtbot.waitUntil(lambda: not page.options.checking_dataset, timeout=TIMEOUT_MS)
    assert "Each has a one-click fix" in _fix_text(page)
    unfixable = build(tmp_path / "b", train={"t1": BOX, "t2": "0 nan 0.5 0.2 0.2\n"})  # a NaN: a person decides
    page.form.set_data_path(str(unfixable))
    page.revalidate()
    qtbot.waitUntil(lambda: not page.options.checking_dataset and "t2.txt" in " ".join(page.problems.messages),
                    timeout=TIMEOUT_MS)
    assert "None of them has an automatic fix" in _fix_text(page) and "one-click" not in _fix_text(page)
