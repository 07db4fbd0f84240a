"""``yolostudio predict`` with the session's tiny trained run (``tests/e2e/shared_run.py``) through the real CLI and
worker: a video made from the val images gives PyTorch's own boxes frame by frame (yolov5's model, letterbox, NMS
and scale_boxes computed here, independently of the app); an MJPEG stream served on 127.0.0.1 is read to its end;
a camera index with no camera is a clear error, exit 2. Network refused (the stream is on loopback)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

from tests.e2e.conftest import assert_offline, e2e_environment, run_cli
from tests.e2e.shared_run import NAME, CompletedRun

pytestmark = pytest.mark.e2e

SIZE = 64  # the tiny dataset's images


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory, completed_run: CompletedRun) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("predict")
    ws = completed_run.copy_workspace(root)
    env = e2e_environment(root, root / "net-audit.log")
    return {"root": root, "env": env, "best": ws / "runs" / NAME / "weights" / "best.pt",
            "val": sorted((completed_run.data.parent / "images" / "val").iterdir()), "audit": root / "net-audit.log"}


def _video(path: Path, images: list[Path]) -> list[np.ndarray]:
    """The val images as an MJPG video (cv2.VideoWriter), and its frames as OpenCV decodes them back."""
    import cv2

    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5.0, (SIZE, SIZE))
    for image in images:
        writer.write(cv2.resize(cv2.imread(str(image)), (SIZE, SIZE)))
    writer.release()
    cap, frames = cv2.VideoCapture(str(path)), []
    while True:
        ok, frame = cap.read()
        if not ok:
            return frames
        frames.append(frame)


def _reference(best: Path, frames: list[np.ndarray], conf: float) -> list[np.ndarray]:
    """yolov5's own inference on each frame: its checkpoint, letterbox, non_max_suppression, scale_boxes."""
    import torch
    from yolov5.utils.augmentations import letterbox
    from yolov5.utils.general import non_max_suppression, scale_boxes

    ckpt = torch.load(best, map_location="cpu", weights_only=False)
    model = (ckpt.get("ema") or ckpt["model"]).float().fuse().eval()
    out = []
    for frame in frames:
        boxed = letterbox(frame, SIZE, auto=False, stride=32)[0]
        x = torch.from_numpy(np.ascontiguousarray(boxed[:, :, ::-1].transpose(2, 0, 1))).float()[None] / 255
        with torch.no_grad():
            det = non_max_suppression(model(x)[0], conf, 0.45, max_det=300)[0]
        det[:, :4] = scale_boxes(x.shape[2:], det[:, :4], frame.shape).round(decimals=1)
        out.append(det.numpy())
    return out


def test_a_video_of_the_val_images_gives_pytorchs_boxes_frame_by_frame(trained, tmp_path):
    frames = _video(tmp_path / "val.avi", trained["val"])
    assert len(frames) == len(trained["val"])
    low = _reference(trained["best"], frames, 0.001)
    best = max(float(d[:, 4].max()) for d in low if len(d))
    conf = round(best / 2, 4)  # a barely trained model: half its best score, so boxes get compared
    reference = _reference(trained["best"], frames, conf)
    out = run_cli(["predict", str(trained["best"]), str(tmp_path / "val.avi"), "--json", "--out",
                   str(tmp_path / "out"), "--imgsz", str(SIZE), "--conf", str(conf)], trained["env"])
    assert out.returncode == 0, out.stderr[-3000:]
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["frame"] for r in records] == list(range(len(frames)))
    assert sum(len(r["detections"]) for r in records) > 0
    for rec, ref in zip(records, reference):
        assert rec["source"] == str(tmp_path / "val.avi")
        got = np.array([d["box"] + [d["confidence"], d["class"]] for d in rec["detections"]]).reshape(-1, 6)
        assert got.shape == ref.shape, (rec, ref)
        assert np.abs(got[:, :4] - ref[:, :4]).max(initial=0) <= 0.11  # export verification's FP32 0.1 px
        assert np.abs(got[:, 4] - ref[:, 4]).max(initial=0) <= 1e-3
        assert (got[:, 5] == ref[:, 5]).all()
        assert all(d["name"] for d in rec["detections"])
    written = tmp_path / "out"
    assert (written / "val.mp4").stat().st_size > 0
    assert len((written / "detections.jsonl").read_text().splitlines()) == len(frames)
    assert len(list((written / "labels").glob("val_*.txt"))) == len(frames)
    rows = (written / "detections.csv").read_text().splitlines()
    assert rows[0].startswith("source,frame,class,name,confidence") and len(rows) == 1 + sum(
        len(r["detections"]) for r in records)
    assert_offline(trained["audit"])


