"""The Wizard page: the five steps on injected facts, measuring through a stand-in worker (progress, then the
Review table), a failed measurement still recommending, the prepared copy, and the hand-over to the Train page;
the Train page's predicted-vs-measured line for a run started from the wizard."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import psutil
import pytest
from PySide6.QtCore import Qt

from core.environment.facts import EnvironmentFacts, GpuFacts, NvmlFacts, SystemFacts, TorchFacts
from core.job.jobs import JobSpec
from core.run.folder import RunFolder
from core.job.protocol import encode, make_event
from core.wizard.inputs import Measurements
from gui import dialogs
from gui.pages.page import AppServices
from gui.wizard.wizard_page import DATASET, MEASURE, REVIEW, WizardPage
from gui.runs_store import RunsStore
from gui.train.wizard_prediction import WizardPrediction
from tests.core.test_dataset_prepare import dataset
from tests.stored_weights import store_file
from tests.waits import TIMEOUT_MS

CPU_BOX = EnvironmentFacts(system=SystemFacts(os="Linux", logical_cores=2, usable_cores=2, ram_available_gb=6.0,
                                              shm_free_gb=3.0))
TWO_GPUS = EnvironmentFacts(system=SystemFacts(os="Linux", logical_cores=32, usable_cores=16, ram_available_gb=60,
                                               shm_free_gb=30),
                            nvml=NvmlFacts(available=True, gpus=[GpuFacts(i, "NVIDIA GeForce RTX 4090",
                                                                          memory_total_gb=24, capability=[8, 9])
                                                                 for i in range(2)]),
                            torch=TorchFacts(cuda_available=True, device_count=2))
MEASURED = Measurements(imgsz=128, batch=16, model="yolov5n.yaml", loader={0: 9.0, 1: 16.0, 2: 18.0},
                        loader_prepared={0: 250.0, 1: 420.0, 2: 460.0}, demand=70.0, cache_ram_gb=0.01,
                        failures={"batch": "no CUDA device"})


def stand_in(tmp_path: Path, m: Measurements | None, *, fail: str = ""):
    lines = [make_event("stage", stage="starting", job="wizard_measure", pid=1, create_time=0.0, python="", started=0.0)]
    for i, step in enumerate(("cache", "loader")):
        lines += [make_event("wizard_step", step=step, index=i, count=7, status="started"),
                  make_event("wizard_step", step=step, index=i, count=7, status="done", detail=f"{step} figures")]
    if fail:
        lines += [make_event("error", kind="dataset", message=fail, hint=""),
                  make_event("done", status="failed", elapsed_s=1.0)]
    else:
        lines.append(make_event("done", status="completed", elapsed_s=1.0, measurements=m.to_json()))
    script = tmp_path / "measure.py"
    script.write_text(f"import sys\nsys.stdout.write({''.join(encode(e) for e in lines)!r})\nsys.stdout.flush()\n"
                      + ("sys.exit(1)\n" if fail else ""), encoding="utf-8")
    seen: list[dict] = []

    def launcher(job: JobSpec):
        assert job.job == "wizard_measure"
        seen.append(job.spec)
        return [sys.executable, "-S", str(script)], dict(os.environ)

    return launcher, seen


@pytest.fixture
def make_page(qtbot, tmp_path):
    def make(facts=CPU_BOX, launcher=None):
        kwargs = {"launcher": launcher} if launcher else {}
        page = WizardPage(tmp_path / "ws", facts=facts, **kwargs)
        handed: list[dict] = []
        page.bind(AppServices(RunsStore(tmp_path / "ws", page), use_wizard=lambda doc: handed.append(doc) or True))
        qtbot.addWidget(page)
        page.handed = handed
        qtbot.waitUntil(lambda: "usable cores" in page.hardware_text.text(), timeout=TIMEOUT_MS)
        return page

    return make


def recommend_now(page: WizardPage, qtbot, m: Measurements) -> None:
    with qtbot.waitSignal(page.recommended, timeout=TIMEOUT_MS):
        page.finish(m)


def choose_dataset(page: WizardPage, qtbot, data: Path) -> None:
    page.show_step(DATASET)
    page.data_edit.setText(str(data))
    page.read_dataset()
    qtbot.waitUntil(lambda: page.summary_ds is not None, timeout=TIMEOUT_MS)


def test_steps_measure_review_and_train(make_page, qtbot, tmp_path):
    data = dataset(tmp_path / "ds", {f"i{n}": (1200, 900) for n in range(4)})
    launcher, seen = stand_in(tmp_path, MEASURED)
    page = make_page(launcher=launcher)
    assert not page.next_button.isHidden() and not page.back_button.isEnabled()
    choose_dataset(page, qtbot, data)
    assert "4 training and 1 validation images" in page.dataset_text.text()
    page.imgsz_check.setChecked(True)
    page.imgsz_spin.setValue(128)
    page.show_step(MEASURE)
    assert page.measure()
    qtbot.waitUntil(lambda: page.stack.currentIndex() == REVIEW, timeout=TIMEOUT_MS)
    assert seen[0]["imgsz"] == 128 and seen[0]["device"] == "cpu" and seen[0]["workers"] == [0, 1, 2]
    assert [page.measure_list.item(i).text() for i in range(2)] == ["cache size: cache figures",
                                                                      "data loader (originals): loader figures"]
    rows = {page.review.table.item(r, 0).data(Qt.ItemDataRole.UserRole): page.review.table.item(r, 1).text()
            for r in range(page.review.table.rowCount())}
    assert rows["workers"] == "1" and rows["data"] in ("prepared copy", "prepared copy + RAM cache")  # measured: no '*'
    assert "batch probe" not in page.review.notes.text() or "no CUDA" in page.review.notes.text()
    assert page.prepare_button.isVisibleTo(page)
    assert page.review.command_choice.findData("prepare") >= 0
    with qtbot.waitSignal(page.applied, timeout=TIMEOUT_MS):  # the copy it recommends is made first
        page.train_button.click()
    [doc] = page.handed
    assert doc["config"]["imgsz"] == 128 and doc["predicted"]["images_per_s"] > 0
    copy = Path(doc["config"]["data"])
    assert copy.is_file() and copy != data.absolute() and "Training on the prepared copy of" in page.banner.text


def test_a_failed_measurement_still_recommends_with_estimates(make_page, qtbot, tmp_path):
    data = dataset(tmp_path / "ds", {"a": (320, 240)})
    launcher, _ = stand_in(tmp_path, None, fail="the dataset won't load: labels/train is not readable")
    page = make_page(facts=TWO_GPUS, launcher=launcher)
    choose_dataset(page, qtbot, data)
    page.show_step(MEASURE)
    assert page.measure()
    qtbot.waitUntil(lambda: page.stack.currentIndex() == REVIEW, timeout=TIMEOUT_MS)
    assert "won't load" in page.banner.text and "won't load" in page.review.notes.text()
    assert "* estimated" in page.review.notes.text()
    assert page.doc["config"]["device"] == "0,1" and "torchrun" in page.doc["commands"]


def test_gpu_choice_and_skip(make_page, qtbot, tmp_path):
    data = dataset(tmp_path / "ds", {"a": (320, 240)})
    page = make_page(facts=TWO_GPUS)
    page.gpu_list.item(1).setCheckState(Qt.CheckState.Unchecked)
    assert page.chosen_gpus() == [0]
    choose_dataset(page, qtbot, data)
    page.show_step(MEASURE)
    with qtbot.waitSignal(page.recommended, timeout=TIMEOUT_MS):
        page.skip_button.click()
    assert page.stack.currentIndex() == REVIEW and page.doc["config"]["device"] == "0"
    assert "torchrun" not in page.doc["commands"]


def test_prepare_copy_points_the_config_at_it(make_page, qtbot, tmp_path):
    data = dataset(tmp_path / "ds", {f"i{n}": (1200, 900) for n in range(3)})
    page = make_page()
    choose_dataset(page, qtbot, data)
    page.imgsz_check.setChecked(True)
    page.imgsz_spin.setValue(128)
    recommend_now(page, qtbot, MEASURED)
    assert page.doc["config"]["data"] == str(data.absolute())
    page.prepare_copy()
    qtbot.waitUntil(lambda: page.doc["config"]["data"] != str(data.absolute()), timeout=TIMEOUT_MS)
    assert Path(page.doc["config"]["data"]).is_file() and "prepared" in page.doc["config"]["data"]
    assert not page.prepare_button.isVisibleTo(page) and "prepare" not in page.doc["commands"]


def test_prediction_line_compares_and_names_the_wizard_step(qtbot, tmp_path):
    widget = WizardPrediction()
    qtbot.addWidget(widget)
    doc = {"config": {"imgsz": 128, "batch": 16, "workers": 1, "cache": "", "model": "yolov5n.yaml", "device": "cpu",
                      "data": str(tmp_path / "d.yaml")},
           "predicted": {"images_per_s": 60.0, "epoch_s": 4.0, "total_s": 400.0},
           "reasons": {"workers": {"value": 1, "why": "the most images/s", "evidence": "", "step": "measure",
                                   "estimated": False}}}
    run = tmp_path / "runs" / "exp"
    run.mkdir(parents=True)
    RunFolder(run).keep_wizard(doc, {**doc["config"], "epochs": 3})  # the run folder owns wizard.json
    widget.load(run)
    assert json.loads((run / "wizard.json").read_text())["predicted"]["images_per_s"] == 60.0
    assert widget.isVisibleTo(widget.parentWidget() or widget)
    widget.feed({"type": "batch", "warmup": True, "window": {"images": 16, "data_wait_s": 9.0, "step_s": 1.0}})
    widget.feed({"type": "batch", "window": {"images": 32, "data_wait_s": 0.2, "step_s": 0.6}})
    widget.feed({"type": "epoch_end", "epoch_time_s": 5.0})
    assert "predicted 60 images/s" in widget.figures.text() and "measured 40 images/s and 0:05" in widget.figures.text()
    widget.feed({"type": "diagnosis", "prescriptions": [{"field": "workers", "value": 2, "reason": "x"}]})
    assert "Workers = 1 in its Measure step" in widget.verdict.text()  # the option as the form names it
    # Issue 32: the banner advised caching, the line under it said the wizard found it not needed — and repeated
    # itself. Now: one sentence per reason, an empty value named, framed as the expectation the run overruled.
    widget.doc["reasons"]["cache"] = {"value": "", "why": "the most images/s", "step": "measure"}
    widget.feed({"type": "diagnosis", "prescriptions": [{"field": "cache", "value": "ram", "reason": "x"},
                                                        {"field": "workers", "value": 2, "reason": "x"}]})
    text = widget.verdict.text()
    assert text.count("the most images/s") == 1 and "Cache = No cache (read each image from disk), Workers = 1" in text
    assert "measured otherwise" in text and "=：" not in text and "= :" not in text
    other = tmp_path / "runs" / "exp2"
    other.mkdir()
    RunFolder(other).keep_wizard(doc, {**doc["config"], "batch": 32})  # the form changed after the wizard: none
    widget.load(other)
    assert not (other / "wizard.json").exists() and widget.doc is None


def test_dataset_page_prepares_a_copy_and_keeps_its_own_data_yaml(qtbot, tmp_path):
    from gui.dataset.dataset_page import DatasetPage

    data = dataset(tmp_path / "ds", {"a": (900, 600), "b": (900, 600)})
    page = DatasetPage(tmp_path / "ws")
    qtbot.addWidget(page)
    assert not page.prepare_button.isEnabled()
    with qtbot.waitSignal(page.opened, timeout=TIMEOUT_MS):  # the file is read off the GUI thread
        assert page.open_path(data, check=False)
    assert page.prepare_button.isEnabled()
    with qtbot.waitSignal(page.preparer.prepared, timeout=TIMEOUT_MS) as made:
        assert page.preparer.run(data, 96)
    copy = Path(made.args[0])
    assert copy.is_file() and copy.parent != data.parent and page.path == data
    assert "Prepared 3 images" in page.banner.text and str(copy) in page.banner.text


def test_review_offers_the_pretrained_checkpoint_and_recommends_again_once_it_is_here(make_page, qtbot, tmp_path,
                                                                                        monkeypatch):
    data = dataset(tmp_path / "ds", {f"i{n}": (320, 240) for n in range(3)})
    page = make_page()
    choose_dataset(page, qtbot, data)
    recommend_now(page, qtbot, MEASURED)
    hint, model = page.start_hint, page.doc["config"]["model"]
    checkpoint = model.replace(".yaml", ".pt")
    assert not hint.get_button.isHidden() and checkpoint in hint.get_button.text()
    assert "No pretrained weights on this machine" in hint.text.text()
    assert hint.scratch_button.isHidden() and hint.pretrained_button.isHidden()  # the Train form's switch
    assert not page.doc["config"]["weights"]
    asked: list[str] = []
    monkeypatch.setattr(dialogs, "confirm_download", lambda parent, name, size, url: asked.append(url) and False)
    hint.get_button.click()  # asks first; answered no, nothing is fetched
    assert asked and asked[0].endswith("/" + checkpoint) and not page.weights_dialog.running
    page.weights_dialog.close()
    store_file(tmp_path / "ws", checkpoint)  # as a finished Get leaves it
    with qtbot.waitSignal(page.recommended, timeout=TIMEOUT_MS):
        page.weights_dialog.changed.emit()
    assert hint.level == "ok" and hint.text.text().startswith(f"Fine-tuning from {checkpoint}")
    assert hint.get_button.isHidden() and Path(page.doc["config"]["weights"]).name == checkpoint


def test_cancel_while_measuring_ends_the_worker_and_still_reviews(make_page, qtbot, tmp_path, fake_worker):
    lines = [make_event("stage", stage="starting", job="wizard_measure", pid=1, create_time=0.0, python="",
                        started=0.0),
             make_event("wizard_step", step="cache", index=0, count=7, status="started")]
    events = tmp_path / "measuring.jsonl"
    events.write_text("".join(encode(e) for e in lines), encoding="utf-8")
    def launcher(job: JobSpec):
        return fake_worker("--pause-after", str(len(lines)), events=events), dict(os.environ)

    data = dataset(tmp_path / "ds", {"a": (320, 240)})
    page = make_page(launcher=launcher)
    choose_dataset(page, qtbot, data)
    page.show_step(MEASURE)
    assert page.measure()
    qtbot.waitUntil(lambda: page.measure_list.count() == 1, timeout=TIMEOUT_MS)  # measuring, paused
    pid = page._runner._source.pid
    assert psutil.pid_exists(pid) and page.cancel_button.isEnabled()
    page.cancel_button.click()
    qtbot.waitUntil(lambda: page.stack.currentIndex() == REVIEW, timeout=TIMEOUT_MS)
    assert not page._runner.active and page.measure_button.isEnabled() and not page.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE,
                    timeout=TIMEOUT_MS)  # no process left behind
    assert "cancelled" in page.review.notes.text() and "* estimated" in page.review.notes.text()


def test_a_cli_started_run_from_the_wizard_shows_predicted_against_measured(qtbot, tmp_path, capsys, monkeypatch):
    """``yolostudio train --config wizard.json``: the run folder keeps the document, and the Train page's
    comparison (``WizardPrediction``) reads it for that run as for one started on the page (issue 30)."""
    from cli.main import main
    from tests.cli.test_train_prepared_copy import started_spec, wizard_doc

    _data, saved, ws = wizard_doc(tmp_path, capsys)
    started_spec(monkeypatch)
    assert main(["--workspace", str(ws), "train", "--config", str(saved), "--epochs", "1"]) == 0
    [run] = (ws / "runs").iterdir()
    assert (run / "wizard.json").is_file()
    widget = WizardPrediction()
    qtbot.addWidget(widget)
    widget.load(run)
    predicted = json.loads(saved.read_text(encoding="utf-8"))["predicted"]["images_per_s"]
    assert widget.doc is not None and f"predicted {predicted:.0f} images/s" in widget.figures.text()
    widget.feed({"type": "batch", "window": {"images": 32, "data_wait_s": 0.2, "step_s": 0.6}})
    assert "measured 40 images/s" in widget.figures.text()
