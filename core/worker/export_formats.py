"""Writing ONNX and TorchScript files, and the runtimes that load them back for verification.

ONNX goes through torch's legacy exporter (``dynamo=False``): on torch ≥ 2.9 the default dynamo path
needs onnxscript, forces opset 18 and writes weights to a separate file; yolov5's own exporter then
"succeeds" with no file. Every file written here is checked to exist and to load (``onnx.checker``)
before anything else looks at it. Models are serialised in memory and written by Python (``write_file``),
so a disk that fills mid-write is an ``ENOSPC`` the job reports, not a C++ abort of the worker.
"""

from __future__ import annotations

import io
import json
import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from core.disk_space import disk_full_error, is_disk_full
from core.i18n import tr
from core.worker.export_load import ExportError
from core.worker.export_verify import Runner


def write_file(path: Path, data: bytes) -> None:
    """Write an exported model, fsynced; a full disk raises ``ENOSPC`` naming the space needed."""
    try:
        with open(path, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        if is_disk_full(exc, path.parent):
            raise disk_full_error(path, len(data)) from exc
        raise


def export_onnx(model: Any, im: Any, path: Path, *, opset: int, dynamic: bool, simplify: bool,
                names: dict[int, str], stride: int) -> dict[str, Any]:
    """Write ``path`` (single file, metadata ``stride``/``names``); returns facts about the graph."""
    import onnx
    import torch

    axes = {"images": {0: "batch", 2: "height", 3: "width"}, "output0": {0: "batch", 1: "anchors"}} if dynamic else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the legacy exporter's deprecation notice; chosen on purpose
        # Into memory: the file is written by Python below, so a full disk is an OSError, not a C++ abort.
        buffer = io.BytesIO()
        torch.onnx.export(model, im, buffer, verbose=False, opset_version=opset, dynamo=False,
                          do_constant_folding=True, input_names=["images"], output_names=["output0"],
                          dynamic_axes=axes)
    if not buffer.getbuffer().nbytes:
        raise ExportError("export", tr("The ONNX exporter reported success but wrote no model."),
                          tr("See the worker log for the exporter's messages."))
    graph = onnx.load_from_string(buffer.getvalue())
    try:
        onnx.checker.check_model(graph)
    except onnx.checker.ValidationError as exc:
        raise ExportError("export", tr("The exported ONNX file does not pass onnx.checker: {reason}",
                                       reason=str(exc).splitlines()[0]), "") from exc
    simplified = False
    if simplify:
        try:
            import onnxsim
        except ImportError as exc:
            raise ExportError("config", tr("Simplifying needs the 'onnxsim' package, which is not installed."),
                              tr("Install it with: {command}", command="pip install onnxsim")) from exc
        graph, simplified = onnxsim.simplify(graph)
    for key, value in {"stride": stride, "names": names}.items():
        meta = graph.metadata_props.add()
        meta.key, meta.value = key, str(value)
    write_file(path, graph.SerializeToString())
    onnx.checker.check_model(str(path))
    return {"opset": opset, "dynamic": dynamic, "simplified": bool(simplified), "ir_version": graph.ir_version}


def export_torchscript(model: Any, im: Any, path: Path, *, names: dict[int, str], stride: int) -> dict[str, Any]:
    import torch

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tracer warnings about Python control flow in Detect
        traced = torch.jit.trace(model, im, strict=False)
    extra = {"config.txt": json.dumps({"shape": list(im.shape), "stride": stride, "names": names})}
    buffer = io.BytesIO()
    torch.jit.save(traced, buffer, _extra_files=extra)  # into memory: a full disk must not abort in C++
    if not buffer.getbuffer().nbytes:
        raise ExportError("export", tr("TorchScript tracing wrote no model."), "")
    write_file(path, buffer.getvalue())
    torch.jit.load(str(path), map_location="cpu")  # proves it loads on its own
    return {"traced_shape": list(im.shape)}


def onnxruntime_runner(path: Path, use_cuda: bool = False) -> tuple[Runner, dict[str, Any]]:
    import onnxruntime as ort

    available = ort.get_available_providers()
    wanted = (["CUDAExecutionProvider"] if use_cuda and "CUDAExecutionProvider" in available else []) + \
        ["CPUExecutionProvider"]
    options = ort.SessionOptions()
    options.log_severity_level = 3
    session = ort.InferenceSession(str(path), options, providers=wanted)
    name = session.get_inputs()[0].name
    half = "float16" in session.get_inputs()[0].type

    def run(x: np.ndarray) -> np.ndarray:
        return np.asarray(session.run(None, {name: x.astype(np.float16) if half else x})[0], dtype=np.float32)

    return run, {"client": "onnxruntime", "version": ort.__version__, "providers": session.get_providers()}


def opencv_runner(path: Path) -> tuple[Runner, dict[str, Any]]:
    """OpenCV's DNN module as a second, independent ONNX reader (static, FP32 models only)."""
    import cv2

    net = cv2.dnn.readNetFromONNX(str(path))

    def run(x: np.ndarray) -> np.ndarray:
        net.setInput(x)
        out = net.forward()
        return np.asarray(out[0] if isinstance(out, (list, tuple)) else out, dtype=np.float32)

    return run, {"client": "opencv-dnn", "version": cv2.__version__}


def torchscript_runner(path: Path, device: str = "cpu", half: bool = False) -> tuple[Runner, dict[str, Any]]:
    import torch

    module = torch.jit.load(str(path), map_location=device)

    def run(x: np.ndarray) -> np.ndarray:
        t = torch.from_numpy(x).to(device)
        with torch.inference_mode():
            y = module(t.half() if half else t)
        y = y[0] if isinstance(y, (list, tuple)) else y
        return y.float().cpu().numpy()

    return run, {"client": "torch.jit", "version": torch.__version__}
