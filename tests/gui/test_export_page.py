"""The real Export page driven through real subprocesses replaying recorded export / predict streams."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from core.export.facts import ExportFacts
from core.job.jobs import JobSpec, worker_died_words
from gui import dialogs
from gui.export.export_page import ExportPage
from gui.export import export_card
from tests.conftest import FIXTURES
from tests.fixtures.checkpoint_files import record_as_own
from tests.waits import TIMEOUT_MS

NO_GPU = ExportFacts(gpu_count=0, torch_cuda="13.0")
GPU_TRT10 = ExportFacts(gpu_count=1, gpu_name="RTX 4090", gpu_capability=(8, 9), torch_cuda="13.0",
                        tensorrt_version="10.16.1", onnxsim=True)
RECORDED = FIXTURES / "recorded_export_events.jsonl"


class Launcher:
    """The page's launcher: each job replays the events file chosen for it; remembers the specs."""

    def __init__(self, fake_worker, events: dict[str, Path]) -> None:
        self.fake_worker = fake_worker
        self.events = events
        self.specs: list[tuple[str, dict]] = []
        self.spec_files: list[Path] = []

    def __call__(self, job: JobSpec) -> tuple[list[str], dict[str, str]]:
        assert job.path is not None  # the runner wrote the spec before launching
        self.specs.append((job.job, json.loads(job.path.read_text())))
        self.spec_files.append(job.path)
        return self.fake_worker(events=self.events[job.job]), dict(os.environ)


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    run = tmp_path / "ws" / "runs" / "exp"
    (run / "weights").mkdir(parents=True)
    (run / "weights" / "best.pt").write_bytes(b"pt")
    record_as_own(tmp_path / "ws", run / "weights" / "best.pt")  # as the run's worker did when it saved it
    (run / "config.json").write_text(json.dumps({"spec": {"config": {"data": "", "imgsz": 64}}}))
    return run


def make_page(qtbot, run_dir: Path, launcher, facts: ExportFacts = NO_GPU) -> ExportPage:
    page = ExportPage(run_dir.parents[1], launcher=launcher, facts=facts)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: page.form.weights_path() != "", timeout=TIMEOUT_MS)  # runs listed in the background
    return page


def test_options_disabled_with_reasons_from_the_facts(qtbot, run_dir, fake_worker):
    page = make_page(qtbot, run_dir, Launcher(fake_worker, {}))
    form = page.form
    assert form.weights_path() == str(run_dir / "weights" / "best.pt")
    assert form.imgsz.value() == 64  # the run's own image size
    assert not form.formats["engine"].isEnabled() and not form.checks["half"].isEnabled()
    assert "TensorRT needs an NVIDIA GPU" in form.reasons.text() and "pip install onnxsim" in form.reasons.text()
    assert "needs an NVIDIA GPU" in form.formats["engine"].toolTip()
    assert page.export_button.isEnabled()

    page.set_facts(GPU_TRT10)
    assert form.formats["engine"].isEnabled() and form.checks["half"].isEnabled()
    form.checks["half"].setChecked(True)
    page.revalidate()
    assert not form.checks["dynamic"].isEnabled()
    assert "cannot be combined with FP16" in form.disabled_reasons["dynamic"]
    form.formats["engine"].setChecked(True)
    page.revalidate()
    assert form.checks["int8"].isEnabled()


def test_untrusted_weights_need_confirmation(qtbot, run_dir, fake_worker, tmp_path, monkeypatch):
    page = make_page(qtbot, run_dir, Launcher(fake_worker, {}))
    outside = tmp_path / "download" / "model.pt"
    outside.parent.mkdir()
    outside.write_bytes(b"pt")
    asked: list[Path] = []
    monkeypatch.setattr(dialogs, "confirm_untrusted_weights", lambda parent, path: asked.append(path) or False)
    assert page.use_weights_file(outside) is False
    assert page.form.weights_path() != str(outside) and asked == [outside]
    monkeypatch.setattr(dialogs, "confirm_untrusted_weights", lambda parent, path: True)
    assert page.use_weights_file(outside) is True
    assert page.form.weights_path() == str(outside) and str(outside) in page.trusted
    assert page.use_weights_file(run_dir / "weights" / "best.pt")  # a run's own weights: no question


