"""The Train page's live view at the size a 1280x720 window with the guide open leaves it (issue 25, Train page).

Driven like a real run: the fake worker replays the recorded stream with a bottleneck verdict spliced in and
pauses mid-run, with the wizard's prediction on screen — the state in which the progress lines were painted
on top of each other.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QLabel, QPushButton, QScrollArea, QWidget

from core.job.jobs import JobSpec
from core.run.files import EVENTS_FILE
from core.training.config import MachineFacts
from gui.train.train_page import TrainPage
from tests.core.test_dataset_validate import build
from tests.gui.test_live_view import synthesised_stream
from tests.waits import TIMEOUT_MS

#: What the Train page gets in a 1280x720 window with the guide docked below (measured on the main window:
#: 1280 - the 150 px rail wide; 720 - menu, guide and status bar high).
PAGE_W, PAGE_H = 1130, 440


class PausedLauncher:
    def __init__(self, fake_worker, events: Path) -> None:
        self.fake_worker, self.events = fake_worker, events

    def __call__(self, job: JobSpec) -> tuple[list[str], dict[str, str]]:
        argv = self.fake_worker("--events-out", str(job.path.parent / EVENTS_FILE), "--pause-after", "95",
                                events=self.events)
        return argv, dict(os.environ)


@pytest.fixture
def training_page(qtbot, tmp_path, fake_worker):
    data = build(tmp_path / "data")
    # Not qtbot.addWidget: pytest-qt deletes such widgets before this fixture's teardown ends the worker.
    page = TrainPage(tmp_path / "ws", launcher=PausedLauncher(fake_worker, synthesised_stream(tmp_path / "s.jsonl")),
                     prepare_demo=False, machine_facts=MachineFacts(gpu_count=0))
    page.resize(PAGE_W, PAGE_H)
    page.show()
    doc = {"config": {"data": str(data), "model": "yolov5n.yaml", "imgsz": 64, "batch": 8, "workers": 1,
                      "cache": "ram", "device": "cpu", "epochs": 3},
           "predicted": {"images_per_s": 55.0, "epoch_s": 2.0, "total_s": 6.0},
           "reasons": {"workers": {"value": 1, "why": "w", "evidence": "e", "step": "measure", "estimated": False}}}
    assert page.control.use_wizard(doc)
    qtbot.waitUntil(page.start_button.isEnabled, timeout=TIMEOUT_MS)
    assert page.control.start_run()
    qtbot.waitUntil(lambda: page.diagnosis.isVisible() and page.session.progress.epoch >= 1, timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: "ETA" in page.progress_panel.detail_label.text(), timeout=TIMEOUT_MS)
    yield page
    page.session.kill()
    qtbot.waitUntil(lambda: not page.active, timeout=TIMEOUT_MS)
    page.close()
    page.deleteLater()


def _in(widget: QWidget, ancestor: QWidget) -> QRect:
    return QRect(widget.mapTo(ancestor, widget.rect().topLeft()), widget.size())


def _whole(label: QLabel) -> bool:
    needed = label.heightForWidth(label.width()) if label.wordWrap() else label.sizeHint().height()
    return label.isVisible() and label.height() >= needed  # every line of it shown


def _assert_whole_and_apart(qtbot, labels: list[QLabel], ancestor: QWidget) -> None:
    for label in labels:  # a new text is laid out by the event loop: wait for the layout, not for a time
        qtbot.waitUntil(lambda lb=label: _whole(lb), timeout=TIMEOUT_MS)
    rects = [_in(label, ancestor) for label in labels]
    for i, first in enumerate(rects):
        for second in rects[i + 1:]:
            assert not first.intersects(second), (first, second)


def test_progress_lines_are_whole_and_apart_while_the_bottleneck_card_and_prediction_show(qtbot, training_page):
    page = training_page
    panel = page.progress_panel
    assert page.wizard_prediction.isVisible() and page.diagnosis.isVisible()
    lines = [panel.title_label, panel.stage_label, panel.detail_label, panel.best_label]
    _assert_whole_and_apart(qtbot, lines, page.run_box)
    assert page.run_box.height() >= page.run_box.layout().totalHeightForWidth(page.run_box.width())


def test_the_splitter_gives_room_below_without_squashing_the_progress(qtbot, training_page):
    page = training_page
    splitter = page._live_splitter
    sizes = splitter.sizes()
    splitter.setSizes([0, sizes[0] + sizes[1], *sizes[2:]])  # the handle under Progress dragged to the top
    panel = page.progress_panel
    lines = [panel.title_label, panel.stage_label, panel.detail_label, panel.best_label]
    _assert_whole_and_apart(qtbot, lines, page.run_box)
    page.resize(PAGE_W, 1400)  # a taller window: the handles share out the room the panes do not need
    qtbot.waitUntil(lambda: splitter.sizes()[1] > page.log_view.minimumHeight(), timeout=TIMEOUT_MS)
    before = splitter.sizes()
    room = before[1] - page.log_view.minimumHeight()
    splitter.setSizes([before[0] + room, before[1] - room, *before[2:]])  # the handle under Progress, dragged down
    assert splitter.sizes()[:2] == [before[0] + room, before[1] - room]
    lines = [panel.title_label, panel.stage_label, panel.detail_label, panel.best_label]
    _assert_whole_and_apart(qtbot, lines, page.run_box)


def test_the_live_side_never_needs_more_width_than_its_pane(qtbot, training_page):
    page = training_page
    scroll = next(s for s in page.findChildren(QScrollArea) if s.widget() is page._live_splitter)
    page.plots  # the charts are built
    qtbot.waitUntil(lambda: page._live_splitter.width() <= scroll.viewport().width(), timeout=TIMEOUT_MS)
    assert page._live_splitter.minimumSizeHint().width() <= scroll.viewport().width()


def test_the_completion_card_fits_the_pane(qtbot, training_page):
    page = training_page
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS):
        page.control.stop_run()
    assert page.status_panel.isVisible()
    scroll = next(s for s in page.findChildren(QScrollArea) if s.widget() is page._live_splitter)
    assert page._live_splitter.minimumSizeHint().width() <= scroll.viewport().width()
    assert page.val_images.geometry().right() <= page.run_box.contentsRect().right()


@pytest.mark.parametrize("imgsz", [320, 128])  # another size, and the demo's own size (no change signal)
def test_the_wizards_settings_fit_the_options_column_and_replace_the_demo_note(qtbot, tmp_path, imgsz):
    page = TrainPage(tmp_path / "ws", launcher=lambda job: ([], {}), prepare_demo=False,
                     machine_facts=MachineFacts(gpu_count=0))
    qtbot.addWidget(page)
    page.resize(PAGE_W, PAGE_H)
    page.show()
    page.form.set_data_path(str(page.form.demo_yaml))  # the demo dataset: its sizes are set, and said
    note = page.form.notes["imgsz"]
    assert "Set for the demo dataset" in note.text() and note.isVisibleTo(page)
    doc = {"config": {"data": str(page.form.demo_yaml), "model": "yolov5s.yaml", "imgsz": imgsz, "batch": 16,
                      "workers": 2, "cache": "ram", "device": "cpu", "epochs": 100, "optimizer": "AdamW",
                      "patience": 20, "cos_lr": True, "sync_bn": True},
           "predicted": {"images_per_s": 55.0, "epoch_s": 2.0, "total_s": 600.0}, "reasons": {}}
    assert page.control.use_wizard(doc)  # "Train with these settings": the advanced section opens too
    assert page.form.advanced.isVisibleTo(page)
    assert not note.isVisibleTo(page) and not page.form.notes["epochs"].isVisibleTo(page)
    scroll = next(s for s in page.findChildren(QScrollArea) if s.widget() is page.options)
    qtbot.waitUntil(lambda: page.options.width() <= scroll.viewport().width(), timeout=TIMEOUT_MS)
    assert page.options.minimumSizeHint().width() <= scroll.viewport().width()
    assert not scroll.horizontalScrollBar().isVisible()
    for button in page.options.findChildren(QPushButton):  # no button cut at the pane's right edge
        if button.isVisibleTo(page):
            assert _in(button, page.options).right() <= page.options.contentsRect().right(), button.text()


STRIP_W = 632  # the machine strip's width on that page (the live side's pane, less the group box's margins)


@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_the_machine_strips_readings_are_whole_and_throughput_starts_at_zero(qtbot, tmp_path, device):
    import json

    from gui.widgets.system_plots import SystemPlots

    strip = SystemPlots()
    qtbot.addWidget(strip)
    strip.resize(STRIP_W, 300)
    strip.show()
    for line in synthesised_stream(tmp_path / "s.jsonl").read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        if event["type"] == "hello":
            event["device_type"] = device
        if event["type"] == "system" and device == "cpu":
            event["gpus"] = []
        strip.add_event(event)
    strip.refresh()
    qtbot.waitUntil(lambda: all(h.width() < STRIP_W // 2 for h in strip.headings.values()), timeout=TIMEOUT_MS)
    for name, heading in strip.headings.items():
        qtbot.waitUntil(lambda h=heading: strip._text_height(h, h.width()) + 2 <= h.height(), timeout=TIMEOUT_MS)
        if name != "wait":  # one reading a line, none broken in the middle (the wait sentence may flow)
            assert strip._text_height(heading, heading.width()) == strip._text_height(heading, 10_000), name
    low, high = strip.plots["ips"].getPlotItem().getViewBox().viewRange()[1]
    assert low == 0 and high > strip.series["ips"].view()[1].max()
