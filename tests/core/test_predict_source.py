"""What a predict SOURCE is (``core.predict.source``), decided before a worker starts, and the door's trust."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.predict.plan import build_source_spec, default_out
from core.predict.records import label_lines, record
from core.predict.source import Source, SourceError, check, classify, expand
from core.usecases.predict import PredictSourceDoor


def test_each_kind_of_source(tmp_path: Path):
    (tmp_path / "a.jpg").write_bytes(b"x")
    (tmp_path / "b.MP4").write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("x")
    assert classify("0") == Source("webcam", "0")
    assert classify("rtsp://10.0.0.2/live").kind == "stream" and classify("HTTP://h/x.mjpg").kind == "stream"
    assert classify(str(tmp_path / "a.jpg")).kind == "image"
    assert classify(str(tmp_path / "b.MP4")).kind == "video"
    assert classify(str(tmp_path)).kind == "folder"
    assert classify(str(tmp_path / "*.jpg")).kind == "glob"
    assert [p.name for p in expand(classify(str(tmp_path)))] == ["a.jpg", "b.MP4"]  # notes.txt is neither
    assert [p.name for p in expand(classify(str(tmp_path / "*.jpg")))] == ["a.jpg"]


def test_a_wrong_source_says_why_and_what_to_give(tmp_path: Path):
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(SourceError, match="does not exist") as missing:
        classify(str(tmp_path / "gone.mp4"))
    assert "camera index" in missing.value.hint
    with pytest.raises(SourceError, match="neither an image nor a video"):
        classify(str(tmp_path / "notes.txt"))
    with pytest.raises(SourceError, match="holds no image or video"):
        check(classify(str(tmp_path)))
    with pytest.raises(SourceError, match="holds no image or video"):
        check(classify(str(tmp_path / "*.png")))


def test_outputs_go_to_a_new_folder(tmp_path: Path):
    assert default_out(tmp_path, None) == tmp_path / "predict" / "predict"
    (tmp_path / "predict" / "predict").mkdir(parents=True)
    assert default_out(tmp_path, None) == tmp_path / "predict" / "predict2"
    assert default_out(tmp_path, tmp_path / "runs" / "r") == tmp_path / "runs" / "r" / "predict" / "predict"


def test_records_and_label_lines():
    event = {"image": "v.mp4", "frame": 3, "boxes": [[10.0, 20.0, 30.0, 60.0, 0.5, 1]]}
    assert record(event, {1: "car"}) == {"source": "v.mp4", "frame": 3, "detections": [
        {"class": 1, "name": "car", "confidence": 0.5, "box": [10.0, 20.0, 30.0, 60.0]}]}
    assert label_lines(event["boxes"], 100, 100) == ["1 0.200000 0.400000 0.200000 0.400000"]


def test_a_pt_from_outside_the_workspace_needs_the_users_grant(tmp_path: Path):
    import zipfile

    pt = tmp_path / "elsewhere" / "model.pt"
    pt.parent.mkdir()
    with zipfile.ZipFile(pt, "w") as z:
        z.writestr("archive/data.pkl", b"x")
    ws = tmp_path / "ws"
    ws.mkdir()
    spec = build_source_spec(pt, Source("webcam", "0"), ws, tmp_path / "out", imgsz=64)
    refused = PredictSourceDoor(spec, ws)
    assert not refused.ok and str(pt) in " ".join(p.text() for p in refused.preflight())
    granted = PredictSourceDoor(spec, ws, trust_weights=True)
    assert granted.ok
    assert granted.spec().spec["trusted_weights"]
