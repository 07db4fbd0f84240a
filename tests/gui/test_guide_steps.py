"""The first-run guide's steps 2 and 3 in the real window at 1280×720: the demo is ticked when it is on the Train
form (not when asked for), the panel grows instead of hiding step 2's buttons and Skip behind a scrollbar, and
step 3 is ticked only when the wizard's settings were applied or the guide's Start trains with them — never
when the wizard was merely opened."""

from __future__ import annotations

from gui.main_window import MainWindow
from gui.train import train_options_panel
from tests.core.test_dataset_validate import build
from tests.gui.test_train_page import FakeLauncher
from tests.waits import TIMEOUT_MS


def quick_demo(workspace, progress, cancelled):  # the real drawing is tests/core/test_demo_dataset.py's
    path = workspace / "demo" / "data.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("path: .\ntrain: images/train\nval: images/val\nnames: [circle]\n", encoding="utf-8")
    return path


def window_with_guide(qtbot, tmp_path):
    window = MainWindow(tmp_path / "ws", prepare_demo=False, check_runs=False)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    qtbot.waitExposed(window)
    return window, window.show_guide()


def test_use_the_demo_ticks_step_2_when_it_is_on_the_form_and_grows_no_scrollbar(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(train_options_panel, "ensure_demo_dataset", quick_demo)
    window, guide = window_with_guide(qtbot, tmp_path)
    scrollbar = guide.widget().verticalScrollBar()
    qtbot.waitUntil(lambda: guide.needed_height() <= guide.height(), timeout=TIMEOUT_MS)
    height = guide.height()
    guide.action_requested.emit("demo")
    assert not guide.data.done and "Preparing the demo dataset" in guide.data.status.text()
    assert guide.data.skip.isVisible() and guide.data.skip.isEnabled()  # not done yet: it can still be skipped
    qtbot.waitUntil(lambda: guide.data.done, timeout=TIMEOUT_MS)
    assert window.train_page.options.form.is_demo() and "on the Train form" in guide.data.status.text()
    qtbot.waitUntil(lambda: guide.height() > height, timeout=TIMEOUT_MS)  # grown for the status line
    assert not scrollbar.isVisible() and guide.needed_height() <= guide.height()
    assert guide.data.skip.isVisible() and not guide.data.skip.isEnabled()  # in place, nothing left to skip
    assert all(button.isVisible() for button in guide.data.findChildren(type(guide.data.skip)))


def test_opening_the_wizard_is_not_step_3_done_applying_its_settings_is(qtbot, tmp_path):
    window, guide = window_with_guide(qtbot, tmp_path)
    guide.action_requested.emit("tune")
    wizard = window.page_for("wizard")
    assert window.pages.currentWidget() is wizard
    assert not guide.tune.done and "Train with these settings" in guide.tune.status.text()
    assert guide.tune.skip.isEnabled()
    wizard.applied.emit({"config": {}})  # as WizardPage._hand_over says it after the Train form took the settings
    assert guide.tune.done and "wizard's settings are on the Train form" in guide.tune.status.text()


def test_the_guides_start_with_the_wizards_settings_ticks_step_3_too(qtbot, tmp_path, fake_worker):
    window = MainWindow(tmp_path / "ws", launcher=FakeLauncher(fake_worker), prepare_demo=False, check_runs=False)
    qtbot.addWidget(window)
    guide = window.show_guide()
    data = build(tmp_path / "data")
    doc = {"config": {"data": str(data), "model": "yolov5n.yaml", "imgsz": 64, "batch": 8, "workers": 1,
                      "device": "cpu", "epochs": 2, "cache": ""},
           "predicted": {"images_per_s": 55.0, "epoch_s": 2.0, "total_s": 4.0}, "reasons": {}}
    train = window.train_page
    assert train.control.use_wizard(doc)  # on the form (e.g. the wizard was used before the guide's step 3)
    qtbot.waitUntil(train.start_button.isEnabled, timeout=TIMEOUT_MS)
    assert not guide.tune.done
    with qtbot.waitSignal(train.run_ended, timeout=TIMEOUT_MS):
        guide.action_requested.emit("train")
    assert guide.train.done and guide.tune.done and "wizard's settings" in guide.tune.status.text()
