"""The Train page's live view: system strip, learning rate, the bottleneck banner, validation pictures, "train more".

Driven like a real run: the fake worker replays a recorded stream (with synthesised multi-GPU ``system``
samples and a ``diagnosis`` event spliced in) through the real page; replay goes through ``open_run``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from core.job.jobs import JobSpec
from core.job.protocol import read_events
from core.runs.store import create_run, read_run
from core.run.files import EVENTS_FILE
from core.training.config import MachineFacts, TrainConfig, validate_config
from gui.train.train_page import TrainPage
from gui.widgets import diagnosis_banner
from tests.core.test_dataset_validate import build
from tests.waits import TIMEOUT_MS

RECORDED = Path(__file__).parents[1] / "fixtures" / "recorded_train_events.jsonl"

DIAGNOSIS = {"v": 1, "type": "diagnosis", "code": "input-bound-workers", "severity": "warning",
             "title": "Training waits for the data loader; cores are idle",
             "detail": "The GPU waited for data 34% of the time.",
             "evidence": {"data_wait_share": 0.34, "cpu_percent": 41.0, "workers": 2, "cpu_count": 16},
             "prescriptions": [{"field": "workers", "value": 6, "reason": "16 cores, 2 workers"},
                               {"field": "cache", "value": "ram", "reason": "decode each image once"}],
             "epoch": 1, "at": "epoch_end"}


def _gpus(t: float) -> list[dict]:
    return [{"index": i, "util_percent": 20.0 + 10 * i, "mem_util_percent": 5.0, "mem_used_gb": 3.0 + i,
             "mem_total_gb": 80.0, "temperature_c": 50, "power_w": 100, "power_limit_w": 300,
             "throttle_reasons": 0} for i in range(2)]


def synthesised_stream(path: Path, *, healthy_at_end: bool = False) -> Path:
    """The recorded run, with two GPUs in every system sample and a bottleneck verdict after epoch 2."""
    lines = []
    for raw in RECORDED.read_text(encoding="utf-8").splitlines():
        event = json.loads(raw)
        if event["type"] == "system":
            event["gpus"] = _gpus(event["t"])
            event["disk_read_mb_s"] = 12.5
        lines.append(json.dumps(event))
        if event["type"] == "epoch_end" and event["epoch"] == 1:
            lines.append(json.dumps({**DIAGNOSIS, "t": event["t"]}))
        if healthy_at_end and event["type"] == "epoch_end" and event["epoch"] == 2:
            lines.append(json.dumps({**DIAGNOSIS, "t": event["t"], "code": "healthy", "severity": "ok",
                                     "title": "The input pipeline keeps up", "prescriptions": [],
                                     "detail": "The GPU waited for data 3% of the time."}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


class Launcher:
    def __init__(self, fake_worker, events: Path) -> None:
        self.fake_worker, self.events = fake_worker, events
        self.spec_files: list[Path] = []

    def __call__(self, job: JobSpec) -> tuple[list[str], dict[str, str]]:
        if job.job == "evaluate":  # the completion card's Evaluate: a worker that fails in words, as a real one can
            done = {"v": 1, "type": "done", "t": 1.0, "status": "failed"}
            error = {"v": 1, "type": "error", "t": 1.0, "kind": "internal", "message": "stand-in evaluate worker"}
            program = f"print({json.dumps(json.dumps(error))}); print({json.dumps(json.dumps(done))})"
            return [sys.executable, "-c", program], dict(os.environ)
        assert job.job == "train" and job.path is not None
        spec_file = job.path
        self.spec_files.append(spec_file)
        return (self.fake_worker("--events-out", str(spec_file.parent / EVENTS_FILE), events=self.events),
                dict(os.environ))


@pytest.fixture
def data_yaml(tmp_path: Path) -> Path:
    return build(tmp_path / "data")  # a dataset that passes the check before Start


@pytest.fixture
def launcher(fake_worker, tmp_path) -> Launcher:
    return Launcher(fake_worker, synthesised_stream(tmp_path / "stream.jsonl"))


@pytest.fixture
def page(qtbot, tmp_path, data_yaml, launcher):
    page = TrainPage(tmp_path / "ws", launcher=launcher, prepare_demo=False, machine_facts=MachineFacts(gpu_count=2))
    qtbot.addWidget(page)
    page.form.set_data_path(str(data_yaml))
    page.revalidate()
    qtbot.waitUntil(page.start_button.isEnabled, timeout=TIMEOUT_MS)  # the dataset check passed
    yield page
    if page.active:
        page.session.kill()
        qtbot.waitUntil(lambda: not page.active, timeout=TIMEOUT_MS)


def _run(qtbot, page: TrainPage) -> None:
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS):
        assert page.control.start_run()


def test_system_strip_and_learning_rate_fill_from_the_stream(qtbot, page):
    _run(qtbot, page)
    strip = page.system_plots
    assert strip.gpu_indices == [0, 1]
    assert strip.series["cpu"].size == 40 and strip.series["gpu1/util"].size == 40
    assert strip.series["proc"].size == 40 and strip.series["ram"].size == 40 and strip.series["disk"].size == 40
    _, util = strip.series["gpu1/util"].view()
    assert util[-1] == pytest.approx(30.0)
    _, mem = strip.series["gpu0/mem"].view()
    assert mem[-1] == pytest.approx(100 * 3.0 / 80.0)
    assert strip.series["wait"].size == 9 and strip.series["ips"].size == 9  # 12 batches, 3 of them warm-up
    x, _ = strip.series["cpu"].view()
    assert x[0] >= 0 and all(b >= a for a, b in zip(x, x[1:]))  # minutes since the worker started
    gpu_heading = strip.headings["gpu"].text()  # the newest readings, each beside its curve's glyph
    assert "GPU 0 20 %" in gpu_heading and "GPU 1 30 %" in gpu_heading and "memory 7.0/160 GB" in gpu_heading
    assert "Disk read 12.5 MB/s" in strip.headings["disk"].text()
    assert "CPU " in strip.headings["cpu"].text() and "RAM " in strip.headings["cpu"].text()
    lr_x, lr = page.plots.series["lr0"].view()
    assert list(lr_x) == [1.0, 2.0, 3.0] and lr[0] == pytest.approx(0.0973)
    assert page.plots.series["lr2"].size == 3


def test_diagnosis_banner_shows_evidence_and_applies_after_confirmation(qtbot, page, monkeypatch):
    _run(qtbot, page)
    banner = page.diagnosis
    assert banner.isVisibleTo(page) and banner.code == "input-bound-workers"
    assert "Warning" in banner.title_label.text() and "data loader" in banner.title_label.text()
    assert "data wait 34 %" in banner.evidence_label.text() and "workers 2" in banner.evidence_label.text()
    assert banner.apply_button.isVisibleTo(page)
    before = page.form.config()
    asked: list[list[tuple[str, str, str, str]]] = []
    answers = iter([False, True])
    monkeypatch.setattr(diagnosis_banner, "confirm_changes", lambda parent, rows: asked.append(rows) or next(answers))
    banner.apply_button.click()  # declined: nothing changes
    assert page.form.config().workers == before.workers and page.form.config().cache == ""
    banner.apply_button.click()
    rows = asked[-1]
    assert rows[0][:3] == ("workers", str(before.workers), "6") and "16 cores" in rows[0][3]
    assert rows[1][0] == "cache" and rows[1][2] == "ram"
    config = page.form.config()
    assert config.workers == 6 and config.cache == "ram"
    assert "Set for the next run" in page.banner.text


def test_healthy_verdict_is_a_quiet_line(qtbot, page, launcher, tmp_path):
    launcher.events = synthesised_stream(tmp_path / "healthy.jsonl", healthy_at_end=True)
    _run(qtbot, page)
    banner = page.diagnosis
    assert banner.code == "healthy" and banner.isVisibleTo(page)
    assert not banner.apply_button.isVisibleTo(page) and not banner.close_button.isVisibleTo(page)
    assert not banner.evidence_label.isVisibleTo(page)
    assert "keeps up" in banner.title_label.text()


def test_replay_shows_the_newest_validation_picture(qtbot, page, data_yaml, tmp_path):
    run_dir = create_run(page.workspace, validate_config(TrainConfig(data=str(data_yaml), epochs=3)))
    (run_dir / EVENTS_FILE).write_text(synthesised_stream(tmp_path / "s.jsonl").read_text(), encoding="utf-8")
    image = QImage(640, 480, QImage.Format.Format_RGB32)
    image.fill(QColor("#336699"))
    assert image.save(str(run_dir / "val_batch0_pred.jpg"))
    # Written after the second epoch ended: live and replay both read that from the events (issue 32)
    ends = [e["t"] for e in read_events(run_dir / EVENTS_FILE) if e["type"] == "epoch_end"]
    os.utime(run_dir / "val_batch0_pred.jpg", (ends[1] + 0.5, ends[1] + 0.5))
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS):
        assert page.control.open_run(read_run(run_dir))
    assert "Replaying run" in page.banner.text
    assert page.session.followed and page.plots.series["map50"].size == 3
    qtbot.waitUntil(lambda: page.val_images.current is not None and not page.val_images.busy, timeout=TIMEOUT_MS)
    shown = page.val_images.current
    assert shown.path.name == "val_batch0_pred.jpg" and shown.size.width() == 640
    assert shown.image.width() <= 480 and shown.image.height() <= 320  # scaled while decoding
    assert "val_batch0_pred.jpg" in page.val_images.caption.text()
    assert shown.epoch == 1 and "after epoch 2" in page.val_images.caption.text()
    assert page.val_images.image_label.pixmap() is not None and not page.val_images.image_label.pixmap().isNull()
    assert page.system_plots.series["gpu0/util"].size == 40  # the same figures as live
    assert page.diagnosis.code == "input-bound-workers"


def test_train_more_epochs_starts_from_best_weights(qtbot, page, launcher, data_yaml):
    _run(qtbot, page)
    first = page.session.run_dir
    panel = page.status_panel
    assert panel.more_button.isVisibleTo(page)
    panel.more_epochs.setValue(5)
    page.form.set_data_path(str(data_yaml.parent / "elsewhere.yaml"))  # the run's own dataset is used
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS):
        panel.more_button.click()
    spec = json.loads(launcher.spec_files[-1].read_text(encoding="utf-8"))
    assert spec["config"]["model"] == str(first / "weights" / "best.pt")
    assert spec["config"]["epochs"] == 5 and spec["config"]["data"] == str(data_yaml)
    assert page.session.run_dir.name == "exp-more" and page.session.run_dir != first


@pytest.mark.parametrize("device, words", [("cpu", "The model (on the CPU) waited for data 25 %"),
                                           ("cuda", "GPU waited for data 25 %"),
                                           (None, "Training waited for data 25 %")])
def test_the_wait_heading_names_who_waited(qtbot, device, words):
    from gui.widgets.system_plots import SystemPlots

    strip = SystemPlots()
    qtbot.addWidget(strip)
    if device:
        strip.add_event({"v": 1, "type": "hello", "t": 1.0, "job": "train", "pid": 1, "versions": {}, "devices": [],
                         "device_type": device})
    strip.add_event({"v": 1, "type": "batch", "t": 2.0, "epoch": 0, "index": 5, "count": 10, "warmup": False,
                     "window": {"batches": 1, "images": 4, "data_wait_s": 0.25, "step_s": 0.75,
                                "data_wait_share": 0.25, "images_per_s": 4.0}})
    strip.add_event({"v": 1, "type": "system", "t": 2.5, "cpu_percent": 90.0, "cpu_count": 2, "gpus": []})
    strip.refresh()
    assert words in strip.headings["wait"].text()
    assert ("GPU" in strip.headings["wait"].text()) == (device == "cuda")
    assert ("(training runs on the CPU)" in strip.headings["gpu"].text()) == (device == "cpu")


def test_the_wheel_scrolls_the_page_zooms_only_when_meant_and_a_new_run_starts_unzoomed(qtbot, page):
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication, QScrollArea

    _run(qtbot, page)
    page.resize(1360, 560)  # short: the live view scrolls
    page.show()
    qtbot.waitExposed(page)
    plot = page.plots.loss_plot
    area = next(a for a in page.findChildren(QScrollArea) if a.widget().isAncestorOf(plot))
    page.plots.refresh()
    before = plot.getPlotItem().getViewBox().viewRange()

    def turn(modifiers=Qt.KeyboardModifier.NoModifier) -> None:
        centre = QPointF(plot.viewport().rect().center())
        event = QWheelEvent(centre, QPointF(plot.viewport().mapToGlobal(centre.toPoint())), QPoint(),
                            QPoint(0, -120), Qt.MouseButton.NoButton, modifiers, Qt.ScrollPhase.NoScrollPhase, False)
        QApplication.sendEvent(plot.viewport(), event)

    scrolled = area.verticalScrollBar().value()
    turn()
    assert area.verticalScrollBar().value() > scrolled  # the page moved
    assert plot.getPlotItem().getViewBox().viewRange() == before  # the chart did not zoom
    turn(Qt.KeyboardModifier.ControlModifier)
    zoomed = plot.getPlotItem().getViewBox().viewRange()
    assert zoomed != before and not plot.getPlotItem().getViewBox().autoRangeEnabled()[0]
    page.plots.clear()  # what a new run does
    assert all(plot.getPlotItem().getViewBox().autoRangeEnabled())
    page.hide()


def test_the_completion_card_leaves_the_log_in_sight_and_the_log_can_be_enlarged(qtbot, page):
    from PySide6.QtCore import QPoint, QRect
    from PySide6.QtWidgets import QScrollArea

    page.resize(1360 - 150, 860 - 60)  # the window's default size, less the rail and the status bar
    page.show()
    qtbot.waitExposed(page)
    _run(qtbot, page)
    qtbot.waitUntil(page.status_panel.isVisible, timeout=TIMEOUT_MS)
    log = page.log_view
    area = next(a for a in page.findChildren(QScrollArea) if a.widget().isAncestorOf(log))
    shown = QRect(log.mapTo(area.viewport(), QPoint(0, 0)), log.size()).intersected(area.viewport().rect())
    assert log.height() >= 150  # the card took the charts' room, not the log's
    area.ensureWidgetVisible(log)
    shown = QRect(log.mapTo(area.viewport(), QPoint(0, 0)), log.size()).intersected(area.viewport().rect())
    assert shown.height() >= 150
    log.enlarge_button.click()
    assert not page.plots.isVisible() and log.enlarge_button.text() == "Restore"
    log.enlarge_button.click()
    assert page.plots.isVisible()
    page.hide()


def test_strip_tick_labels_thin_out_instead_of_running_together(qapp):
    from PySide6.QtCore import QRectF

    from gui.widgets.system_plots import SparseAxis

    axis = SparseAxis(orientation="bottom")
    values = [0.2, 0.4, 0.6, 0.8]
    axis.setGeometry(QRectF(0, 0, 70, 20))  # a strip plot at the default window size
    narrow = axis.tickStrings(values, 1.0, 0.2)
    assert narrow[0] == "0.2" and "" in narrow
    axis.setGeometry(QRectF(0, 0, 600, 20))
    assert axis.tickStrings(values, 1.0, 0.2) == ["0.2", "0.4", "0.6", "0.8"]


def test_the_completion_cards_evaluate_opens_the_runs_evaluation(qtbot, page):
    from gui.evaluate.evaluate_window import EvaluateWindow

    _run(qtbot, page)
    panel = page.status_panel
    assert panel.evaluate_button.isVisibleTo(page)
    panel.evaluate_button.click()
    windows = page.findChildren(EvaluateWindow)
    assert len(windows) == 1 and windows[0].run_dir == page.session.run_dir
    # planned in the background, the evaluate worker started and ended: its failure is shown in words
    qtbot.waitUntil(lambda: windows[0].view is not None or bool(windows[0].banner.text), timeout=TIMEOUT_MS)
    assert windows[0].planned.plan.weights.parent.parent == page.session.run_dir
    assert windows[0].banner.level == "error" and "stand-in evaluate worker" in windows[0].banner.text
    windows[0].close()


def test_a_new_run_starts_the_machine_strips_time_axis_at_zero(qtbot):
    """Issue 32: the strip kept the previous run's minutes until the new run's first sample."""
    from gui.widgets.system_plots import FIRST_AXIS_MIN, SystemPlots

    strip = SystemPlots()
    qtbot.addWidget(strip)
    for minute in range(13):
        strip.add_event({"v": 1, "type": "system", "t": 60.0 * minute, "cpu_percent": 50.0, "cpu_count": 2,
                         "gpus": []})
    strip.resize(1280, 300)
    strip.show()
    qtbot.waitExposed(strip)
    strip.refresh()
    view = strip.plots["cpu"].getPlotItem().getViewBox()
    qtbot.waitUntil(lambda: view.viewRange()[0][1] >= 11.0)  # the last run: 12 minutes
    strip.clear()
    qtbot.wait(100)  # painted again: the auto-range had its chance to keep the old minutes
    low, high = view.viewRange()[0]
    assert low == pytest.approx(0.0, abs=0.01) and high == pytest.approx(FIRST_AXIS_MIN, abs=0.05)
