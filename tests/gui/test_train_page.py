"""The real Train page driven through a real subprocess replaying a recorded 3-epoch run."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from core.job.jobs import JobSpec, worker_died_words
from core.run.files import EVENTS_FILE
from core.training.config import MachineFacts
from gui import dialogs
from gui.train.train_page import TrainPage
from tests.core.test_dataset_validate import build
from tests.fixtures.checkpoint_files import record_as_own
from tests.waits import TIMEOUT_MS


class FakeLauncher:
    """The page's launcher: the fake worker, writing the run's events file like a real one."""

    def __init__(self, fake_worker) -> None:
        self.fake_worker = fake_worker
        self.options: list[str] = []
        self.events: Path | None = None  # another recorded stream to replay
        self.spec_files: list[Path] = []

    def __call__(self, job: JobSpec) -> tuple[list[str], dict[str, str]]:
        assert job.job == "train" and job.path is not None
        spec_file = job.path
        self.spec_files.append(spec_file)
        extra = {"events": self.events} if self.events else {}
        argv = self.fake_worker("--events-out", str(spec_file.parent / EVENTS_FILE), *self.options, **extra)
        return argv, dict(os.environ)


@pytest.fixture
def data_yaml(tmp_path: Path) -> Path:
    return build(tmp_path / "data")  # a dataset that passes the check before Start


@pytest.fixture
def launcher(fake_worker) -> FakeLauncher:
    return FakeLauncher(fake_worker)


@pytest.fixture
def page(qtbot, tmp_path, data_yaml, launcher):
    page = TrainPage(tmp_path / "ws", launcher=launcher, prepare_demo=False, machine_facts=MachineFacts(gpu_count=0))
    qtbot.addWidget(page)
    page.form.set_data_path(str(data_yaml))
    page.revalidate()
    qtbot.waitUntil(page.start_button.isEnabled, timeout=TIMEOUT_MS)  # the dataset check passed
    yield page
    if page.active:
        page.session.kill()
        qtbot.waitUntil(lambda: not page.active, timeout=TIMEOUT_MS)


def _run_dirs(page: TrainPage) -> list[Path]:
    return sorted((page.workspace / "runs").iterdir())


def test_replayed_run_fills_progress_plots_and_finished_panel(qtbot, page):
    summaries: list[str] = []
    page.summary_changed.connect(summaries.append)
    assert page.start_button.isEnabled()
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS) as ended:
        page.start_button.click()
    outcome = ended.args[0]
    assert outcome.status == "completed"
    progress = page.session.progress
    assert (progress.epoch, progress.epochs, progress.batch, progress.batches) == (2, 3, 4, 4)
    assert page.progress_panel.epoch_bar.value() == page.progress_panel.epoch_bar.maximum()
    assert page.progress_panel.run_bar.value() == page.progress_panel.run_bar.maximum()
    assert "Epoch 3/3 · batch 4/4" in page.progress_panel.detail_label.text()
    assert page.plots.series["train/box"].size == 12  # every batch event
    assert page.plots.series["val/box"].size == 3 and page.plots.series["map50"].size == 3
    x, _ = page.plots.series["train/box"].view()
    assert x[-1] == pytest.approx(3.0)  # fractional epochs: the last batch of the third epoch
    panel = page.status_panel
    assert panel.isVisibleTo(page) and panel.mode == "finished"
    assert panel.map50 == pytest.approx(outcome.done["final_metrics"]["map50"])
    assert "0.003" in panel.facts_label.text()  # best mAP@0.5 of best.pt, shown with the weights' paths
    assert str(page.session.run_dir / "weights" / "best.pt") in panel.facts_label.text()
    assert not page.resume_button.isEnabled()  # a completed run has nothing to resume
    assert page.start_button.isEnabled()
    assert summaries[-1] == "Last run exp: Completed"
    assert page.log_view.text.toPlainText()  # log events reached the log view


def test_second_start_is_refused_and_stop_twice_is_harmless(qtbot, page, launcher):
    launcher.options = ["--pause-after", "60"]
    summaries: list[str] = []
    page.summary_changed.connect(summaries.append)
    assert page.control.start_run()
    qtbot.waitUntil(lambda: page.session.progress.epochs == 3, timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: bool(summaries) and summaries[-1].startswith("Run exp · epoch 1/3 · "),
                    timeout=TIMEOUT_MS)
    assert not page.start_button.isEnabled()
    assert page.control.start_run() is False  # e.g. from the Ctrl+Enter shortcut
    assert page.banner.isVisibleTo(page) and page.banner.level == "warning"
    assert "still training" in page.banner.text
    assert len(_run_dirs(page)) == 1
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS) as ended:
        page.control.stop_run()
        assert page.stop_button.text() == "Stopping…" and not page.stop_button.isEnabled()
        assert page.kill_button.isVisibleTo(page)
        page.control.stop_run()  # pressing again does nothing harmful
    assert ended.args[0].status == "stopped"
    assert page.status_panel.mode == "finished"
    assert page.resume_button.isEnabled()  # stopped with weights/last.pt
    assert page.stop_button.text() == "Stop" and not page.kill_button.isVisibleTo(page)


def test_killed_worker_shows_failure_panel_and_resume_continues(qtbot, page, launcher, monkeypatch):
    launcher.options = ["--die-after", "75"]  # after the first checkpoint (line 71)
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS) as ended:
        page.control.start_run()
    outcome = ended.args[0]
    assert outcome.failed and outcome.kind == "worker_died"
    panel = page.status_panel
    assert panel.mode == "failed" and panel.isVisibleTo(page)
    assert panel.message_label.text() == worker_died_words(None)[0]  # killed by a signal: the code is unknown
    assert panel.resume_button.isVisibleTo(page) and page.resume_button.isEnabled()
    assert panel.log_tail.toPlainText()
    run_dir = page.session.run_dir

    launcher.options = []
    (run_dir / "weights" / "provenance.json").unlink()  # the workspace's record gone: a run copied in from elsewhere
    asked: list[Path] = []
    monkeypatch.setattr(dialogs, "confirm_untrusted_weights", lambda parent, path: asked.append(path) or False)
    assert page.control.resume_run() is False and asked == [run_dir / "weights" / "last.pt"]
    record_as_own(page.workspace, run_dir / "weights" / "last.pt")  # confirmed once: recorded from then on
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS) as resumed:
        panel.resume_button.click()
    spec = json.loads(launcher.spec_files[-1].read_text(encoding="utf-8"))
    assert spec["resume"] is True and launcher.spec_files[-1].parent == run_dir
    assert resumed.args[0].status == "completed"
    assert len(_run_dirs(page)) == 1  # resumed in place, not a new run
    x, _ = page.plots.series["train/box"].view()
    assert page.plots.series["train/box"].size == 12 and (x[1:] > x[:-1]).all()  # redone batches replaced the old


def test_kill_is_offered_only_after_stop_and_asks_first(qtbot, page, launcher, monkeypatch):
    launcher.options = ["--pause-after", "60", "--ignore-stop"]  # a stuck worker
    page.control.start_run()
    qtbot.waitUntil(lambda: page.session.progress.epochs == 3, timeout=TIMEOUT_MS)
    assert not page.kill_button.isVisibleTo(page)
    answers = iter([False, True])
    monkeypatch.setattr(dialogs, "confirm_kill", lambda parent: next(answers))
    page.stop_button.click()
    assert page.kill_button.isVisibleTo(page)
    page.control.kill_run()  # declined
    assert page.active
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS) as ended:
        page.control.kill_run()
    assert ended.args[0].kind == "killed"
    assert page.status_panel.mode == "failed"


def test_validation_errors_disable_start_and_name_the_value(qtbot, page, tmp_path):
    missing = tmp_path / "nowhere" / "data.yaml"
    page.form.set_data_path(str(missing))
    page.revalidate()
    assert not page.start_button.isEnabled()
    assert any(str(missing) in m for m in page.problems.messages)
    page.form.set_data_path(str(tmp_path / "data" / "data.yaml"))
    page.form.set_model("yolov5q.yaml")
    page.revalidate()
    assert not page.start_button.isEnabled()
    assert any("yolov5q.yaml" in m for m in page.problems.messages)
    assert page.control.start_run() is False
    assert not (page.workspace / "runs").exists()
    assert page.banner.isVisibleTo(page) and page.banner.level == "error"
    page.form.set_model("yolov5n.yaml")
    qtbot.waitUntil(page.start_button.isEnabled, timeout=TIMEOUT_MS)  # debounced re-check after the edit
    assert not page.banner.isVisibleTo(page)  # "fix the problems first" went with the problems


def test_untrusted_checkpoint_needs_confirmation(qtbot, page, tmp_path, monkeypatch):
    weights = tmp_path / "downloaded.pt"
    weights.write_bytes(b"not really a pickle")
    page.form.set_model(str(weights))
    page.revalidate()
    monkeypatch.setattr(dialogs, "confirm_untrusted_weights", lambda parent, path: False)
    assert page.control.start_run() is False
    assert not (page.workspace / "runs").exists()
    monkeypatch.setattr(dialogs, "confirm_untrusted_weights", lambda parent, path: True)
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS):
        assert page.control.start_run()
    spec = json.loads((page.session.run_dir / "spec.json").read_text(encoding="utf-8"))
    assert spec["trusted_weights"] == [str(weights.resolve())]


def test_a_model_yaml_yolov5_would_run_as_code_needs_confirmation(qtbot, page, tmp_path, monkeypatch):
    import yaml

    from core.model_catalog import yolov5_package_dir

    doc = yaml.safe_load((yolov5_package_dir() / "models" / "yolov5n.yaml").read_text())
    doc["activation"] = "__import__('os').system('true')"
    model = tmp_path / "colleague.yaml"
    model.write_text(yaml.safe_dump(doc))
    page.form.set_model(str(model))
    page.revalidate()
    qtbot.waitUntil(page.start_button.isEnabled, timeout=TIMEOUT_MS)
    asked: list[str] = []
    monkeypatch.setattr(dialogs, "confirm_untrusted_model",
                        lambda parent, path, reason: asked.append(reason) or False)
    assert page.control.start_run() is False
    assert not (page.workspace / "runs").exists() and "activation" in asked[0]
    monkeypatch.setattr(dialogs, "confirm_untrusted_model", lambda parent, path, reason: True)
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS):
        assert page.control.start_run()
    spec = json.loads((page.session.run_dir / "spec.json").read_text(encoding="utf-8"))
    assert spec["trusted_model"] is True


def test_demo_dataset_is_prepared_in_the_background_on_first_show(qtbot, tmp_path, launcher):
    page = TrainPage(tmp_path / "ws", launcher=launcher, machine_facts=MachineFacts(gpu_count=0))
    qtbot.addWidget(page)
    page.show()
    assert page.problems.messages == [] and not page.start_button.isEnabled()  # "preparing", not an error
    demo = (tmp_path / "ws" / "demo" / "data.yaml").resolve()
    qtbot.waitUntil(lambda: page.form.data_edit.text() == str(demo), timeout=TIMEOUT_MS)
    assert page.form.is_demo() and page.form.spin("imgsz").value() == 128 and page.form.spin("epochs").value() == 30
    assert not page.form.demo_progress.isVisible()
    qtbot.waitUntil(page.start_button.isEnabled, timeout=TIMEOUT_MS)


def test_error_event_shows_message_hint_and_traceback_behind_details(qtbot, page, launcher, tmp_path):
    recorded = (Path(__file__).parents[1] / "fixtures" / "recorded_train_events.jsonl").read_text().splitlines()
    error = {"v": 1, "type": "error", "t": 2.0, "kind": "out_of_memory", "message": "CUDA out of memory.",
             "hint": "Lower the batch size, then resume from the last checkpoint.", "exception": "OutOfMemoryError",
             "traceback": "Traceback (most recent call last):\n  ...\ntorch.OutOfMemoryError: CUDA out of memory."}
    done = {"v": 1, "type": "done", "t": 3.0, "status": "failed", "elapsed_s": 12.0, "best": "", "last": "last.pt",
            "epochs_completed": 1, "stopped_at": None}
    stream = tmp_path / "oom.jsonl"
    stream.write_text("\n".join(recorded[:75] + [json.dumps(error), json.dumps(done)]) + "\n", encoding="utf-8")
    launcher.events = stream
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS) as ended:
        page.control.start_run()
    outcome = ended.args[0]
    assert outcome.failed and outcome.kind == "out_of_memory"
    panel = page.status_panel
    assert panel.mode == "failed"
    assert panel.message_label.text() == "CUDA out of memory."
    assert "Lower the batch size" in panel.facts_label.text()
    assert panel.details_button.isVisibleTo(page) and not panel.details_text.isVisibleTo(page)
    panel.details_button.click()
    assert panel.details_text.isVisibleTo(page) and "OutOfMemoryError" in panel.details_text.toPlainText()
    assert page.resume_button.isEnabled()  # the first epoch's checkpoint exists
    assert "Failed: CUDA out of memory." in page.progress_panel.stage_label.text()


def test_a_finished_run_opens_in_a_viewer_while_another_trains(qtbot, page, launcher):
    from core.runs.store import RunInfo

    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS):
        assert page.control.start_run()
    finished = page.session.run_dir
    launcher.options = ["--pause-after", "60"]
    assert page.control.start_run()
    qtbot.waitUntil(lambda: page.session.progress.epochs == 3, timeout=TIMEOUT_MS)
    training = page.session
    shown: list[str] = []
    page.services.current.show_requested.connect(shown.append)
    assert page.control.open_run(RunInfo(name=finished.name, path=str(finished), status="completed"))
    [viewer] = page.control.viewers
    assert page.session is training and page.active  # the training run stays on the page
    assert "keeps training" in viewer.note.text() and training.name in viewer.back_button.text()
    qtbot.waitUntil(lambda: viewer.session.progress.status == "completed", timeout=TIMEOUT_MS)
    assert viewer.plots.series["map50"].size == 3
    viewer.back_button.click()  # back to the training run: the viewer goes
    assert shown == ["train"]
    qtbot.waitUntil(lambda: not page.control.viewers, timeout=TIMEOUT_MS)


def test_the_form_shows_the_run_on_screen_read_only_while_it_trains(qtbot, page, launcher):
    (page.workspace / "runs" / "exp").mkdir(parents=True)  # taken: the run becomes exp2
    page.form.spin("epochs").setValue(3)
    launcher.options = ["--pause-after", "60"]
    assert page.control.start_run()
    assert page.session.name == "exp2" and page.form.editors["name"].value() == "exp2"
    assert not page.form.isEnabled() and "exp2" in page.options.title()
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS):
        page.control.stop_run()
    assert page.form.isEnabled() and page.options.title() == "Options for the next run"
    assert page.form.spin("epochs").value() == 3


def test_wizard_settings_start_a_run_that_shows_predicted_against_measured(qtbot, page, data_yaml):
    doc = {"config": {"data": str(data_yaml), "model": "yolov5n.yaml", "imgsz": 64, "batch": 8, "workers": 1,
                      "cache": "ram", "device": "cpu", "epochs": 3},
           "predicted": {"images_per_s": 55.0, "epoch_s": 2.0, "total_s": 6.0},
           "reasons": {"workers": {"value": 1, "why": "w", "evidence": "e", "step": "measure", "estimated": False}}}
    assert page.control.use_wizard(doc)
    assert page.form.config().workers == 1 and page.form.config().cache == "ram" and page.form.config().imgsz == 64
    assert "The wizard set 3 epochs" in page.banner.text and "predicted 6 s (2 s per epoch)" in page.banner.text
    qtbot.waitUntil(page.start_button.isEnabled, timeout=TIMEOUT_MS)
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS):
        page.start_button.click()
    assert (page.session.run_dir / "wizard.json").is_file()
    text = page.wizard_prediction.figures.text()
    assert "predicted 55 images/s" in text and "measured" in text and "…" not in text


def test_the_wizard_banner_follows_the_form_after_the_hand_over(qtbot, page, data_yaml):
    """Issue 32: "The wizard set 10 epochs" stayed after the user set 3."""
    doc = {"config": {"data": str(data_yaml), "model": "yolov5n.yaml", "imgsz": 64, "batch": 8, "workers": 1,
                      "cache": "", "device": "cpu", "epochs": 10},
           "predicted": {"images_per_s": 55.0, "epoch_s": 2.0, "total_s": 20.0}, "reasons": {}}
    assert page.control.use_wizard(doc)
    assert "The wizard set 10 epochs" in page.banner.text
    page.form.spin("epochs").setValue(3)
    qtbot.waitUntil(lambda: "Changed since the wizard" in page.banner.text, timeout=TIMEOUT_MS)
    assert "Epochs 3 (the wizard set 10)" in page.banner.text and "10 epochs" not in page.banner.text
    page.form.spin("epochs").setValue(10)  # back to the wizard's: its own words again
    qtbot.waitUntil(lambda: "The wizard set 10 epochs" in page.banner.text, timeout=TIMEOUT_MS)


def test_resume_is_not_offered_for_a_run_that_is_gone(qtbot, page, launcher):
    """Issue 32: Resume stayed enabled with no run to resume (the stopped run deleted on the Runs page)."""
    launcher.options = ["--pause-after", "60"]
    assert page.control.start_run()
    qtbot.waitUntil(lambda: page.session.progress.batch >= 1, timeout=TIMEOUT_MS)
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS):
        page.control.stop_run()
    assert page.resume_button.isEnabled()
    run_dir = page.session.run_dir
    with qtbot.waitSignal(page.services.runs.changed, timeout=TIMEOUT_MS):
        page.services.runs.reload()  # listed with it still there: Resume stays
    assert page.resume_button.isEnabled()
    shutil.rmtree(run_dir)  # deleted (the Runs page's Delete moves it away the same)
    page.services.runs.reload()
    qtbot.waitUntil(lambda: not page.resume_button.isEnabled(), timeout=TIMEOUT_MS)
    assert "Nothing to resume" in page.resume_button.toolTip()


def test_a_stop_says_what_resume_will_redo(qtbot, page, launcher):
    launcher.options = ["--pause-after", "60"]
    assert page.control.start_run()
    qtbot.waitUntil(lambda: page.session.progress.batch >= 1, timeout=TIMEOUT_MS)
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS):
        page.control.stop_run()
    words = page.status_panel.message_label.text()
    assert "Resume redoes epoch" in words and "from its first batch" in words and "weights reached" in words
    assert "redone from its first batch" in page.resume_button.toolTip()


def test_the_completion_card_quotes_the_runs_average_speed(qtbot, tmp_path):
    from core.job.jobs import fold_outcome
    from core.run.progress import RunProgress
    from gui.widgets.progress_panel import ProgressPanel
    from gui.train.run_status_panel import RunStatusPanel

    done = {"type": "done", "status": "completed", "elapsed_s": 60.0, "epochs_completed": 1,
            "efficiency": {"images_per_s": 6.94}}
    outcome = fold_outcome(done, None, exit_code=0)
    progress = RunProgress()
    for event in ({"type": "epoch_start", "epoch": 0, "epochs": 1, "batches": 4},
                  {"type": "batch", "epoch": 0, "epochs": 1, "index": 3, "count": 4, "window": {"images_per_s": 65.0}},
                  done):
        progress.feed(event)
    panel, bar = RunStatusPanel(), ProgressPanel()
    qtbot.addWidget(panel)
    qtbot.addWidget(bar)
    panel.show_outcome(outcome, run_dir=tmp_path, progress=progress, log_tail=[], can_resume=False)
    bar.show_progress("Run exp", progress, outcome)
    assert "6.9 images/s over the whole run" in panel.facts_label.text()
    assert "6.9 img/s on average" in bar.detail_label.text() and "65" not in bar.detail_label.text()
    # Issue 32: images trained / training time, beside the figures it divides — not the batch loop's own rate
    # (175 where 2,304 images in 0:28 is 82), never "—" on a run too short for the efficiency summary
    timing = {"images": 2304, "images_per_s": 175.0}
    counted = fold_outcome(dict(done, elapsed_s=28.0, efficiency={}, run_timing=timing), None, exit_code=0)
    panel.show_outcome(counted, run_dir=tmp_path, progress=progress, log_tail=[], can_resume=False)
    assert "82.3 images/s (2304 images in 0:28)" in panel.facts_label.text()


def test_a_wizard_document_naming_a_meeting_point_needs_a_yes_naming_it(qtbot, page, data_yaml, monkeypatch):
    """A document never decides alone where this machine connects (the rendezvous unpickles what it serves)."""
    from gui import dialogs

    asked: list[tuple[str, str]] = []
    answers = iter([False, True])
    monkeypatch.setattr(dialogs, "confirm_endpoint",
                        lambda parent, endpoint, source: asked.append((endpoint, source)) or next(answers))
    doc = {"config": {"data": str(data_yaml), "nnodes": 2, "rdzv_endpoint": "203.0.113.9:29400"}}
    assert page.control.use_wizard(doc)
    assert asked[0][0] == "203.0.113.9:29400" and page.form.config().rdzv_endpoint == ""  # no: left out
    assert page.form.config().nnodes == 2  # the rest of the settings still apply
    assert page.control.use_wizard(doc)
    assert page.form.config().rdzv_endpoint == "203.0.113.9:29400"  # yes: kept
    assert doc["config"]["rdzv_endpoint"] == "203.0.113.9:29400"  # the caller's document is not edited


class MachineLauncher(FakeLauncher):
    """Launches as machine ``node_rank`` of a two-machine run: the run's spec says so, as machine 1's would."""

    def __init__(self, fake_worker, node_rank: int) -> None:
        super().__init__(fake_worker)
        self.node_rank = node_rank

    def __call__(self, job: JobSpec) -> tuple[list[str], dict[str, str]]:
        config_file = job.path.parent / "config.json"
        config = json.loads(config_file.read_text(encoding="utf-8"))
        config["spec"]["topology"] = {"nnodes": 2, "nproc_per_node": 1, "node_rank": self.node_rank}
        config_file.write_text(json.dumps(config), encoding="utf-8")
        return super().__call__(job)


@pytest.mark.parametrize("node_rank", [0, 1])
def test_resume_before_the_first_checkpoint_is_offered_where_the_cli_resumes(qtbot, tmp_path, data_yaml,
                                                                             fake_worker, monkeypatch, node_rank):
    """Machine 1 of a several-machines run saves no last.pt (rank 0 sends it at resume): the Train page offers
    Resume exactly when ``yolostudio resume`` would go ahead (``core.run.folder.RunFolder.resume_problem``)."""
    from cli.main import main
    from tests.cli.test_trust_verbs import NoWorker

    launcher = MachineLauncher(fake_worker, node_rank)
    launcher.options = ["--die-after", "5"]  # before the first checkpoint: no weights/last.pt on this machine
    page = TrainPage(tmp_path / "ws", launcher=launcher, prepare_demo=False, machine_facts=MachineFacts(gpu_count=0))
    qtbot.addWidget(page)
    page.form.set_data_path(str(data_yaml))
    page.revalidate()
    qtbot.waitUntil(page.start_button.isEnabled, timeout=TIMEOUT_MS)
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS) as ended:
        page.control.start_run()
    assert ended.args[0].failed
    run_dir = page.session.run_dir
    assert not (run_dir / "weights" / "last.pt").exists()
    offered = page.resume_button.isEnabled()
    assert page.status_panel.resume_button.isVisibleTo(page) is offered
    monkeypatch.setattr("cli.verbs.resume.render_job", NoWorker)
    NoWorker.started.clear()
    code = main(["--workspace", str(tmp_path / "ws"), "resume", run_dir.name])
    assert offered is (node_rank == 1) and (code == 0) is offered and bool(NoWorker.started) is offered