def test_openvino_export_is_verified_and_predicts_the_pytorch_boxes(trained, tmp_path):
    """``export --format openvino`` meets the FP32 tolerance against PyTorch; predict runs the IR through the same
    loader as the .pt and gives the .pt's boxes on the val video."""
    out = run_cli(["export", str(trained["best"]), "--format", "openvino", "--json"], trained["env"])
    assert out.returncode == 0, out.stderr[-3000:]
    (entry,) = json.loads(out.stdout)["exports"]
    xml = Path(entry["path"])
    assert entry["format"] == "openvino" and entry["verified"]["ok"] is True and xml.suffix == ".xml"
    assert entry["verified"]["max_abs_diff"] < 1e-3 and entry["verified"]["nms_agreement"] == 1.0
    assert sorted(p.name for p in xml.parent.iterdir()) == ["best.bin", "best.xml", "export.json"]
    assert entry["bytes"] == xml.stat().st_size + (xml.parent / "best.bin").stat().st_size
    _video(tmp_path / "val.avi", trained["val"])
    boxes = {}
    for name, model in (("pt", trained["best"]), ("openvino", xml.parent)):  # the folder stands for its xml
        run = run_cli(["predict", str(model), str(tmp_path / "val.avi"), "--json", "--out", str(tmp_path / name),
                       "--conf", "0.001", "--no-save"], trained["env"])
        assert run.returncode == 0, run.stderr[-3000:]
        boxes[name] = [json.loads(line)["detections"] for line in run.stdout.splitlines()]
    assert len(boxes["pt"]) == len(boxes["openvino"]) == len(trained["val"])
    compared = 0
    best = max(d["confidence"] for frame in boxes["pt"] for d in frame)
    for ref, got in zip(boxes["pt"], boxes["openvino"]):
        strong = [d for d in ref if d["confidence"] >= best / 2]  # a barely trained model: its better half
        compared += len(strong)
        for d in strong:
            assert any(g["class"] == d["class"] and max(abs(a - b) for a, b in zip(g["box"], d["box"])) <= 0.2
                       for g in got), (d, got)
    assert compared > 0


class _Mjpeg(BaseHTTPRequestHandler):
    frames: list[bytes] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.send_response(200)
        self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
        self.end_headers()
        for jpeg in self.frames:
            self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(jpeg))
            self.wfile.write(jpeg + b"\r\n")

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def mjpeg_server(trained) -> Iterator[str]:
    """An MJPEG stream of the val images on 127.0.0.1 (an IP camera's usual HTTP form), ending after them."""
    import cv2

    _Mjpeg.frames = [cv2.imencode(".jpg", cv2.imread(str(p)))[1].tobytes() for p in trained["val"]]
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Mjpeg)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/stream.mjpg"
    finally:
        server.shutdown()
        server.server_close()


def test_a_stream_on_loopback_is_predicted_frame_by_frame(trained, mjpeg_server, tmp_path):
    out = run_cli(["predict", str(trained["best"]), mjpeg_server, "--json", "--out", str(tmp_path / "out"),
                   "--conf", "0.001"], trained["env"])
    assert out.returncode == 0, out.stderr[-3000:]
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(records) >= len(trained["val"]) - 1  # the demuxer may drop the last, unterminated part
    assert [r["frame"] for r in records] == list(range(len(records)))
    assert {r["source"] for r in records} == {mjpeg_server}
    assert (tmp_path / "out" / "stream.mp4").stat().st_size > 0


def test_a_camera_that_does_not_exist_is_a_clear_error_with_exit_2(trained, tmp_path):
    """Index 97 (/dev/video97): no machine the suite runs on has 98 cameras."""
    out = run_cli(["predict", str(trained["best"]), "97", "--out", str(tmp_path / "o")],
                  trained["env"])
    assert out.returncode == 2, out.stdout + out.stderr[-3000:]
    assert "No camera at index 97" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_source_that_does_not_exist_is_refused_before_a_worker_starts(trained, tmp_path):
    out = run_cli(["predict", str(trained["best"]), str(tmp_path / "nothing.mp4")], trained["env"])
    assert out.returncode == 2 and "does not exist" in out.stderr
