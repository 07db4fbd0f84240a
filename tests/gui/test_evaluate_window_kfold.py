"""The held-out (k-fold) Evaluate window (gui/evaluate/evaluate_window.py with kfold): offered from the val window
and its Errors browser, it says what the k trainings are and the estimated time with its basis before anything
starts; Start runs the evaluate_kfold job (a real subprocess replaying a stream) with progress over folds and
epochs, the stored held-out result is shown saying which predictions it shows, and read back the next time;
Cancel before Start trains nothing."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from core.evaluation.kfold_request import plan_kfold_evaluation
from core.evaluation.store import save_evaluation
from core.job.jobs import JobSpec
from gui.evaluate.evaluate_window import EvaluateWindow
from tests.gui.test_evaluate_view import result as stored_result
from tests.gui.test_evaluate_window import run_dir as val_run_dir  # noqa: F401 - the fixture, extended here
from tests.waits import TIMEOUT_MS


@pytest.fixture
def run_dir(val_run_dir: Path) -> Path:  # noqa: F811
    """The val window's run, with the worker spec a run made by the app has, and two measured epochs."""
    config = json.loads((val_run_dir / "config.json").read_text())["spec"]["config"]
    spec = {"config": {**config, "epochs": 5}, "resolved": {"data": config["data"], "cfg": "yolov5n.yaml",
                                                            "weights": "", "hyp": "hyp.yaml"}}
    (val_run_dir / "config.json").write_text(json.dumps({"spec": spec}))
    events = [{"type": "stage", "stage": "starting", "t": 10.0}, {"type": "epoch_start", "epoch": 0, "t": 16.0},
              {"type": "epoch_end", "epoch": 0, "epoch_time_s": 9.0, "t": 25.0},
              {"type": "epoch_end", "epoch": 1, "epoch_time_s": 3.0, "t": 28.0},
              {"type": "done", "status": "completed", "t": 30.0}]
    (val_run_dir / "events.jsonl").write_text("".join(json.dumps({"v": 1, **e}) + "\n" for e in events))
    return val_run_dir


def held_out_result() -> dict:
    return {**stored_result(), "split": "train", "predictions": "kfold", "run": "exp", "prescription": [],
            "kfold": {"k": 3, "epochs": 5, "folds": [1, 1, 1]}, "images": 3}


class KfoldLauncher:
    """Plays the evaluate_kfold worker: fold progress, then the held-out result stored in the spec's folder."""

    def __init__(self, fake_worker, tmp_path: Path) -> None:
        self.fake_worker, self.events = fake_worker, tmp_path / "kfold_events.jsonl"
        self.specs: list[dict] = []

    def __call__(self, job: JobSpec) -> tuple[list[str], dict[str, str]]:
        spec = json.loads(job.path.read_text())
        self.specs.append(spec)
        if spec["job"] == "evaluate_kfold":
            lines = [{"v": 1, "type": "kfold_progress", "fold": f, "folds": 3, "stage": stage, "epoch": 5,
                      "epochs": 5} for f in (1, 2, 3) for stage in ("training", "predicting")]
            save_evaluation(Path(spec["store"]), held_out_result(), [])
        else:  # the val evaluation
            lines = []
            save_evaluation(Path(spec["store"]), {**stored_result(), "prescription": []}, [])
        lines.append({"v": 1, "type": "done", "status": "completed", "store": spec["store"] + "/result.json"})
        self.events.write_text("".join(json.dumps(line) + "\n" for line in lines))
        return self.fake_worker(events=self.events), dict(os.environ)


def test_offered_with_its_estimate_started_on_start_shown_and_read_back(qtbot, run_dir, fake_worker, tmp_path):
    launcher = KfoldLauncher(fake_worker, tmp_path)
    window = EvaluateWindow(run_dir, run_dir.parents[1], launcher=launcher)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.view is not None, timeout=TIMEOUT_MS)
    assert window.held_out_button.isVisibleTo(window) and "val split" not in window.view.scope.text()
    held = window.open_held_out()
    qtbot.waitUntil(lambda: held.start_button.isVisibleTo(held), timeout=TIMEOUT_MS)
    text = held.status.text()
    assert "Held-out predictions for the 3 training images of run exp" in text and "3 short trainings of 5" in text
    # 3 × (6 s to start + 2/3 × (9.0 s + 4 more × 3.0 s) + 2 s to finish) = 66 s, said with its basis
    assert "Estimated time: about 1:06 (3 trainings × (6 s to start + 2/3 of the images × (9.0 s for the first " \
           "epoch + 4 more × 3.0 s) + 2 s to finish)" in text
    assert [s["job"] for s in launcher.specs] == ["evaluate"]  # nothing trained before Start

    held.start_button.click()
    qtbot.waitUntil(lambda: held.view is not None, timeout=TIMEOUT_MS)
    spec = launcher.specs[-1]
    assert spec["job"] == "evaluate_kfold" and spec["epochs"] == 5 and len(spec["folds"]) == 3
    assert held.view.scope.text().startswith("Held-out (k-fold) predictions on the train split: 3 fold models")
    assert "Held-out (k-fold) predictions of run exp" in held.view.title.text()
    assert not held.held_out_button.isVisibleTo(held) and not held.start_button.isVisibleTo(held)

    again = EvaluateWindow(run_dir, run_dir.parents[1], launcher=launcher, kfold=3)
    qtbot.addWidget(again)
    qtbot.waitUntil(lambda: again.view is not None, timeout=TIMEOUT_MS)
    assert again.view.result["from_store"] is True and len(launcher.specs) == 2  # read back, no worker


