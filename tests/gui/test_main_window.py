"""The main window: rail and pages, closing while a run trains, re-attaching to a run at start."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from core.job.jobs import JobSpec
from core.job.protocol import read_events
from core.runs.store import create_run, read_run, request_stop
from core.run.files import EVENTS_FILE
from core.settings import Settings, save_settings
from core.training.config import TrainConfig, validate_config
from gui import dialogs
from gui.main_window import MainWindow
from gui.pages.catalog import PAGES as CATALOG
from gui.pages.catalog import page_index
from gui.pages.page import Page
from gui.pages.placeholder_page import PlaceholderPage
from gui.train.train_page import TrainPage
from gui.machine_glance import GpuGlance, NvmlGlance
from gui.status_bar import MachineStatusBar
from gui.window_settings import window_settings
from gui.worker_process import detached_processes
from tests.fixtures.fake_nvml import FakeNvml as FakePynvml
from tests.fixtures.fake_nvml import nvml_raising
from tests.core.test_dataset_validate import build
from tests.waits import TIMEOUT_MS

PAGES = ["Environment", "Dataset", "Wizard", "Train", "Tune", "Runs", "Label", "Export", "Predict", "Machines"]


@pytest.fixture
def data_yaml(tmp_path: Path) -> Path:
    return build(tmp_path / "data")  # a dataset that passes the check before Start


@pytest.fixture
def make_window(qtbot, tmp_path, data_yaml, fake_worker):
    options: list[str] = []

    def launcher(job: JobSpec) -> tuple[list[str], dict[str, str]]:
        assert job.path is not None
        return fake_worker("--events-out", str(job.path.parent / EVENTS_FILE), *options), dict(os.environ)

    def make(*worker_options: str, check_runs: bool = False) -> MainWindow:
        options[:] = worker_options
        window = MainWindow(tmp_path / "ws", launcher=launcher, prepare_demo=False, check_runs=check_runs)
        qtbot.addWidget(window)
        window.train_page.form.set_data_path(str(data_yaml))
        window.train_page.revalidate()
        window.show()
        qtbot.waitUntil(lambda: not window.train_page.options.checking_dataset, timeout=TIMEOUT_MS)
        return window

    return make


def _start_paused_run(qtbot, window: MainWindow) -> None:
    assert window.train_page.control.start_run()
    qtbot.waitUntil(lambda: window.train_page.session.progress.epochs == 3, timeout=TIMEOUT_MS)


def test_pages_in_order_with_placeholders_disabled(qtbot, make_window):
    window = make_window()
    titles = [window.rail.item(i).text().split("\n")[0] for i in range(window.rail.count())]
    assert titles == PAGES
    for i, title in enumerate(PAGES):
        page, item = window.pages.widget(i), window.rail.item(i)
        enabled = bool(item.flags() & Qt.ItemFlag.ItemIsEnabled)
        if title == "Train":
            assert isinstance(page, TrainPage) and enabled
        elif CATALOG[i].page is not None:  # a feature that filled in its catalog row
            assert not isinstance(page, PlaceholderPage) and enabled
        else:
            assert isinstance(page, PlaceholderPage) and not enabled
            assert "Coming soon" in item.text() and item.toolTip().startswith("Coming soon")
    assert window.pages.currentWidget() is window.train_page
    placeholders = [i for i, spec in enumerate(CATALOG) if spec.page is None]
    if placeholders:  # Ctrl+N on a placeholder: says why, stays on Train
        assert window.show_page(placeholders[0]) is False
        assert window.pages.currentWidget() is window.train_page
    # the machine bar samples in the background after the first paint: its first figures come when they come
    qtbot.waitUntil(lambda: window.machine_bar.cpu_label.text().startswith("CPU"), timeout=TIMEOUT_MS)


def test_close_while_training_can_be_cancelled(qtbot, make_window, monkeypatch):
    window = make_window("--pause-after", "60")
    _start_paused_run(qtbot, window)
    asked = []
    monkeypatch.setattr(dialogs, "ask_close_while_training",
                        lambda parent, name: asked.append(name) or dialogs.CLOSE_CANCEL)
    assert window.close() is False
    qtbot.waitUntil(lambda: asked == [window.train_page.session.name], timeout=TIMEOUT_MS)  # after the settings
    assert window.isVisible() and window.train_page.active
    window.train_page.session.kill()
    qtbot.waitUntil(lambda: not window.train_page.active, timeout=TIMEOUT_MS)


def test_close_and_keep_training_detaches_without_killing(qtbot, make_window, monkeypatch):
    window = make_window("--pause-after", "60")
    _start_paused_run(qtbot, window)
    run_dir = window.train_page.session.run_dir
    save_settings(Settings(close_with_run="keep"))  # Settings ▸ Closing while a run trains: keep, without asking
    monkeypatch.setattr(dialogs, "ask_close_while_training", lambda parent, name: pytest.fail("asked"))
    window.close()  # the settings are read in the background, then the window closes
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=TIMEOUT_MS)
    assert not window.train_page.active
    assert len(detached_processes()) == 1
    assert read_run(run_dir).status == "running"  # what the next start will re-attach to
    request_stop(run_dir)  # only a worker still running answers it: the window's close did not end it
    qtbot.waitUntil(lambda: read_run(run_dir).status == "stopped", timeout=TIMEOUT_MS)


def test_close_and_stop_waits_for_the_worker_then_closes(qtbot, make_window, monkeypatch):
    window = make_window("--pause-after", "60")
    _start_paused_run(qtbot, window)
    run_dir = window.train_page.session.run_dir
    monkeypatch.setattr(dialogs, "ask_close_while_training", lambda parent, name: dialogs.CLOSE_STOP)
    assert window.close() is False  # not yet: the worker is saving its checkpoint
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=TIMEOUT_MS)
    assert window.train_page.session.outcome.status == "stopped"
    assert read_run(run_dir).status == "stopped"
    assert not detached_processes()
    assert window_settings().value("main_window/geometry") is not None  # saved in the temp config dir


def test_reattaches_to_a_run_that_kept_training(qtbot, make_window, tmp_path, data_yaml, fake_worker):
    checked = validate_config(TrainConfig(data=str(data_yaml), epochs=3))
    run_dir = create_run(tmp_path / "ws", checked)
    events = run_dir / EVENTS_FILE
    worker = subprocess.Popen(fake_worker("--events-out", str(events), "--pause-after", "60"),
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        qtbot.waitUntil(lambda: len(read_events(events)) >= 60, timeout=TIMEOUT_MS)
        assert read_run(run_dir).status == "running"
        window = make_window(check_runs=True)
        page = window.train_page
        qtbot.waitUntil(lambda: page.active, timeout=TIMEOUT_MS)
        assert page.session.followed and page.session.run_dir == run_dir
        assert "Re-attached to run exp" in page.banner.text and "kept training" in page.banner.text
        qtbot.waitUntil(lambda: page.plots.series["train/box"].size == 1, timeout=TIMEOUT_MS)  # history filled in
        assert page.session.progress.epochs == 3
        qtbot.waitUntil(lambda: "epoch 1/3" in window.machine_bar.run_label.text(), timeout=TIMEOUT_MS)
        with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS) as ended:
            page.control.stop_run()  # through the run's control file: this window did not start it
        assert ended.args[0].status == "stopped"
        assert worker.wait(10) == 0
    finally:
        worker.kill()
        worker.wait()


class FakeNvml:
    def __init__(self, gpus: list[GpuGlance] | None) -> None:
        self.gpus = gpus

    def init(self) -> bool:
        return bool(self.gpus)

    def read(self) -> list[GpuGlance] | None:
        return self.gpus

    def close(self) -> None:
        pass


def test_status_bar_shows_the_gpu_at_a_glance(qtbot):
    bar = MachineStatusBar(nvml=FakeNvml([GpuGlance(0, "NVIDIA H200", 37.0, 12.5, 139.8)]))
    qtbot.addWidget(bar)
    qtbot.waitUntil(lambda: "H200" in bar.gpu_label.text(), timeout=TIMEOUT_MS)
    assert bar.gpu_label.text() == "GPU 0 NVIDIA H200 · 37 % · 12.5/139.8 GB"
    assert bar.cpu_label.text().startswith("CPU ") and bar.ram_label.text().startswith("RAM ")
    none = MachineStatusBar(nvml=FakeNvml(None))
    qtbot.addWidget(none)
    qtbot.waitUntil(lambda: none.gpu_label.text() == "No NVIDIA GPU", timeout=TIMEOUT_MS)


def test_nvml_glance_never_raises():
    glance = NvmlGlance()
    ok = glance.init()  # no driver in CI: False, and no exception
    assert (glance.read() is None) == (not ok)
    glance.close()


def test_environment_setting_fix_applies_to_the_train_form(qtbot, make_window, monkeypatch):
    from gui.widgets import diagnosis_banner

    window = make_window()
    monkeypatch.setattr(diagnosis_banner, "confirm_changes", lambda parent, rows: True)
    environment = window.page(0)  # built when first asked for
    assert environment.details._applier is not None
    assert window._apply_to_next_run({"cache": "disk", "workers": 2})
    assert window.pages.currentWidget() is window.train_page
    config = window.train_page.form.config()
    assert config.cache == "disk" and config.workers == 2


def test_status_bar_glance_reads_through_the_same_reader():
    glance = NvmlGlance(FakePynvml())
    assert glance.init()
    assert glance.read() == [GpuGlance(0, "NVIDIA GeForce RTX 4090", 3.0, 2.0, 24.0)]
    glance.close()
    assert glance.read() is None
    broken = NvmlGlance(nvml_raising("DriverNotLoaded"))
    assert not broken.init() and broken.read() is None


def test_pages_are_built_when_first_opened(make_window):
    """Start-up builds the Train page only; a page opened from the rail is built then, once."""
    window = make_window()
    assert [page for page in window.built_pages() if not isinstance(page, PlaceholderPage)] == [window.train_page]
    runs = page_index("runs")
    assert not isinstance(window.pages.widget(runs), Page)  # a "Loading…" stand-in until opened
    assert window.show_page(runs)
    page = window.pages.widget(runs)
    assert isinstance(page, Page) and window.pages.currentWidget() is page and page.services is window.services
    assert window.page(runs) is page and window.rail.currentRow() == runs


def test_the_label_pages_retrain_is_the_train_pages_fine_tune(make_window, monkeypatch, tmp_path):
    """Retrain on the Label page reaches the Train page's run control through the shared services, and the Train
    page comes up (the fine-tune itself: tests/gui/test_label_loop.py)."""
    window = make_window()
    asked: list[Path] = []
    monkeypatch.setattr(window.train_page.control, "fine_tune", lambda run_dir: asked.append(run_dir) or True)
    label = window.page(page_index("label"))
    assert label.services.fine_tune is not None
    assert label.services.fine_tune(tmp_path / "runs" / "exp3")
    assert asked == [tmp_path / "runs" / "exp3"] and window.pages.currentWidget() is window.train_page


def test_close_while_predicting_asks_then_stops_the_prediction_before_closing(qtbot, make_window, monkeypatch,
                                                                              tmp_path, fake_worker):
    """A prediction writing a video is killed with the window unless stopped first: the window asks, stops it (its
    worker closes the files), then closes; "no" keeps both open."""
    from tests.gui.test_predict_page import running_page  # noqa: PLC0415 - the Predict page's own stream

    window = make_window()
    predict = window.page(page_index("predict"))
    model, image = tmp_path / "model.onnx", tmp_path / "street.png"
    model.write_bytes(b"onnx")
    from PySide6.QtGui import QImage  # noqa: PLC0415
    assert QImage(160, 120, QImage.Format.Format_RGB32).save(str(image))
    running_page(qtbot, tmp_path / "predict", fake_worker, (model, image), predict)
    asked = []
    monkeypatch.setattr(dialogs, "ask_yes", lambda parent, title, text, **kw: asked.append(text) or False)
    assert window.close() is False
    assert "prediction is running" in asked[0] and window.isVisible() and predict.running
    monkeypatch.setattr(dialogs, "ask_yes", lambda parent, title, text, **kw: True)
    assert window.close() is False  # not yet: the worker stops after its frame
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=TIMEOUT_MS)
    assert predict.runner.outcome.status == "stopped"
