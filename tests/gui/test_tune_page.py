"""The Tune page with a stand-in tune worker: a script that writes the events a search writes (docs/protocol.md's
``trial`` and the search's ``done``), or waits for the stop line. The page's own checks (the door,
core.usecases.tune) run for real on a tiny demo dataset; only the worker is replaced."""

from __future__ import annotations

import json
import os
import pickle
import sys
from pathlib import Path

import pytest

from core.demo.dataset import DemoSpec, generate_demo_dataset
from core.job.jobs import JobSpec
from core.job.protocol import encode, make_event
from core.tune.budget import trials_in_budget
from core.tune.extra import INSTALL_COMMAND
from core.tune.space import yolov5_evolve_meta
from core.tune.folder import TuneFolder
from gui.pages.page import AppServices
from gui.runs_store import RunsStore
from gui.tune import operations
from gui.tune import tune_page as tune_page_module
from gui.tune.tune_page import TunePage

TIMEOUT_MS = 60_000
READ_SETUP = operations.read_setup


@pytest.fixture(scope="module")
def data_yaml(tmp_path_factory) -> Path:
    return generate_demo_dataset(tmp_path_factory.mktemp("data") / "tiny", DemoSpec(n_train=8, n_val=4,
                                                                                    image_size=64, seed=3))


def trial(trial_id: str, state: str, epochs: int, fitness: float | None, lr0: float, reason: str = "") -> dict:
    return make_event("trial", trial=trial_id, run=f"/ws/runs/tune-{trial_id}", state=state, fitness=fitness,
                      epochs=epochs, config={"lr0": lr0, "model": "yolov5n.yaml"}, reason=reason)


def stand_in(tmp_path: Path, events: list[dict], *, wait_for_stop: bool = False, stopped_trials: list | None = None):
    """A launcher whose worker writes ``events``; with ``wait_for_stop`` it then waits for the stop line and ends
    the search ``stopped`` (its ``done`` lists ``stopped_trials``)."""
    script = tmp_path / "tune_worker.py"
    text = "".join(encode(e) for e in events)
    stopped = encode(make_event("done", status="stopped", elapsed_s=1.0, trials=stopped_trials or [],
                                best_trial=None))
    tail = (f"line = sys.stdin.readline()\nsys.stdout.write({stopped!r} if 'stop' in line else '')\n"
            if wait_for_stop else "")
    script.write_text(f"import sys\nsys.stdout.write({text!r})\nsys.stdout.flush()\n{tail}", encoding="utf-8")
    seen: list[JobSpec] = []

    def launcher(job: JobSpec):
        seen.append(job)
        return [sys.executable, "-S", str(script)], dict(os.environ)

    return launcher, seen


def make_page(qtbot, tmp_path: Path, launcher=None, applied: list | None = None) -> TunePage:
    page = TunePage(tmp_path / "ws", launcher=launcher or (lambda job: ([], {})))
    qtbot.addWidget(page)
    page.bind(AppServices(RunsStore(tmp_path / "ws", page),
                          apply_to_next_run=(lambda values, reason="": applied.append((values, reason)) or True)
                          if applied is not None
                          else None))
    page.resize(1280, 720)
    qtbot.waitUntil(lambda: page.setup is not None, timeout=TIMEOUT_MS)
    return page


def test_what_is_searched_is_yolov5s_evolve_table(qtbot, tmp_path):
    page = make_page(qtbot, tmp_path)
    meta = yolov5_evolve_meta()
    rows = {page.space_table.item(r, 0).text(): (page.space_table.item(r, 1).text(), page.space_table.item(r, 2).text())
            for r in range(page.space_table.rowCount())}
    assert rows["lr0"] == (f"{meta['lr0'][1]:g}", f"{meta['lr0'][2]:g}")  # yolov5's own bounds, read from its file
    assert "iou_t" not in rows  # scale 0 in yolov5's table: never mutated by --evolve, not searched here either
    assert page.start_button.isEnabled() == (not page.setup.missing)


def test_without_the_extra_the_page_offers_the_install_command_and_size(qtbot, tmp_path, monkeypatch):
    import core.tune.extra as extra

    monkeypatch.setattr(extra, "missing_tune_packages", lambda: ["ray", "optuna"])
    page = make_page(qtbot, tmp_path)
    assert page.install_box.isVisibleTo(page)
    assert page.install_command.text() == INSTALL_COMMAND and "450 MB" in page.install_label.text()
    assert not page.start_button.isEnabled() and not page.start()


