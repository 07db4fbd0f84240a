"""The "Try it" job on a readable image, an unreadable one and a missing one: the real image reading
(OpenCV + yolov5's letterbox) and NMS; only the model is a stand-in that finds nothing."""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QImage

from core.worker import predict_job
from tests.worker.test_weights_job import context


def test_unreadable_and_missing_images_are_warnings_naming_them_and_the_rest_go_on(tmp_path, monkeypatch):
    good, bad, gone = tmp_path / "good.png", tmp_path / "x.jpg", tmp_path / "gone.png"
    assert QImage(40, 30, QImage.Format.Format_RGB32).save(str(good))
    bad.write_bytes(b"not a jpeg")
    monkeypatch.setattr(predict_job, "load_runner",
                        lambda path: (lambda batch: np.zeros((len(batch), 3, 6), np.float32), {0: "a"}, 32, "stub"))
    ctx, stream = context(tmp_path, "predict", {"model": str(tmp_path / "m.pt"), "imgsz": 64,
                                                "images": [str(good), str(bad), str(gone)]})
    assert predict_job.run_predict(ctx) == "completed"
    warnings = [e for e in stream.events if e["type"] == "warning"]
    assert [(e["code"], e["image"], e["reason"]) for e in warnings] == [
        ("unreadable-image", str(bad), "unreadable"), ("unreadable-image", str(gone), "missing")]
    [shown] = [e for e in stream.events if e["type"] == "predictions"]
    assert shown["image"] == str(good) and (shown["width"], shown["height"]) == (40, 30)
    assert ctx.done_fields == {"images": 1, "skipped": 2}