def test_the_progress_counts_folds_and_epochs(qtbot, run_dir, fake_worker, tmp_path):
    window = EvaluateWindow(run_dir, run_dir.parents[1], launcher=KfoldLauncher(fake_worker, tmp_path), kfold=3)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.start_button.isVisibleTo(window), timeout=TIMEOUT_MS)
    window.progress.setRange(0, 3 * 6)
    window._on_event({"type": "kfold_progress", "fold": 2, "folds": 3, "stage": "training", "epoch": 4, "epochs": 5})
    assert window.progress.value() == 6 + 3 and window.progress.format() == "fold 2 of 3: epoch 4 of 5"
    window._on_event({"type": "kfold_progress", "fold": 3, "folds": 3, "stage": "predicting", "epoch": 5,
                      "epochs": 5})
    assert window.progress.value() == 12 + 5 and "predicting" in window.progress.format()


def test_cancel_before_start_trains_nothing_and_the_browser_offers_the_review(qtbot, run_dir, fake_worker, tmp_path):
    launcher = KfoldLauncher(fake_worker, tmp_path)
    window = EvaluateWindow(run_dir, run_dir.parents[1], launcher=launcher, kfold=3)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.start_button.isVisibleTo(window), timeout=TIMEOUT_MS)
    window.cancel_button.click()
    assert "nothing was trained" in window.status.text() and not launcher.specs
    assert not window.start_button.isVisibleTo(window) and not window.busy

    plan = plan_kfold_evaluation(run_dir, run_dir.parents[1])
    assert plan.stored is None  # nothing stored by a cancel
    val = EvaluateWindow(run_dir, run_dir.parents[1], launcher=launcher)
    qtbot.addWidget(val)
    qtbot.waitUntil(lambda: val.view is not None, timeout=TIMEOUT_MS)
    val.view.result["errors"] = [{"image": "x.jpg", "kind": "missed", "class": "cat", "label": None,
                                  "prediction": None, "confidence": None}]
    val.browse_errors()  # opens once its images.json is read in the background
    qtbot.waitUntil(lambda: val.errors_browser is not None, timeout=TIMEOUT_MS)
    browser = val.errors_browser
    assert browser.review_button.isVisibleTo(browser)
    with qtbot.waitSignal(browser.review_requested):
        browser.review_button.click()
    assert val.held_out_window is not None and val.held_out_window.kfold == 3
    browser.close()


@pytest.mark.parametrize("answer", [False, True])
def test_a_start_pt_only_the_user_can_vouch_for_is_asked_about_and_granted_by_the_door(
        qtbot, run_dir, fake_worker, tmp_path, monkeypatch, answer):
    """The run trained from a .pt outside the runs (a file the user confirmed then): its config.json's
    ``trusted_weights`` counts for nothing; the window asks, and only a yes lets the fold trainings load it."""
    from tests.fixtures.checkpoint_files import write_hostile_checkpoint

    marker = tmp_path / "EXECUTED"
    start = write_hostile_checkpoint(tmp_path / "Downloads" / "start.pt", marker)
    document = json.loads((run_dir / "config.json").read_text())
    document["spec"]["resolved"]["weights"] = str(start)
    document["spec"]["trusted_weights"] = [str(start)]  # the claim of a stored file
    (run_dir / "config.json").write_text(json.dumps(document))
    asked: list[Path] = []
    monkeypatch.setattr("gui.dialogs.confirm_untrusted_weights", lambda parent, path: asked.append(path) or answer)
    launcher = KfoldLauncher(fake_worker, tmp_path)
    window = EvaluateWindow(run_dir, run_dir.parents[1], launcher=launcher, kfold=3)
    qtbot.addWidget(window)
    if not answer:
        qtbot.waitUntil(lambda: not window.busy and window.banner.isVisibleTo(window), timeout=TIMEOUT_MS)
        assert asked == [start] and not launcher.specs and "not evaluated" in window.status.text()
        return
    qtbot.waitUntil(lambda: window.start_button.isVisibleTo(window), timeout=TIMEOUT_MS)
    assert asked == [start]
    window.start_button.click()
    qtbot.waitUntil(lambda: window.view is not None, timeout=TIMEOUT_MS)
    spec = launcher.specs[-1]
    assert spec["trusted_weights"] == [str(start.resolve())] and "trusted_weights" not in spec["run_spec"]
    assert not marker.exists()  # the stand-in worker loads nothing; the app's own side unpickled nothing
