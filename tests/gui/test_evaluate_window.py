"""The Evaluate window (gui/evaluate/evaluate_window.py) from the Runs page and the Train page's card: planned in
the background, the evaluate worker run through a real subprocess replaying a stream, its stored result shown;
the same inputs again read back without a worker; Cancel stops the worker; a refusal is said in words."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from core.evaluation.request import plan_run_evaluation
from core.evaluation.store import load_evaluation, save_evaluation
from core.job.jobs import JobSpec
from core.runs.store import RunInfo
from gui.evaluate.evaluate_window import EvaluateWindow
from tests.fixtures.evaluable_run import evaluable_run
from tests.gui.test_evaluate_view import result as stored_result
from tests.waits import TIMEOUT_MS


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    run, data_yaml = evaluable_run(tmp_path, train=3, val=3)
    (run / "config.json").write_text(json.dumps({"spec": {"config": {"data": str(data_yaml),
                                                                      "imgsz": 64, "batch": 4}}}))
    return run


class EvaluateLauncher:
    """Plays the evaluate worker: stores a result in the spec's folder (unless told not to) and replays a stream."""

    def __init__(self, fake_worker, tmp_path: Path, *, store: bool = True, pause: bool = False) -> None:
        self.fake_worker, self.store, self.pause = fake_worker, store, pause
        self.events = tmp_path / "evaluate_events.jsonl"
        self.specs: list[dict] = []

    def __call__(self, job: JobSpec) -> tuple[list[str], dict[str, str]]:
        spec = json.loads(job.path.read_text())
        self.specs.append(spec)
        lines = [{"v": 1, "type": "stage", "stage": "evaluating", "detail": "validating"},
                 {"v": 1, "type": "eval_progress", "index": 1, "count": 2, "images": 2},
                 {"v": 1, "type": "eval_progress", "index": 2, "count": 2, "images": 3},
                 {"v": 1, "type": "done", "status": "completed", "store": spec["store"] + "/result.json"}]
        self.events.write_text("".join(json.dumps(line) + "\n" for line in lines))
        if self.store:
            save_evaluation(Path(spec["store"]), {**stored_result(), "prescription": []}, [])
        options = ("--pause-after", "2") if self.pause else ()
        return self.fake_worker(*options, events=self.events), dict(os.environ)


def open_window(qtbot, run_dir: Path, launcher) -> EvaluateWindow:
    window = EvaluateWindow(run_dir, run_dir.parents[1], launcher=launcher)
    qtbot.addWidget(window)
    return window


def test_a_run_is_evaluated_in_a_worker_then_read_back_from_the_store(qtbot, run_dir, fake_worker, tmp_path):
    launcher = EvaluateLauncher(fake_worker, tmp_path)
    window = open_window(qtbot, run_dir, launcher)
    qtbot.waitUntil(lambda: window.view is not None, timeout=TIMEOUT_MS)
    assert len(launcher.specs) == 1
    spec = launcher.specs[0]
    assert spec["weights"] == str(run_dir / "weights" / "best.pt") and spec["settings"]["imgsz"] == 64
    assert spec["settings"]["batch"] == 8  # training's final validation: batch × 2
    assert Path(spec["store"]).parent == run_dir / "evaluations"
    assert window.view.isVisibleTo(window) and window.view.classes.item(0, 0).text() == "cat"
    assert window.view.result["from_store"] is False and "Evaluated and stored" in window.status.text()
    assert not window.cancel_button.isVisible() and not window.busy

    again = open_window(qtbot, run_dir, EvaluateLauncher(fake_worker, tmp_path))
    qtbot.waitUntil(lambda: again.view is not None, timeout=TIMEOUT_MS)
    assert again.view.result["from_store"] is True and "Read back from the store" in again.status.text()
    assert again.planned.stored is not None and not again.runner.outcome  # no worker started


def test_cancel_stops_the_worker_and_nothing_is_shown(qtbot, run_dir, fake_worker, tmp_path):
    launcher = EvaluateLauncher(fake_worker, tmp_path, store=False, pause=True)
    window = open_window(qtbot, run_dir, launcher)
    qtbot.waitUntil(lambda: window.progress.maximum() == 2, timeout=TIMEOUT_MS)  # eval_progress counted batches
    assert window.progress.value() == 1 and window.busy
    window.cancel_button.click()
    qtbot.waitUntil(lambda: not window.busy, timeout=TIMEOUT_MS)
    assert window.runner.outcome.status == "stopped" and window.view is None
    assert "stopped" in window.status.text()
    assert load_evaluation(Path(launcher.specs[0]["store"])) is None


