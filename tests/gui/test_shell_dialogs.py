"""Settings, About and the first-run guide, in the real window."""

from __future__ import annotations

import json

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from core.settings import Settings, load_settings, settings_path
from core.workspace import last_facts_path
from gui.about_dialog import AboutDialog
from gui.main_window import MainWindow
from gui.environment.environment_page import EnvironmentPage
from gui.settings import settings_dialog
from gui.settings.settings_dialog import SettingsDialog
from gui.train import train_options_panel
from tests.core.environment_builders import healthy_gpu_machine
from tests.waits import TIMEOUT_MS


def test_settings_dialog_writes_every_choice(qtbot, monkeypatch):
    monkeypatch.setattr(settings_dialog, "ask_restart_now", lambda parent, words="": False)
    dialog = SettingsDialog(settings=Settings())
    qtbot.addWidget(dialog)
    dialog.workspace_edit.setText("/data/yolo")
    dialog.language.setCurrentIndex(dialog.language.findData("zh_CN"))
    dialog.theme.setCurrentIndex(dialog.theme.findData("dark"))
    dialog.device.setEditText("0,1,2")
    dialog.close_with_run.setCurrentIndex(dialog.close_with_run.findData("keep"))
    assert dialog.note.isVisibleTo(dialog) and "new language and workspace apply" in dialog.note.text()
    with qtbot.waitSignal(dialog.accepted, timeout=TIMEOUT_MS):  # written off the GUI thread, then closed
        dialog.accept()
    saved = json.loads(settings_path().read_text(encoding="utf-8"))
    assert {k: saved[k] for k in ("workspace", "language", "theme", "default_device", "close_with_run")} == {
        "workspace": "/data/yolo", "language": "zh_CN", "theme": "dark", "default_device": "0,1,2",
        "close_with_run": "keep"}


def test_changing_the_language_says_a_restart_applies_it_and_offers_one(qtbot, monkeypatch):
    asked, restarted = [], []
    monkeypatch.setattr(settings_dialog, "ask_restart_now", lambda parent, words="": asked.append(words) or True)
    monkeypatch.setattr(settings_dialog, "restart_app", lambda: restarted.append(True) or True)
    dialog = SettingsDialog(settings=Settings())
    qtbot.addWidget(dialog)
    assert "starts again" not in dialog.note.text()
    dialog.language.setCurrentIndex(dialog.language.findData("zh_CN"))
    # only the language changed: only the language is named (issue 32)
    assert "The new language applies when YOLO Studio starts again." in dialog.note.text()
    assert "and workspace" not in dialog.note.text() and "restart now" in dialog.note.text()
    with qtbot.waitSignal(dialog.accepted, timeout=TIMEOUT_MS):
        dialog.accept()
    assert asked == ["The new language applies when YOLO Studio starts again."] and restarted == [True]
    assert load_settings().language == "zh_CN"  # saved before the restart, so the new window reads it
    again = SettingsDialog(settings=load_settings())
    qtbot.addWidget(again)
    again.theme.setCurrentIndex(again.theme.findData("dark"))  # the theme applies at once: no restart asked
    with qtbot.waitSignal(again.accepted, timeout=TIMEOUT_MS):
        again.accept()
    assert len(asked) == 1


def test_the_workspace_field_names_the_workspace_in_use_and_where_it_came_from(qtbot, tmp_path, monkeypatch):
    """Started with ``--workspace``, the window does not use the setting: the dialog says which one it uses."""
    window = MainWindow(tmp_path / "ws", prepare_demo=False, check_runs=False)
    qtbot.addWidget(window)
    dialog = window.open_settings()
    qtbot.waitUntil(lambda: dialog.in_use.isVisibleTo(dialog), timeout=TIMEOUT_MS)
    assert dialog.in_use.text() == (f"Workspace in use now: {tmp_path / 'ws'} — from the command line (--workspace); this "
                                    "field is used when the app starts without it.")
    assert dialog.workspace_edit.text() == ""  # the field is the setting, unchanged
    dialog.reject()
    monkeypatch.delenv("YOLOSTUDIO_WORKSPACE")
    monkeypatch.setattr("core.workspace.default_workspace", lambda: tmp_path / "ws")
    default = SettingsDialog(window, workspace=tmp_path / "ws")
    qtbot.addWidget(default)
    qtbot.waitUntil(lambda: default.in_use.isVisibleTo(default), timeout=TIMEOUT_MS)
    assert default.in_use.text().endswith("— the default.")
    default.reject()