def test_export_replay_fills_progress_and_report_cards(qtbot, run_dir, fake_worker, monkeypatch):
    launcher = Launcher(fake_worker, {"export": RECORDED})
    page = make_page(qtbot, run_dir, launcher)
    with qtbot.waitSignal(page.exporter.ended, timeout=TIMEOUT_MS) as ended:
        assert page.start_export()
        assert not page.export_button.isEnabled() and page.cancel_button.isEnabled()
    assert ended.args[0].status == "completed" and ended.args[0].reported
    job, spec = launcher.specs[0]
    assert job == "export" and spec["options"]["formats"] == ["onnx", "torchscript"]
    assert spec["options"]["imgsz"] == 64 and spec["trusted_weights"] == []
    assert not launcher.spec_files[0].exists()  # the temp spec is cleaned up
    cards = page.cards()
    assert [c.report["format"] for c in cards] == ["onnx", "torchscript"] and all(c.verified for c in cards)
    onnx_card = cards[0]
    assert "Max abs difference vs PyTorch: 9.16e-05" in onnx_card.details_label.text()
    assert "Detection agreement after NMS: 100.0 %" in onnx_card.details_label.text()
    assert "OpenCV DNN" in onnx_card.details_label.text()
    assert page.progress.value() == page.progress.maximum()
    assert "every file was verified" in page.stage_label.text()
    assert page.export_button.isEnabled() and not page.cancel_button.isEnabled()
    opened: list[Path] = []
    monkeypatch.setattr(export_card, "open_folder", opened.append)
    onnx_card.open_button.click()
    assert opened == [Path(onnx_card.report["path"]).parent]


def test_worker_dying_without_a_report_is_an_error(qtbot, run_dir, fake_worker, tmp_path):
    events = tmp_path / "short.jsonl"
    events.write_text("\n".join(RECORDED.read_text().splitlines()[:3]) + "\n")
    page = make_page(qtbot, run_dir, Launcher(fake_worker, {"export": events}))
    with qtbot.waitSignal(page.exporter.ended, timeout=TIMEOUT_MS) as ended:
        page.start_export()
    outcome = ended.args[0]
    assert outcome.status == "failed" and outcome.kind == "worker_died" and outcome.synthetic
    assert outcome.error()["message"] == worker_died_words(outcome.exit_code)[0]  # the one wording
    assert page.banner.isVisibleTo(page) and page.banner.level == "error"
    assert page.cards() == []


def test_reports_of_earlier_exports_show_when_a_run_is_opened(qtbot, run_dir, fake_worker):
    reports = [json.loads(line)["report"] for line in RECORDED.read_text().splitlines()
               if json.loads(line)["type"] == "export_result"]
    for report in reports:
        folder = run_dir / "exports" / f"best-{report['format']}"
        folder.mkdir(parents=True)
        report = {**report, "weights": str(run_dir / "weights" / "best.pt"),
                  "path": str(folder / f"best.{report['format']}")}
        if report["format"] == "torchscript":
            report["verified"] = {**report["verified"], "ok": False}
        (folder / "export.json").write_text(json.dumps(report))
    page = make_page(qtbot, run_dir, Launcher(fake_worker, {}))
    qtbot.waitUntil(lambda: len(page.cards()) == 2, timeout=TIMEOUT_MS)  # shown as soon as the run is chosen
    levels = sorted(c.level for c in page.cards())
    assert levels == ["ok", "warning"]
    assert "Earlier exports of best.pt" in page.stage_label.text()
    page.show_reports([])
    page.open_run(run_dir)
    assert len(page.cards()) == 2


def _predictions(image: Path) -> list[dict]:
    boxes = [[4, 4, 30, 30, 0.9, 0], [32, 32, 60, 60, 0.4, 1], [10, 40, 20, 60, 0.05, 2]]
    return [
        {"v": 1, "type": "stage", "t": 1.0, "stage": "starting", "job": "predict", "pid": 1, "create_time": 0.0},
        {"v": 1, "type": "stage", "t": 1.1, "stage": "predicting", "backend": "onnxruntime", "imgsz": 64, "images": 1},
        {"v": 1, "type": "predictions", "t": 1.2, "image": str(image), "width": 64, "height": 64, "boxes": boxes,
         "names": {"0": "circle", "1": "square", "2": "triangle"}, "inference_ms": 1.0},
        {"v": 1, "type": "done", "t": 1.3, "status": "completed", "elapsed_s": 0.3, "images": 1},
    ]


def test_try_it_draws_the_workers_boxes_and_filters_by_confidence(qtbot, run_dir, fake_worker, tmp_path):
    image = tmp_path / "img.png"
    picture = QImage(64, 64, QImage.Format.Format_RGB32)
    picture.fill(QColor("black"))
    assert picture.save(str(image))
    events = tmp_path / "predict.jsonl"
    events.write_text("".join(json.dumps(e) + "\n" for e in _predictions(image)))
    launcher = Launcher(fake_worker, {"predict": events})
    page = make_page(qtbot, run_dir, launcher)
    model = run_dir / "exports" / "best-onnx" / "best.onnx"
    page.choose_try_model(str(model))
    assert page.tabs.currentWidget() is page.try_view
    with qtbot.waitSignal(page.predictor.ended, timeout=TIMEOUT_MS):
        assert page.try_images([image])
    job, spec = launcher.specs[0]
    assert job == "predict" and spec["model"] == str(model) and spec["images"] == [str(image)]
    view = page.try_view
    qtbot.waitUntil(lambda: view.view.image is not None, timeout=TIMEOUT_MS)  # decoded off the GUI thread
    view.slider.setValue(250)
    assert view.box_count() == 2
    assert "2 boxes" in view.image_list.item(0).text()
    view.slider.setValue(500)
    assert view.box_count() == 1
    view.slider.setValue(10)
    assert view.box_count() == 3
    view.view.resize(128, 128)
    shot = view.view.grab().toImage()
    colours = {shot.pixelColor(x, y).name() for x in range(0, 128, 2) for y in range(0, 128, 2)}
    assert "#e6194b" in colours  # class 0's box was painted over the black image
    assert "1 image;" in view.status_label.text()


