"""The real Predict page driven through real subprocesses replaying predict streams: started and stopped through
its door, the sliders filtering the latest frame's boxes without a new job, a failure said in words."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QImage

from core.job.jobs import JobSpec
from gui.predict.predict_page import SCALE, PredictPage
from tests.waits import TIMEOUT_MS

NAMES = {"0": "dot", "1": "cat"}
#: The worker's floor boxes of one frame: two overlapping dots (IoU 0.82) and a faint cat.
FLOOR = [[10, 10, 50, 50, 0.9, 0], [12, 12, 52, 52, 0.5, 0], [100, 100, 140, 140, 0.1, 1]]


def jpeg(width: int, height: int) -> str:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(0x203040)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "JPG")
    return bytes(data.toBase64()).decode("ascii")


def stream(tmp_path: Path, *events: dict) -> Path:
    path = tmp_path / f"events{len(list(tmp_path.glob('events*')))}.jsonl"
    path.write_text("".join(json.dumps({"v": 1, "t": 1.0, **e}) + "\n" for e in events))
    return path


class Launcher:
    def __init__(self, fake_worker, events: Path, *options: str) -> None:
        self.fake_worker, self.events, self.options = fake_worker, events, options
        self.specs: list[tuple[str, dict]] = []

    def __call__(self, job: JobSpec) -> tuple[list[str], dict[str, str]]:
        assert job.path is not None
        self.specs.append((job.job, json.loads(job.path.read_text())))
        return self.fake_worker(*self.options, events=self.events), dict(os.environ)


@pytest.fixture
def files(tmp_path):
    model, image = tmp_path / "model.onnx", tmp_path / "street.png"
    model.write_bytes(b"onnx")  # an export: nothing to unpickle, the door lets it through
    assert QImage(160, 120, QImage.Format.Format_RGB32).save(str(image))
    return model, image


def make_page(qtbot, tmp_path, launcher, model: Path, source: str) -> PredictPage:
    page = PredictPage(tmp_path / "ws", launcher=launcher)
    qtbot.addWidget(page)
    page.use_model_file(model)
    page.source_edit.setText(source)
    return page


def test_start_stop_through_the_door_and_the_sliders_refilter_without_a_new_job(qtbot, tmp_path, fake_worker, files):
    model, image = files
    events = stream(tmp_path, {"type": "stage", "stage": "predicting", "backend": "onnxruntime", "imgsz": 640,
                               "names": NAMES},
                    {"type": "preview", "image": str(image), "frame": 0, "width": 160, "height": 120,
                     "boxes": FLOOR, "jpeg": jpeg(80, 60), "fps": 12.5, "frames": 7, "totals": {"0": 9, "1": 2}})
    launcher = Launcher(fake_worker, events, "--pause-after", "2")
    page = make_page(qtbot, tmp_path, launcher, model, str(image))
    page.slice_check.setChecked(True)
    assert page.start()
    qtbot.waitUntil(lambda: page.view.image is not None, timeout=TIMEOUT_MS)
    [(job, spec)] = launcher.specs
    assert job == "predict" and spec["model"] == str(model.resolve()) and spec["source"] == str(image.resolve())
    assert spec["live"] and spec["slice"] == {"size": 640, "overlap": 0.2} and spec["conf"] == 0.25
    assert Path(spec["out"]).parent == tmp_path / "ws" / "predict"  # a new folder, not next to the user's files
    assert page.view.source_size.width() == 160 and page.view.image.width() == 80
    assert page.shown_boxes() == [FLOOR[0]]  # conf 0.25: no cat; IoU 0.45: the dots are one
    assert page.counts_label.text() == "This frame: dot 1\nWritten so far (thresholds of Start): dot 9, cat 2"
    assert "12.5 frames/s" in page.stats_label.text() and page.stop_button.isEnabled()

    page.conf_slider.setValue(int(0.05 * SCALE))
    assert page.shown_boxes() == [FLOOR[0], FLOOR[2]] and page.counts_label.text().startswith("This frame: cat 1, dot 1\n")
    page.conf_slider.setValue(int(0.95 * SCALE))
    assert page.view.boxes == [] and "no boxes" in page.counts_label.text()
    page.conf_slider.setValue(int(0.25 * SCALE))
    page.iou_slider.setValue(page.iou_slider.maximum())  # 0.7: still below the dots' 0.82
    assert len(page.shown_boxes()) == 1
    assert len(launcher.specs) == 1  # the sliders start nothing

    with qtbot.waitSignal(page.runner.ended, timeout=TIMEOUT_MS) as ended:
        page.stop()
    assert ended.args[0].status == "stopped" and "Stopped" in page.stats_label.text()
    assert page.start_button.isEnabled() and not page.stop_button.isEnabled()


def test_a_camera_that_is_not_there_is_a_message_with_its_way_out(qtbot, tmp_path, fake_worker, files):
    model, _ = files
    events = stream(tmp_path, {"type": "error", "kind": "source", "message": "No camera at index 5: it does not "
                               "exist or another program holds it.", "hint": "Check the camera is connected."},
                    {"type": "done", "status": "failed", "elapsed_s": 0.1})
    page = make_page(qtbot, tmp_path, Launcher(fake_worker, events), model, "5")
    with qtbot.waitSignal(page.runner.ended, timeout=TIMEOUT_MS):
        assert page.start()
    assert not page.banner.isHidden()
    assert "No camera at index 5" in page.banner.text and "Check the camera is connected." in page.banner.text
    assert "Traceback" not in page.banner.text and page.start_button.isEnabled()


def test_a_missing_source_is_refused_before_any_worker_starts(qtbot, tmp_path, fake_worker, files):
    model, _ = files
    launcher = Launcher(fake_worker, stream(tmp_path))
    page = make_page(qtbot, tmp_path, launcher, model, str(tmp_path / "nowhere.mp4"))
    assert page.start()
    qtbot.waitUntil(lambda: not page.banner.isHidden(), timeout=TIMEOUT_MS)
    assert "does not exist" in page.banner.text and launcher.specs == []
    assert page.start_button.isEnabled()


def test_a_pt_from_outside_the_runs_is_asked_about_and_trusted_in_the_spec_only_after_yes(qtbot, tmp_path, fake_worker,
                                                                                         files, monkeypatch):
    from gui import dialogs
    from tests.fixtures.checkpoint_files import write_checkpoint_file

    _, image = files
    outside = write_checkpoint_file(tmp_path / "download" / "model.pt")
    launcher = Launcher(fake_worker, stream(tmp_path, {"type": "done", "status": "completed", "elapsed_s": 0.1,
                                                       "frames": 1}))
    page = make_page(qtbot, tmp_path, launcher, outside, str(image))
    answers, asked = iter([False, True]), []
    monkeypatch.setattr(dialogs, "confirm_untrusted_weights", lambda parent, path: asked.append(path) or next(answers))
    assert page.start()
    qtbot.waitUntil(lambda: asked == [outside] and page.start_button.isEnabled(), timeout=TIMEOUT_MS)
    assert launcher.specs == []  # "no": nothing started, and the banner says why
    assert not page.banner.isHidden() and "model.pt" in page.banner.text
    with qtbot.waitSignal(page.runner.ended, timeout=TIMEOUT_MS):
        assert page.start()
    [(_job, spec)] = launcher.specs
    assert asked == [outside, outside] and spec["trusted_weights"] == [str(outside.resolve())]
    assert "Done: 1 image or frame." in page.stats_label.text()


def test_a_runs_pt_and_its_exports_are_listed_at_their_sizes_and_a_browsed_file_stays(qtbot, tmp_path, fake_worker,
                                                                                      files):
    from gui.predict.operations import run_models

    run = tmp_path / "ws" / "runs" / "exp3"
    (run / "weights").mkdir(parents=True)
    best = run / "weights" / "best.pt"
    best.write_bytes(b"pt")
    (run / "config.json").write_text(json.dumps({"spec": {"config": {"imgsz": 320}}}))
    onnx = run / "exports" / "best-onnx" / "best.onnx"
    onnx.parent.mkdir(parents=True)
    onnx.write_bytes(b"onnx")
    (onnx.parent / "export.json").write_text(json.dumps({"format": "onnx", "path": str(onnx), "weights": str(best),
                                                         "options": {"imgsz": 256}}))
    gone = run / "exports" / "best-engine"  # a report whose file was deleted is not offered
    gone.mkdir()
    (gone / "export.json").write_text(json.dumps({"format": "engine", "path": str(gone / "best.engine"),
                                                  "weights": str(best)}))
    models = run_models([best])
    assert [(m.label, m.path, m.imgsz) for m in models] == [("exp3 — best.pt", str(best), 320),
                                                            ("exp3 — ONNX (best.onnx)", str(onnx), 256)]
    model, _ = files
    page = make_page(qtbot, tmp_path, Launcher(fake_worker, stream(tmp_path)), model, "0")
    page.set_models(models)
    assert page.model_path() == str(model)  # the browsed file stays chosen
    page.model_combo.setCurrentIndex(page.model_combo.findText("exp3 — ONNX (best.onnx)"))
    assert page.model_path() == str(onnx) and page.imgsz.value() == 256


def running_page(qtbot, tmp_path, fake_worker, files, page: PredictPage | None = None,
                 *options: str) -> PredictPage:
    """A prediction paused after its first frame (the worker waits for a stop, as a video being written does)."""
    model, image = files
    tmp_path.mkdir(parents=True, exist_ok=True)
    events = stream(tmp_path, {"type": "stage", "stage": "predicting", "backend": "onnxruntime", "imgsz": 640,
                               "names": NAMES},
                    {"type": "preview", "image": str(image), "frame": 0, "width": 160, "height": 120,
                     "boxes": FLOOR, "jpeg": jpeg(80, 60), "fps": 12.5, "frames": 1, "totals": {"0": 1}})
    launcher = Launcher(fake_worker, events, "--pause-after", "2", *options)
    if page is None:
        page = make_page(qtbot, tmp_path, launcher, model, str(image))
    else:
        page.runner.launcher = launcher
        page.use_model_file(model)
        page.source_edit.setText(str(image))
    assert page.start()
    qtbot.waitUntil(lambda: page.view.image is not None, timeout=TIMEOUT_MS)
    return page


def test_closing_stops_a_prediction_gracefully_and_a_second_request_kills_it(qtbot, tmp_path, fake_worker, files):
    page = running_page(qtbot, tmp_path, fake_worker, files)
    assert "prediction is running" in page.work_on_close()
    closed = []
    with qtbot.waitSignal(page.runner.ended, timeout=TIMEOUT_MS) as ended:
        page.stop_for_close(lambda: closed.append(True))
    assert ended.args[0].status == "stopped" and closed == [True]  # the worker's own stop: its outputs closed
    assert page.work_on_close() == ""
    page.stop_for_close(lambda: closed.append(True))  # nothing running: at once
    assert closed == [True, True]

    page = running_page(qtbot, tmp_path / "again", fake_worker, files, None, "--ignore-stop")
    page.stop()  # Stop pressed; a worker that never answers it…
    with qtbot.waitSignal(page.runner.ended, timeout=TIMEOUT_MS) as ended:
        page.stop_for_close(lambda: closed.append("first"))
        page.stop_for_close(lambda: closed.append("second"))  # …closed again: killed, ``then`` once
    assert ended.args[0].kind == "killed" and closed[2:] == ["first"]