def test_a_listed_device_is_saved_by_its_value_not_its_words(qtbot):
    dialog = SettingsDialog(settings=Settings())
    qtbot.addWidget(dialog)
    dialog.device.setCurrentIndex(dialog.device.findData("cpu"))
    assert dialog.chosen().default_device == "cpu"
    dialog.device.setCurrentIndex(0)
    assert dialog.chosen().default_device == ""


def test_about_names_versions_from_the_last_check_without_torch(qtbot, tmp_path):
    dialog = AboutDialog(tmp_path)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.versions_read, timeout=TIMEOUT_MS)  # the facts are read in the background
    assert "not checked yet" in dialog.text.text() and "AGPL" in dialog.text.text()
    path = last_facts_path(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"torch": {"version": "2.9.1+cu128", "cuda": "12.8"},
                                "packages": {"yolov5": "7.0.14"}, "nvml": {"driver_version": "570.86"}}))
    again = AboutDialog(tmp_path)
    qtbot.addWidget(again)
    qtbot.waitUntil(lambda: again.versions_read, timeout=TIMEOUT_MS)
    text = again.text.text()
    for expected in ("2.9.1+cu128", "12.8", "7.0.14", "570.86", str(settings_path()), "gui.log", "Open Font License", "DejaVu"):
        assert expected in text, expected


def test_first_start_shows_the_guide_once_with_the_machine_check(qtbot, tmp_path, monkeypatch):
    checks = []
    monkeypatch.setattr(EnvironmentPage, "recheck", lambda self: checks.append(self) or True)
    window = MainWindow(tmp_path / "ws", prepare_demo=False, check_runs=True)
    qtbot.addWidget(window)
    window.show()  # the guide comes after the window's first paint
    qtbot.waitUntil(lambda: window.guide is not None, timeout=TIMEOUT_MS)
    assert [step.done for step in window.guide.steps] == [False] * 4
    assert len(checks) == 1 and "Checking" in window.guide.check.status.text()  # the check runs at once
    facts = healthy_gpu_machine()
    facts.torch.version, facts.torch.cuda, facts.torch.cuda_available = "2.9.1+cpu", None, False
    checks[0].show_facts(facts)  # the probe's answer: a CPU build of PyTorch on a GPU machine
    assert window.guide.check.done and "CPU" in window.guide.check.status.text()
    window.guide.tune.skip.click()
    assert window.guide.tune.done and "Skipped" in window.guide.tune.status.text()
    window.guide.close()
    qtbot.waitUntil(lambda: load_settings().guide_done, timeout=TIMEOUT_MS)  # saved in the background
    again = MainWindow(tmp_path / "ws", prepare_demo=False, check_runs=True)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitUntil(lambda: again.runs_store.loaded, timeout=TIMEOUT_MS)
    # A first start's guide would be queued after the paint by now; a marker queued behind it says it had its turn.
    passed: list[bool] = []
    again.when_painted(lambda: QTimer.singleShot(0, lambda: passed.append(True)))
    qtbot.waitUntil(lambda: bool(passed), timeout=TIMEOUT_MS)
    assert again.guide is None  # never again by itself
    guide = again.show_guide()  # the Help menu still opens it
    assert guide.isVisible() and again.guide is guide


def test_the_guide_puts_the_demo_dataset_on_the_train_form(qtbot, tmp_path, monkeypatch):
    def quick_demo(workspace, progress, cancelled):  # the real drawing is tests/core/test_demo_dataset.py's
        path = workspace / "demo" / "data.yaml"
        path.parent.mkdir(parents=True)
        path.write_text("path: .\ntrain: images/train\nval: images/val\nnames: [circle]\n", encoding="utf-8")
        return path

    monkeypatch.setattr(train_options_panel, "ensure_demo_dataset", quick_demo)
    window = MainWindow(tmp_path / "ws", prepare_demo=False, check_runs=False)
    qtbot.addWidget(window)
    guide = window.show_guide()
    guide.action_requested.emit("demo")
    qtbot.waitUntil(lambda: guide.data.done, timeout=TIMEOUT_MS)  # ticked once the demo is on the form
    assert window.train_page.options.form.is_demo() and window.pages.currentWidget() is window.train_page


def test_the_menus_open_settings_and_about(qtbot, tmp_path):
    window = MainWindow(tmp_path / "ws", prepare_demo=False, check_runs=False)
    qtbot.addWidget(window)
    titles = [a.text() for a in window.menuBar().actions()]
    assert titles == ["&File", "&Help"]
    before = QApplication.instance().palette().window().color().name()
    settings = window.open_settings()
    settings.theme.setCurrentIndex(settings.theme.findData("dark"))
    assert QApplication.instance().palette().window().color().lightness() < 80  # the preview shows at once
    settings.reject()
    assert QApplication.instance().palette().window().color().name() == before  # Cancel takes it back
    window.open_about().close()