def test_the_trials_the_budget_allows_come_from_the_wizards_epoch_time(qtbot, tmp_path):
    page = make_page(qtbot, tmp_path)
    page.budget_spin.setValue(2.0)
    page.epochs_spin.setValue(10)
    assert "as many trials as" in page.estimate_label.text().lower()
    doc = tmp_path / "wizard.json"
    doc.write_text(json.dumps({"config": {"epochs": 10}, "predicted": {"epoch_s": 60.0}}), encoding="utf-8")
    page.wizard_edit.setText(str(doc))
    page._read_wizard()
    qtbot.waitUntil(lambda: page.epoch_s == 60.0, timeout=TIMEOUT_MS)
    expected = trials_in_budget(7200.0, 60.0, 10, page.setup.slots)  # 12 trials a slot
    assert page.estimate_label.text().startswith(f"The budget allows {expected} trials of 10 epochs")


def test_a_search_fills_a_row_per_trial_the_chart_and_train_with_these(qtbot, tmp_path, data_yaml, monkeypatch):
    monkeypatch.setattr(tune_page_module.operations, "read_setup", lambda: _ready_setup())
    best_config = tmp_path / "best_config.json"
    best_config.write_text(json.dumps({"data": str(data_yaml), "model": "yolov5n.yaml", "imgsz": 64,
                                       "hyp": str(tmp_path / "best_hyp.yaml"), "epochs": 2}), encoding="utf-8")
    events = [make_event("stage", stage="preparing", detail="starting Ray"),
              trial("a1", "running", 0, None, 0.01), trial("b2", "running", 0, None, 0.002),
              trial("a1", "running", 1, 0.12, 0.01), trial("b2", "running", 1, 0.05, 0.002),
              trial("b2", "stopped_early", 1, 0.05, 0.002),
              trial("c3", "failed", 0, None, 0.03, reason="missing-model.yaml does not exist"),
              trial("a1", "completed", 2, 0.2, 0.01),
              make_event("done", status="completed", elapsed_s=3.0, trials=[],
                         best_trial={"run": "/ws/runs/tune-a1", "trial": "a1", "fitness": 0.2,
                                     "config_file": str(best_config)})]
    launcher, seen = stand_in(tmp_path, events)
    applied: list[dict] = []
    page = make_page(qtbot, tmp_path, launcher, applied)
    page.data_edit.setText(str(data_yaml))
    page.model_edit.setText("yolov5n.yaml")
    page.epochs_spin.setValue(2)
    page.device_edit.setText("cpu")
    with qtbot.waitSignal(page.searched, timeout=TIMEOUT_MS) as ended:
        assert page.start()
    assert ended.args[0].status == "completed", page.status_label.text()
    (job,) = seen
    assert job.job == "tune" and job.spec["base"]["config"]["model"] == "yolov5n.yaml"
    assert Path(job.spec["run_dir"]).parent == tmp_path / "ws" / "tune"
    assert page.trials.trial_ids() == ["a1", "b2", "c3"]
    assert [page.trials.cell_text(r, 1) for r in range(3)] == [
        "completed", "stopped early", "failed: missing-model.yaml does not exist"]
    assert page.trials.cell_text(0, 3) == "0.2000" and page.trials.cell_text(2, 3) == "–"
    assert "lr0 0.01" in page.trials.cell_text(0, 4)
    assert page.chart.values == [(1, 0.2, True), (2, 0.05, False)]  # the failed trial has no fitness to draw
    assert "tune-a1" in page.status_label.text() and page.train_button.isEnabled()
    page.grab().save(str(tmp_path / "tune_page.png"))

    assert page.train_with_best()
    qtbot.waitUntil(lambda: bool(applied), timeout=TIMEOUT_MS)
    values, reason = applied[0]
    assert values["hyp"] == str(tmp_path / "best_hyp.yaml") and values["model"] == "yolov5n.yaml"
    assert values["imgsz"] == 64 and "epochs" not in values  # the full training's length is the user's
    assert reason == f"the best trial of search {Path(job.spec['run_dir']).name}"