def test_no_box_at_the_threshold_says_so_with_the_highest_score(qtbot, run_dir, fake_worker, tmp_path):
    image = tmp_path / "img.png"
    QImage(32, 32, QImage.Format.Format_RGB32).save(str(image))
    events = tmp_path / "predict.jsonl"
    events.write_text("".join(json.dumps(e) + "\n" for e in _predictions(image)))
    page = make_page(qtbot, run_dir, Launcher(fake_worker, {"predict": events}))
    page.choose_try_model(str(run_dir / "best.onnx"))
    page.try_view.slider.setValue(950)
    with qtbot.waitSignal(page.predictor.ended, timeout=TIMEOUT_MS):
        assert page.try_images([image])
    text = page.try_view.status_label.text()
    assert "no box at confidence ≥ 0.950" in text and "highest score found is 0.900" in text
    page.try_view.slider.setValue(500)
    assert "move the slider" in page.try_view.status_label.text()


def test_weights_label_mnemonic_and_the_newest_finished_runs_best_is_chosen(qtbot, run_dir, fake_worker):
    from core.runs.store import RunInfo
    from PySide6.QtWidgets import QLabel

    page = make_page(qtbot, run_dir, Launcher(fake_worker, {}))
    [label] = [w for w in page.form.findChildren(QLabel) if w.text() == "&Weights:"]
    assert label.buddy() is page.form.weights_combo  # shown as "Weights:" with W underlined, no literal '&'
    newest = run_dir.parent / "exp2"
    (newest / "weights").mkdir(parents=True)
    for name in ("best.pt", "last.pt"):
        (newest / "weights" / name).write_bytes(b"pt")
    page.form.weights_combo.clear()
    page.form.set_runs([
        RunInfo(name="exp2", path=str(newest), status="running", best_weights=str(newest / "weights" / "best.pt"),
                last_weights=str(newest / "weights" / "last.pt")),
        RunInfo(name="exp", path=str(run_dir), status="completed",
                best_weights=str(run_dir / "weights" / "best.pt"))])
    assert page.form.weights_path() == str(run_dir / "weights" / "best.pt")  # not the run at epoch 0
    assert "still training" in page.form.weights_combo.itemText(0)


def test_try_it_on_the_validation_images_lists_them_with_the_dataset_reader(qtbot, run_dir, fake_worker, tmp_path):
    """``try_images(None)`` lists the split off the GUI thread (``core.dataset.split_images``: yolov5's suffixes,
    hidden files skipped), then runs the model on at most 16 of them."""
    val = tmp_path / "data" / "images" / "val"
    val.mkdir(parents=True)
    for n in range(17):
        QImage(16, 16, QImage.Format.Format_RGB32).save(str(val / f"{n:02d}.png"))
    (val / "00.dng").write_bytes(b"x")  # a suffix yolov5 reads: listed (the page's old list had seven)
    (val / ".hidden.png").write_bytes(b"x")
    data = tmp_path / "data" / "data.yaml"
    data.write_text("path: .\ntrain: images/val\nval: images/val\nnames: [a]\n")
    events = tmp_path / "predict.jsonl"
    events.write_text("".join(json.dumps(e) + "\n" for e in _predictions(val / "00.png")))
    launcher = Launcher(fake_worker, {"predict": events})
    page = make_page(qtbot, run_dir, launcher)
    page.form.data_edit.setText(str(data))
    page.choose_try_model(str(run_dir / "best.onnx"))
    with qtbot.waitSignal(page.predictor.ended, timeout=TIMEOUT_MS):
        assert page.try_images(None)
    job, spec = launcher.specs[0]
    assert job == "predict" and len(spec["images"]) == 16
    assert [Path(p).name for p in spec["images"]] == ["00.dng"] + [f"{n:02d}.png" for n in range(15)]
    (val.parent.parent / "data.yaml").write_text("path: .\ntrain: nowhere\nval: nowhere\nnames: [a]\n")
    assert page.try_images(None)
    qtbot.waitUntil(lambda: "No validation images found" in page.try_view.status_label.text(), timeout=TIMEOUT_MS)
    assert len(launcher.specs) == 1
