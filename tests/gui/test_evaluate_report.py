"""The Evaluate window's Deployment report button (gui/evaluate/evaluate_window.py): shown with a val evaluation,
it writes the report off the GUI thread in the app's language (core.report) and offers to open it; a report
that cannot be made is said in the window's banner. Screenshots at 1280×720 in English and Chinese go to
tests/artifacts/screens/report-*.png."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

import tests.gui.test_evaluate_window as evaluate_window_tests
from core.evaluation.fingerprint import weights_hash
from core.evaluation.store import save_evaluation
from core.report.gather import Choice
from gui import dialogs
from tests.fixtures.evaluable_run import evaluable_run
from tests.fixtures.report_run import NAMES, synthetic_images
from tests.gui.languages import app_in_language
from tests.latin_words import stray_words
from tests.gui.test_evaluate_window import EvaluateLauncher, open_window
from tests.waits import TIMEOUT_MS

SCREENS = Path(__file__).resolve().parents[1] / "artifacts" / "screens"


@pytest.fixture
def val_evaluation(tmp_path, monkeypatch):
    """The Evaluate window's run (``test_evaluate_window``'s), whose fake evaluate worker stores a val evaluation of
    the run's best.pt with synthetic matched images."""
    run_dir, data_yaml = evaluable_run(tmp_path, train=3, val=3)
    (run_dir / "config.json").write_text(json.dumps({"spec": {"config": {"data": str(data_yaml), "imgsz": 64,
                                                                          "batch": 4}}}))
    images = synthetic_images(30)
    result = {**evaluate_window_tests.stored_result(), "split": "val", "images": len(images), "created": time.time(),
              "weights_sha256": weights_hash(run_dir / "weights" / "best.pt"),
              "names": {str(i): n for i, n in enumerate(NAMES)}}
    monkeypatch.setattr(evaluate_window_tests, "stored_result", lambda: result)
    monkeypatch.setattr(evaluate_window_tests, "save_evaluation",
                        lambda folder, res, _images: save_evaluation(folder, res, images))
    return run_dir


def _shown(qtbot, run_dir, fake_worker, tmp_path):
    window = open_window(qtbot, run_dir, EvaluateLauncher(fake_worker, tmp_path))
    qtbot.waitUntil(lambda: window.view is not None, timeout=TIMEOUT_MS)
    return window


def test_the_button_writes_the_report_and_offers_to_open_it(qtbot, val_evaluation, fake_worker, tmp_path,
                                                            monkeypatch):
    asked: list[str] = []
    monkeypatch.setattr(dialogs, "ask_yes", lambda parent, title, text, **kw: asked.append(text) or False)
    window = _shown(qtbot, val_evaluation, fake_worker, tmp_path)
    assert window.report_button.isVisibleTo(window) and window.report_button.menu().actions()
    window.resize(1280, 720)
    SCREENS.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(SCREENS / "report-button-en.png"))
    window.write_report(Choice(target_recall=0.6))
    qtbot.waitUntil(lambda: window.report_path is not None, timeout=TIMEOUT_MS)
    assert window.report_path == val_evaluation / "deployment-report.html" and window.report_path.is_file()
    assert "Operating confidence" in window.report_path.read_text(encoding="utf-8")
    assert asked and str(window.report_path) in asked[0] and window.report_button.isEnabled()


def test_in_chinese_the_report_is_chinese(qtbot, val_evaluation, fake_worker, tmp_path, monkeypatch):
    monkeypatch.setattr(dialogs, "ask_yes", lambda *a, **k: False)
    with app_in_language("zh_CN"):
        window = _shown(qtbot, val_evaluation, fake_worker, tmp_path)
        assert window.report_button.text() == "部署报告"
        texts = [window.report_button.text(), window.report_button.toolTip(),
                 *(a.text() for a in window.report_button.menu().actions())]
        assert stray_words("\n".join(texts)) == [], texts
        window.resize(1280, 720)
        SCREENS.mkdir(parents=True, exist_ok=True)
        window.grab().save(str(SCREENS / "report-button-zh_CN.png"))
        window.write_report(Choice())
        qtbot.waitUntil(lambda: window.report_path is not None, timeout=TIMEOUT_MS)
    assert window.report_path.name == "deployment-report.zh_CN.html"
    assert "工作置信度" in window.report_path.read_text(encoding="utf-8")


def test_a_report_that_cannot_be_made_is_said_in_the_banner(qtbot, val_evaluation, fake_worker, tmp_path):
    window = _shown(qtbot, val_evaluation, fake_worker, tmp_path)
    (val_evaluation / "weights" / "best.pt").write_bytes(b"trained again")
    window.write_report(Choice())
    qtbot.waitUntil(lambda: window.banner.level == "error", timeout=TIMEOUT_MS)
    assert "other weights" in window.banner.text and "yolostudio evaluate exp" in window.banner.text
    assert window.report_path is None and window.report_button.isEnabled()