def test_a_run_whose_dataset_is_gone_is_refused_in_words(qtbot, run_dir, fake_worker, tmp_path):
    (tmp_path / "data" / "data.yaml").unlink()
    launcher = EvaluateLauncher(fake_worker, tmp_path)
    window = open_window(qtbot, run_dir, launcher)
    qtbot.waitUntil(lambda: not window.busy, timeout=TIMEOUT_MS)
    assert window.view is None and not launcher.specs
    assert window.banner.level == "error" and "dataset of run exp is not there" in window.banner.text
    assert "--data DATA.yaml" in window.banner.text


def test_a_failed_worker_is_said_in_words(qtbot, run_dir, fake_worker, tmp_path):
    launcher = EvaluateLauncher(fake_worker, tmp_path, store=False)
    original = launcher.__call__

    def failing(job):
        argv, env = original(job)
        launcher.events.write_text(json.dumps({"v": 1, "type": "error", "kind": "data", "message": "no labels found",
                                               "hint": "check the dataset"}) + "\n" + json.dumps(
            {"v": 1, "type": "done", "status": "failed"}) + "\n")
        return argv, env

    window = open_window(qtbot, run_dir, failing)
    qtbot.waitUntil(lambda: window.runner.outcome is not None, timeout=TIMEOUT_MS)
    assert window.view is None and "no labels found" in window.banner.text
    assert "check the dataset" in window.banner.text


def test_the_runs_page_and_the_completion_card_open_it(qtbot, run_dir, fake_worker, tmp_path, monkeypatch):
    from gui.runs.runs_page import RunsPage
    from gui.train.run_status_panel import RunStatusPanel

    page = RunsPage(run_dir.parents[1])
    qtbot.addWidget(page)
    page.launcher = EvaluateLauncher(fake_worker, tmp_path)
    page.model.set_runs([RunInfo(name="exp", path=str(run_dir), status="completed",
                                 best_weights=str(run_dir / "weights" / "best.pt")),
                         RunInfo(name="live", path=str(tmp_path), status="running")])
    page.select_run("live")
    assert not page.evaluate_button.isEnabled()  # a running run has no final weights to judge
    page.select_run("exp")
    assert page.evaluate_button.isEnabled()
    window = page.evaluate_selected()
    qtbot.waitUntil(lambda: window.view is not None, timeout=TIMEOUT_MS)
    assert window.isWindow() and window.run_dir == run_dir
    window.close()

    panel = RunStatusPanel()
    qtbot.addWidget(panel)
    panel._folder = run_dir
    with qtbot.waitSignal(panel.evaluate_requested) as asked:
        panel.evaluate_button.click()
    assert asked.args == [run_dir]


def test_browse_the_errors_opens_the_browser_over_the_stored_images(qtbot, run_dir, fake_worker, tmp_path):
    plan = plan_run_evaluation(run_dir, run_dir.parents[1]).plan
    image = str(tmp_path / "data" / "images" / "val" / "0.jpg")
    error = {"image": image, "kind": "missed", "class": "cat", "predicted_name": None, "label": 0, "prediction": None,
             "label_class": 0, "predicted_class": None, "confidence": None}
    save_evaluation(plan.folder, {**stored_result(), "errors": [error], "names": {"0": "cat", "1": "emu"}},
                    [{"image": image, "width": 64, "height": 64, "labels": [[0, 25.6, 25.6, 38.4, 38.4]],
                      "predictions": []}])
    window = open_window(qtbot, run_dir, EvaluateLauncher(fake_worker, tmp_path))
    qtbot.waitUntil(lambda: window.view is not None, timeout=TIMEOUT_MS)
    assert window.errors_button.isVisibleTo(window)
    window.browse_errors()  # opens once its images.json is read in the background
    qtbot.waitUntil(lambda: window.errors_browser is not None, timeout=TIMEOUT_MS)
    browser = window.errors_browser
    assert browser.list.count() == 1
    qtbot.waitUntil(lambda: image in browser.labels_now, timeout=TIMEOUT_MS)  # its label file, read as it is now
    assert browser.delete_button.isEnabled() and not browser.accept_button.isEnabled()
    browser.close()
