"""Sliced inference and the Predict page's live preview, through the real predict job (OpenCV frames, yolov5's
letterbox and NMS, the real outputs); the model is a deterministic stand-in that sees bright squares of at least
``SMALLEST`` input pixels — as a real detector misses objects a few pixels wide — so what slicing adds is certain.
"""

from __future__ import annotations

import base64
import json

import cv2
import numpy as np

from core.predict.plan import build_source_spec
from core.predict.source import classify
from core.worker import predict_stream
from core.worker.predict_preview import Preview
from tests.worker.test_weights_job import context

SMALLEST = 6  # input pixels: anything smaller is invisible to the stand-in model
SLOTS = 64  # rows of the stand-in's output (padded with empty rows, as a real head has many)


def squares_model(batch: np.ndarray) -> np.ndarray:
    """yolov5's raw head output (xc, yc, w, h, obj, cls0) for every bright square of the letterboxed input; its
    confidence is the square's brightness (the letterbox's grey padding, 114, is not an object)."""
    out = np.zeros((len(batch), SLOTS, 6), np.float32)
    for i, image in enumerate(batch):
        gray = image.mean(axis=0)
        n, _, stats, _ = cv2.connectedComponentsWithStats(((gray > 0.1) & (abs(gray - 114 / 255) > 0.01)).astype(np.uint8))
        rows = [(x + w / 2, y + h / 2, w, h, float(gray[y + h // 2, x + w // 2]), 1.0)
                for x, y, w, h, _area in stats[1:n] if w >= SMALLEST and h >= SMALLEST]
        if rows:
            out[i, :len(rows)] = rows[:SLOTS]
    return out


def stub_runner(monkeypatch) -> None:
    monkeypatch.setattr(predict_stream, "load_runner", lambda path: (squares_model, {0: "dot"}, 32, "stub"))


def run(tmp_path, monkeypatch, source, **options):
    stub_runner(monkeypatch)
    out = tmp_path / f"out{len(list(tmp_path.glob('out*')))}"
    spec = build_source_spec(tmp_path / "m.pt", classify(str(source)), tmp_path, out, imgsz=640, **options)
    ctx, stream = context(tmp_path, "predict", spec)
    assert predict_stream.run_source(ctx) == "completed"
    return ctx, stream, out


def test_slicing_finds_the_small_objects_the_whole_image_pass_misses_and_says_what_it_cost(tmp_path, monkeypatch):
    image = np.zeros((2048, 2048, 3), np.uint8)
    centres = (300, 800, 1300, 1800)  # inside the tiles, away from their edges (0, 512, 1024, 1408 + 640)
    for cx in centres:
        for cy in centres:
            image[cy - 6:cy + 6, cx - 6:cx + 6] = 255  # 12 px: 3.75 px at 640 for the whole image
    path = tmp_path / "large.png"
    cv2.imwrite(str(path), image)

    whole_ctx, whole, _ = run(tmp_path, monkeypatch, path)
    [plain] = [e for e in whole.events if e["type"] == "predictions"]
    assert plain["boxes"] == [] and "slice" not in whole_ctx.done_fields

    ctx, stream, out = run(tmp_path, monkeypatch, path, slice_size=640, slice_overlap=0.2)
    [sliced] = [e for e in stream.events if e["type"] == "predictions"]
    assert len(sliced["boxes"]) == 16  # each square once: the overlapping tiles' copies merged by NMS
    found = sorted((round((b[0] + b[2]) / 2), round((b[1] + b[3]) / 2)) for b in sliced["boxes"])
    assert found == sorted((cx, cy) for cx in centres for cy in centres)
    assert sliced["tiles"] == 16
    cost = ctx.done_fields["slice"]
    assert cost["tiles_per_image"] == 16 and cost["frames"] == 1 and cost["size"] == 640
    assert cost["ms_per_image"] >= cost["whole_ms_per_image"] > 0
    [line] = (out / "detections.jsonl").read_text().splitlines()
    assert len(json.loads(line)["detections"]) == 16


def test_live_preview_sends_floor_boxes_and_a_small_jpeg_while_the_outputs_keep_the_threshold(tmp_path, monkeypatch):
    image = np.zeros((600, 1200, 3), np.uint8)
    for x, level in ((100, 255), (500, 150), (900, 50)):  # confidences ~1.0, ~0.59, ~0.2
        image[200:300, x:x + 100] = level
    path = tmp_path / "wide.png"
    cv2.imwrite(str(path), image)
    ctx, stream, out = run(tmp_path, monkeypatch, path, conf=0.25, live=True)
    assert not [e for e in stream.events if e["type"] == "predictions"]  # the page gets previews only
    [preview] = [e for e in stream.events if e["type"] == "preview"]
    assert len(preview["boxes"]) == 3 and (preview["width"], preview["height"]) == (1200, 600)
    assert preview["totals"] == {"0": 2}  # what was written so far, at conf 0.25
    small = cv2.imdecode(np.frombuffer(base64.b64decode(preview["jpeg"]), np.uint8), cv2.IMREAD_COLOR)
    assert small.shape[:2] == (480, 960)  # scaled to fit 960 pixels
    [line] = (out / "detections.jsonl").read_text().splitlines()
    assert [round(d["confidence"], 1) for d in json.loads(line)["detections"]] == [1.0, 0.6]  # at conf 0.25


def test_preview_sends_at_most_its_rate_and_the_last_frame_held_back_at_the_end(tmp_path):
    ctx, stream = context(tmp_path, "predict", {})
    now = [0.0]
    preview = Preview(ctx, fps=4, clock=lambda: now[0])
    frame = np.zeros((8, 8, 3), np.uint8)
    for i in range(10):  # 10 frames in 0.9 s at 4 a second: t = 0, 0.3, 0.6 sent
        now[0] = i * 0.1
        preview.offer(frame, {"frame": i})
    preview.flush()
    assert [e["frame"] for e in stream.events if e["type"] == "preview"] == [0, 3, 6, 9]