def test_stop_sends_the_stop_line_and_resume_continues_the_same_search(qtbot, tmp_path, data_yaml, monkeypatch):
    monkeypatch.setattr(tune_page_module.operations, "read_setup", lambda: _ready_setup())
    last_word = dict(trial("a1", "stopped", 1, 0.1, 0.01), metrics={})
    launcher, seen = stand_in(tmp_path, [trial("a1", "running", 1, 0.1, 0.01)], wait_for_stop=True,
                              stopped_trials=[{k: v for k, v in last_word.items() if k not in ("v", "t", "type")}])
    page = make_page(qtbot, tmp_path, launcher)
    page.data_edit.setText(str(data_yaml))
    page.model_edit.setText("yolov5n.yaml")
    page.device_edit.setText("cpu")
    page.start()
    qtbot.waitUntil(lambda: page.trials.trial_ids() == ["a1"], timeout=TIMEOUT_MS)
    assert page.stop_button.isEnabled() and not page.start_button.isEnabled()
    with qtbot.waitSignal(page.searched, timeout=TIMEOUT_MS) as ended:
        assert page.stop()
    assert ended.args[0].status == "stopped"
    assert page.start_button.isEnabled() and not page.stop_button.isEnabled()
    assert page.resume_button.isEnabled() and "Resume" in page.status_label.text()
    # The search's done says the running trial stopped: its row too, at its last epoch (issue 32: "running / 0")
    assert page.trials.cell_text(0, 1) == "stopped" and page.trials.cell_text(0, 2) == "1"
    first = Path(seen[0].spec["run_dir"])
    # Ray Tune's experiment, as the real worker leaves it (what a restore reads): its tuner.pkl recorded as the app's
    (first / "ray").mkdir()
    (first / "ray" / "tuner.pkl").write_bytes(pickle.dumps({}))
    TuneFolder(first).record_state(page.workspace)
    # Issue 32: a replay on the Runs page changed the form's dataset meanwhile — the search keeps its own, and says so
    page.services.current.dataset_changed.emit(str(tmp_path / "other" / "data.yaml"))
    with qtbot.waitSignal(page.searched, timeout=TIMEOUT_MS):
        page.resume_button.click()
        qtbot.waitUntil(lambda: page.runner.active, timeout=TIMEOUT_MS)
        assert "resumes with the settings it started with" in page.status_label.text()
        assert str(tmp_path / "other" / "data.yaml") in page.status_label.text()
        page.stop()  # the stand-in waits for the stop line again
    resumed = seen[1].spec
    assert resumed["resume"] is True and resumed["run_dir"] == str(first)  # the same search, restored
    assert resumed["base"]["config"]["data"] == seen[0].spec["base"]["config"]["data"] == str(data_yaml)
    assert page.trials.trial_ids() == ["a1"]  # its trials keep their rows


def test_a_dataset_problem_is_said_and_nothing_starts(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(tune_page_module.operations, "read_setup", lambda: _ready_setup())
    launcher, seen = stand_in(tmp_path, [])
    page = make_page(qtbot, tmp_path, launcher)
    page.data_edit.setText(str(tmp_path / "nowhere" / "data.yaml"))
    page.start()
    qtbot.waitUntil(lambda: page.start_button.isEnabled(), timeout=TIMEOUT_MS)
    assert "nowhere" in page.status_label.text() and not seen


def _ready_setup():
    """This machine's setup as if the extra were installed (the page's start does not need Ray: the worker is
    the stand-in)."""
    real = READ_SETUP()
    return operations.TuneSetup([], real.bounds, real.choices, real.slots, "")


def test_the_fitness_axis_fits_the_data_and_goes_no_more_than_a_sliver_below_zero():
    from gui.tune.fitness_chart import fitness_range

    low, high = fitness_range([0.0, 0.0])
    assert -0.001 <= low < 0.0 and 0.0 < high <= 0.05  # pyqtgraph's own range went to -0.4 for lone zeros
    low, high = fitness_range([0.30, 0.34])
    assert 0.28 < low < 0.30 and 0.34 < high < 0.36


def test_a_dataset_chosen_elsewhere_is_said_and_a_resume_shows_what_it_keeps(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(tune_page_module.operations, "read_setup", lambda: _ready_setup())
    page = make_page(qtbot, tmp_path)
    page.services.current.dataset_changed.emit("/elsewhere/data.yaml")
    assert page.data_edit.text() == "/elsewhere/data.yaml"
    assert "/elsewhere/data.yaml" in page.status_label.text() and "another page" in page.status_label.text()
    page.status_label.setText("")
    page.services.current.dataset_changed.emit("/elsewhere/data.yaml")  # no change: nothing to say
    assert page.status_label.text() == ""


def test_only_real_changes_are_listed_for_confirmation():
    """"Train with these" with the form's own image size: "imgsz: 64 → 64" is no change (issue 32)."""
    from gui.widgets.diagnosis_banner import real_changes

    rows = [("imgsz", "64", "64", "best trial"), ("hyp", "", "/t/best_hyp.yaml", "best trial")]
    assert real_changes(rows) == [rows[1]]
