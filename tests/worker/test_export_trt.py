"""The TensorRT engine builder against a fake ``tensorrt`` mirroring the 10/11 API (no GPU, no TensorRT)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from core.worker.export_load import ExportError
from core.worker.export_trt import build_engine, import_tensorrt
from tests.fixtures.fake_tensorrt import make_fake_tensorrt


def _pointer(x: np.ndarray) -> tuple[int, np.ndarray]:
    return x.ctypes.data, x  # host memory stands in for a CUDA allocation


@pytest.fixture
def onnx_file(tmp_path: Path) -> Path:
    path = tmp_path / "model.onnx"
    path.write_bytes(b"onnx")
    return path


def test_fp32_static_build_uses_the_trt10_api(tmp_path, onnx_file):
    trt = make_fake_tensorrt("10.16.1")
    engine = tmp_path / "model.engine"
    facts = build_engine(onnx_file, engine, imgsz=64, trt=trt, workspace_bytes=1 << 30)
    names = [c[0] for c in trt.calls]
    assert names == ["create_network", "parse_from_file", "set_memory_pool_limit", "build_serialized_network"]
    assert ("create_network", 0) in trt.calls  # explicit batch is implicit in 10; the flag is gone in 11
    assert trt.last_config.pool == {trt.MemoryPoolType.WORKSPACE: 1 << 30}
    assert engine.read_bytes().startswith(b"PLAN")
    assert facts["flags"] == [] and facts["tensorrt"] == "10.16.1" and facts["profile"] is None


def test_fp16_dynamic_build_sets_flag_and_profile(tmp_path, onnx_file):
    trt = make_fake_tensorrt("10.16.1")
    facts = build_engine(onnx_file, tmp_path / "m.engine", imgsz=640, batch=2, half=True, dynamic=True, trt=trt)
    assert ("set_flag", "FP16") in trt.calls
    shape = [c[1] for c in trt.calls if c[0] == "set_shape"][0]
    assert shape == ("images", (1, 3, 320, 320), (2, 3, 640, 640), (4, 3, 1280, 1280))
    assert len(trt.last_config.profiles) == 1
    assert facts["flags"] == ["FP16"] and facts["profile"]["opt"] == [2, 3, 640, 640]


def test_int8_calibrates_on_the_given_batches_and_writes_a_cache(tmp_path, onnx_file):
    trt = make_fake_tensorrt("10.16.1")
    batches = [np.zeros((1, 3, 64, 64), np.float32) for _ in range(3)]
    engine = tmp_path / "m.engine"
    build_engine(onnx_file, engine, imgsz=64, int8=True, calibration=batches, trt=trt, to_device=_pointer)
    assert ("set_flag", "INT8") in trt.calls
    assert ("calibrated", (1, 3)) in trt.calls  # batch size 1, every batch fed once
    assert engine.with_suffix(".calib").read_bytes() == b"calib"


def test_int8_without_images_is_refused(tmp_path, onnx_file):
    with pytest.raises(ExportError) as err:
        build_engine(onnx_file, tmp_path / "m.engine", imgsz=64, int8=True, calibration=[],
                     trt=make_fake_tensorrt("10.16.1"))
    assert err.value.kind == "dataset"


def test_trt11_refuses_fp16_and_int8_flags(tmp_path, onnx_file):
    trt = make_fake_tensorrt("11.4.0")
    assert not hasattr(trt.BuilderFlag, "FP16")
    build_engine(onnx_file, tmp_path / "fp32.engine", imgsz=64, trt=trt)  # FP32 still builds
    for kwargs in ({"half": True}, {"int8": True, "calibration": [np.zeros((1, 3, 64, 64), np.float32)]}):
        with pytest.raises(ExportError, match="TensorRT 11 removed"):
            build_engine(onnx_file, tmp_path / "x.engine", imgsz=64, trt=trt, **kwargs)


def test_trt8_is_refused(tmp_path, onnx_file):
    with pytest.raises(ExportError, match="TensorRT 8.6.1 is too old"):
        build_engine(onnx_file, tmp_path / "m.engine", imgsz=64, trt=make_fake_tensorrt("8.6.1"))


def test_parser_errors_are_reported_and_nothing_is_written(tmp_path, onnx_file):
    engine = tmp_path / "m.engine"
    with pytest.raises(ExportError, match="Split"):
        build_engine(onnx_file, engine, imgsz=64, trt=make_fake_tensorrt(parse_ok=False))
    assert not engine.exists()


def test_failed_build_says_so(tmp_path, onnx_file):
    engine = tmp_path / "m.engine"
    with pytest.raises(ExportError, match="could not build"):
        build_engine(onnx_file, engine, imgsz=64, trt=make_fake_tensorrt(build_ok=False))
    assert not engine.exists()


def test_injected_module_is_what_import_finds(monkeypatch):
    fake = make_fake_tensorrt("10.16.1")
    monkeypatch.setitem(sys.modules, "tensorrt", fake)
    assert import_tensorrt() is fake


def test_missing_tensorrt_says_how_to_get_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "tensorrt", None)  # makes `import tensorrt` raise ImportError
    with pytest.raises(ExportError, match="not installed") as err:
        import_tensorrt()
    assert err.value.kind == "config"
