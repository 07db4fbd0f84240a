"""INT8 keeps the scores: both quantisers (ONNX Runtime's static QDQ, NNCF for OpenVINO) on a small yolov5n, with
the app's own export, calibration and runners. The Detect head's one output holds boxes in pixels beside scores in
0..1; quantised per tensor (ONNX Runtime's default for the final concat) every score rounded to 0 and mAP to 0.000
(``core/worker/export_int8.py``, ``head_decoding_nodes``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.worker.export_verify import Prepared

IMGSZ = 64


@pytest.fixture(scope="module")
def model():
    import torch
    import yolov5
    from yolov5.models.yolo import Model

    torch.manual_seed(0)
    net = Model(str(Path(yolov5.__file__).parent / "models" / "yolov5n.yaml"), nc=3).float().fuse().eval()
    net.model[-1].export, net.model[-1].inplace = True, False
    im = torch.zeros(1, 3, IMGSZ, IMGSZ)
    with torch.no_grad():
        net(im), net(im)  # dry runs build the grids, as the export job's do
    return net, im


def _images(n: int = 6) -> list[Prepared]:
    rng = np.random.default_rng(0)
    return [Prepared(Path(f"{i}.jpg"), np.zeros((IMGSZ, IMGSZ, 3), np.uint8),
                     rng.random((3, IMGSZ, IMGSZ), dtype=np.float32), 1.0, (0.0, 0.0)) for i in range(n)]


def _write(fmt: str, model, im, path: Path) -> None:
    names = {0: "a", 1: "b", 2: "c"}
    if fmt == "onnx":
        from core.worker.export_formats import export_onnx

        export_onnx(model, im, path, opset=17, dynamic=False, simplify=False, names=names, stride=32)
    else:
        from core.worker.export_openvino import export_openvino

        export_openvino(model, im, path, names=names, stride=32)


@pytest.mark.parametrize("fmt, suffix", [("onnx", ".onnx"), ("openvino", ".xml")])
def test_int8_keeps_the_scores_it_was_calibrated_for(model, tmp_path, fmt, suffix):
    from core.worker.export_job import INT8_RUNTIMES

    quantize, runner = INT8_RUNTIMES[fmt]()
    fp32, int8 = tmp_path / f"m{suffix}", tmp_path / f"m.int8{suffix}"
    _write(fmt, *model, fp32)
    images = _images()
    build = quantize(fp32, int8, images, 1)
    assert build["calibration_images"] == len(images)
    x = images[0].tensor[None]
    a, b = runner(fp32)[0](x)[0], runner(int8)[0](x)[0]
    assert np.abs(a[:, :4]).max() > 50  # boxes in pixels share the tensor with the scores
    assert b[:, 4:].max() > 0.1 and np.abs(a[:, 4:] - b[:, 4:]).max() < 0.15  # the INT8 tolerance for scores


def test_the_onnx_head_decoding_is_left_in_fp32_and_its_convolutions_are_not(model, tmp_path):
    import onnx

    from core.worker.export_int8 import head_decoding_nodes

    _write("onnx", *model, tmp_path / "m.onnx")
    kept = head_decoding_nodes(tmp_path / "m.onnx")
    graph = onnx.load(str(tmp_path / "m.onnx")).graph
    ops = {n.name: n.op_type for n in graph.node}
    assert any(n.endswith("Concat_3") or ops[n] == "Concat" for n in kept) and "Sigmoid" in {ops[n] for n in kept}
    assert all(ops[n] != "Conv" for n in kept) and any(n.startswith(kept[0].rsplit("/", 1)[0]) and ops[n] == "Conv"
                                                       for n in ops)
