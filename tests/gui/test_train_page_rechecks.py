"""The Train page's options stay true to what they describe (issue 25, Train page): a training run's own options,
no leftovers after re-attaching, a check that follows a save on the Dataset page, and a "Start anyway" that is
kept (or cleared with a word)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel

from core.job.jobs import JobSpec
from core.job.protocol import read_events
from core.run.files import EVENTS_FILE
from core.runs.store import create_run, read_run
from core.training.config import MachineFacts, TrainConfig, validate_config
from gui.main_window import MainWindow
from gui.pages.catalog import page_index
from gui.train.train_page import TrainPage
from tests.core.test_dataset_validate import BOX, build
from tests.waits import TIMEOUT_MS


class Launcher:
    def __init__(self, fake_worker) -> None:
        self.fake_worker = fake_worker
        self.options: list[str] = []

    def __call__(self, job: JobSpec) -> tuple[list[str], dict[str, str]]:
        return self.fake_worker("--events-out", str(job.path.parent / EVENTS_FILE), *self.options), dict(os.environ)


def _page(qtbot, tmp_path, fake_worker, *, prepare_demo: bool = False) -> TrainPage:
    page = TrainPage(tmp_path / "ws", launcher=Launcher(fake_worker), prepare_demo=prepare_demo,
                     machine_facts=MachineFacts(gpu_count=0))
    qtbot.addWidget(page)
    return page


def _ready_row(page: TrainPage) -> str:
    """The one row the problem list shows when there are no problems ("" while it has problems)."""
    if page.problems.messages:
        return ""
    shown = [w.text() for w in page.problems.findChildren(QLabel) if w.isVisibleTo(page) and w.text()]
    return shown[0] if len(shown) == 1 else ""  # a new row is shown by the event loop (QLayout's queued show)


def _kill(qtbot, page: TrainPage) -> None:
    if page.active:
        page.session.kill()
        qtbot.waitUntil(lambda: not page.active, timeout=TIMEOUT_MS)


@pytest.fixture
def window(qtbot, tmp_path, fake_worker):
    window = MainWindow(tmp_path / "ws", launcher=Launcher(fake_worker), prepare_demo=False, check_runs=False)
    qtbot.addWidget(window)
    window.show()
    return window


def test_a_training_runs_options_never_follow_the_dataset_opened_meanwhile(qtbot, window, tmp_path):
    trained, other = build(tmp_path / "trained"), build(tmp_path / "other")
    page = window.train_page
    page.form.set_data_path(str(trained))
    page.revalidate()
    qtbot.waitUntil(page.start_button.isEnabled, timeout=TIMEOUT_MS)
    page.control.launcher.options = ["--pause-after", "60"]
    assert page.control.start_run()
    assert "exp" in page.options.title()
    page.services.current.set_dataset(str(other))  # the Dataset page created and opened another dataset
    assert page.form.data_edit.text() == str(trained)  # "Options of run exp" are exp's
    assert page.options.title().startswith("Options of run exp")
    qtbot.waitUntil(lambda: _ready_row(page) == "Run exp is training with these options.",  # not "Ready to train."
                    timeout=TIMEOUT_MS)
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS):
        page.control.stop_run()
    assert page.form.data_edit.text() == str(other.resolve())  # the next run's options take it now
    qtbot.waitUntil(page.start_button.isEnabled, timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: _ready_row(page) == "Ready to train.", timeout=TIMEOUT_MS)


def test_reattaching_leaves_no_demo_leftovers_and_the_banner_goes_with_the_run(qtbot, tmp_path, fake_worker):
    data = build(tmp_path / "data")
    run_dir = create_run(tmp_path / "ws", validate_config(TrainConfig(data=str(data), epochs=3)))
    events = run_dir / EVENTS_FILE
    worker = subprocess.Popen(fake_worker("--events-out", str(events), "--pause-after", "60"),
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        qtbot.waitUntil(lambda: len(read_events(events)) >= 60, timeout=TIMEOUT_MS)
        page = _page(qtbot, tmp_path, fake_worker, prepare_demo=True)  # a fresh start: the demo is expected
        page.show()
        assert page.form.demo_progress.isVisible()  # "Preparing the demo dataset…" until the first paint
        assert page.control.attach(read_run(run_dir))  # the first listing of runs found it training
        qtbot.waitUntil(lambda: page.session.progress.epochs == 3, timeout=TIMEOUT_MS)
        qtbot.waitUntil(lambda: not page.form.demo_progress.isVisible(), timeout=TIMEOUT_MS)
        assert page.form.data_edit.text() == str(data)  # the run's dataset, no demo made over it
        assert not (tmp_path / "ws" / "demo" / "data.yaml").exists()
        assert "Re-attached to run exp" in page.banner.text and page.banner.isVisibleTo(page)
        qtbot.waitUntil(lambda: not page.options.checking_dataset, timeout=TIMEOUT_MS)
        qtbot.waitUntil(lambda: _ready_row(page) == "Run exp is training with these options.", timeout=TIMEOUT_MS)
        with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS):
            page.control.stop_run()
        assert worker.wait(30) == 0
        assert not page.banner.isVisibleTo(page)  # the completion card says how it ended
        assert page.form.demo_button.isEnabled() and not page.form.demo_progress.isVisible()
        qtbot.waitUntil(page.start_button.isEnabled, timeout=TIMEOUT_MS)
        qtbot.waitUntil(lambda: _ready_row(page) == "Ready to train.", timeout=TIMEOUT_MS)
    finally:
        worker.kill()
        worker.wait()


def test_a_save_on_the_dataset_page_checks_the_train_form_again(qtbot, window, tmp_path):
    data = build(tmp_path / "d", train={"t1": BOX, "t2": "4 0.5 0.5 0.2 0.2\n"})  # class 4 of names [a, b]
    page = window.train_page
    page.form.set_data_path(str(data))
    page.revalidate()
    qtbot.waitUntil(lambda: not page.options.checking_dataset, timeout=TIMEOUT_MS)
    assert "1 error in the dataset would stop training." in page.problems.messages  # one, in the singular
    dataset = window.page_for("dataset")
    window.show_page(page_index("dataset"))
    with qtbot.waitSignal(dataset.opened, timeout=TIMEOUT_MS):  # the Dataset page reads the file off the GUI thread
        assert dataset.open_path(data)
    dataset.document.apply_text(data.read_text(encoding="utf-8").replace("names: [a, b]", "names: [a, b, c, d, e]"))
    assert dataset.save()
    assert not page.isVisible()  # the Train page is not shown again: the save alone makes it check
    qtbot.waitUntil(page.start_button.isEnabled, timeout=TIMEOUT_MS)
    assert not any("would stop training" in m for m in page.problems.messages)


def test_error_counts_read_in_the_plural_from_two_on(qtbot, tmp_path, fake_worker):
    data = build(tmp_path / "d", train={"t1": "4 0.5 0.5 0.2 0.2\n", "t2": "5 0.5 0.5 0.2 0.2\n"})
    page = _page(qtbot, tmp_path, fake_worker)
    page.form.set_data_path(str(data))
    page.revalidate()
    qtbot.waitUntil(lambda: not page.options.checking_dataset, timeout=TIMEOUT_MS)
    assert any(re.fullmatch(r"([2-9]|\d\d+) errors in the dataset would stop training\.", m)
               for m in page.problems.messages), page.problems.messages


def _droppable(root: Path) -> Path:
    return build(root, train={"t1": BOX, "t2": BOX, "t3": "0 0.5 0.5 0.2 1.7\n"})  # yolov5 drops t3


def test_start_anyway_is_kept_when_another_field_changes_or_the_dataset_is_checked_again(qtbot, tmp_path,
                                                                                        fake_worker):
    page = _page(qtbot, tmp_path, fake_worker)
    page.form.set_data_path(str(_droppable(tmp_path / "d")))
    page.revalidate()
    qtbot.waitUntil(page.options.start_anyway.isVisible if page.isVisible() else
                    lambda: page.options.start_anyway.isVisibleTo(page), timeout=TIMEOUT_MS)
    assert "yolov5 would skip 1 image it cannot read." in page.problems.messages
    page.options.start_anyway.setChecked(True)
    assert page.start_button.isEnabled()
    page.form.spin("epochs").setValue(7)  # another field
    page.form.spin("batch").setValue(4)
    qtbot.waitUntil(lambda: page.last_checked.config.batch == 4, timeout=TIMEOUT_MS)  # the debounced check ran
    assert page.options.start_anyway.isChecked() and page.start_button.isEnabled()
    page.refresh()  # F5 (or a save on the Dataset page): the same dataset checked again
    qtbot.waitUntil(lambda: not page.options.checking_dataset, timeout=TIMEOUT_MS)
    assert page.options.start_anyway.isChecked() and page.start_button.isEnabled()


def test_start_anyway_cleared_for_another_dataset_says_why(qtbot, tmp_path, fake_worker):
    page = _page(qtbot, tmp_path, fake_worker)
    first, second = _droppable(tmp_path / "first"), _droppable(tmp_path / "second")
    page.form.set_data_path(str(first))
    page.revalidate()
    qtbot.waitUntil(lambda: page.options.start_anyway.isVisibleTo(page), timeout=TIMEOUT_MS)
    page.options.start_anyway.setChecked(True)
    page.form.set_data_path(str(second))
    page.revalidate()
    assert not page.options.start_anyway.isChecked()
    assert "'Start anyway' was cleared" in page.banner.text and str(second) in page.banner.text
    qtbot.waitUntil(lambda: not page.options.checking_dataset, timeout=TIMEOUT_MS)
    assert not page.start_button.isEnabled()
