"""The "Try it" job: run an exported model (ONNX, TorchScript, TensorRT, or a .pt) on images, return boxes.

The GUI never imports a runtime; it asks this job and draws what comes back. Every box at or above a low
confidence is returned (in the original image's pixels), so the GUI can move its confidence threshold
without running the model again. One ``predictions`` event per image, then ``done``; an image OpenCV cannot
decode (or that is gone) is a ``warning`` (``unreadable-image``, with ``image`` and ``reason``) and the
others go on, so the page can say which images it skipped and why.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from core.i18n import tr
from core.worker.export_load import ExportError
from core.worker.export_verify import Prepared, Runner, batches, nms, prepare_images
from core.worker.job import JobContext


def _names_and_stride(path: Path) -> tuple[dict[int, str], int]:
    """Class names and stride from the export's own metadata (ONNX props, TorchScript config, export.json)."""
    names: dict[int, str] = {}
    stride = 32
    if path.suffix == ".onnx":
        import ast

        import onnx

        props = {p.key: p.value for p in onnx.load(str(path), load_external_data=False).metadata_props}
        if "names" in props:
            names = {int(k): str(v) for k, v in ast.literal_eval(props["names"]).items()}
        stride = int(props.get("stride", stride))
    elif path.suffix == ".torchscript":
        import torch

        extra = {"config.txt": ""}
        torch.jit.load(str(path), _extra_files=extra, map_location="cpu")
        config = json.loads(extra["config.txt"] or "{}")
        names = {int(k): str(v) for k, v in (config.get("names") or {}).items()}
        stride = int(config.get("stride", stride))
    elif path.suffix == ".xml":
        from core.worker.export_openvino import openvino_names

        names, ir_stride = openvino_names(path)
        stride = ir_stride or stride
    if not names:
        names = {int(k): str(v) for k, v in (_report(path).get("names") or {}).items()}
    return names, stride


def _report(path: Path) -> dict[str, Any]:
    """The export.json beside an exported file ({} when there is none)."""
    try:
        folder = path if path.is_dir() else path.parent
        report = json.loads((folder / "export.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return report if isinstance(report, dict) else {}


def load_runner(path: Path) -> tuple[Runner, dict[int, str], int, str]:
    """A runner for the file by its suffix, its class names and stride, and a short description (an OpenVINO
    export's folder stands for its ``.xml``)."""
    import torch

    if path.is_dir():
        graphs = sorted(path.glob("*.xml"))
        if not graphs:
            raise ExportError("config", tr("{name}: a folder without an OpenVINO model (.xml).", name=path.name), "")
        path = graphs[0]

    cuda = torch.cuda.is_available()
    device = "cuda:0" if cuda else "cpu"
    if path.suffix == ".pt":
        from core.worker.export_load import load_for_export
        from core.worker.export_verify import torch_runner

        loaded = load_for_export(path)
        return torch_runner(loaded.model.to(device), device), loaded.names, loaded.stride, "pytorch"
    names, stride = _names_and_stride(path)
    if path.suffix == ".onnx":
        from core.worker.export_formats import onnxruntime_runner

        run, info = onnxruntime_runner(path, use_cuda=cuda)
        return run, names, stride, f"onnxruntime {info['providers'][0]}"
    if path.suffix == ".torchscript":
        from core.worker.export_formats import torchscript_runner

        half = _report(path).get("precision") == "fp16"
        run, _ = torchscript_runner(path, device, half)
        return run, names, stride, "torch.jit"
    if path.suffix == ".engine":
        from core.worker.export_trt import TrtRunner

        return TrtRunner(path), names, stride, "tensorrt"
    if path.suffix == ".xml":
        from core.worker.export_openvino import openvino_runner

        run, info = openvino_runner(path)
        return run, names, stride, f"openvino {info['device']}"
    raise ExportError("config", tr("{name}: not a model file this app can run (.onnx, .torchscript, .engine, "
                                   "an OpenVINO .xml or .pt).", name=path.name), "")


def input_shape(path: Path, requested: int) -> tuple[int, int]:
    """(batch, image size) the model insists on: from its export.json, else a static ONNX input, else
    (1, requested). A static model exported for batch B needs exactly B images per call."""
    options = _report(path).get("options") or {}
    if options:
        if options.get("dynamic"):
            return 1, requested
        return int(options.get("batch") or 1), int(options.get("imgsz") or requested)
    if path.suffix == ".onnx":
        import onnx

        dims = onnx.load(str(path), load_external_data=False).graph.input[0].type.tensor_type.shape.dim
        if len(dims) == 4:
            return int(dims[0].dim_value or 1), int(dims[2].dim_value or requested)
    return 1, requested


def predict_item(run: Runner, item: Prepared, batch: int, conf: float, iou: float) -> tuple[list[list[float]], float]:
    """One letterboxed image's boxes ``[x1, y1, x2, y2, conf, cls]`` in its original pixels, and the model's ms."""
    t1 = time.perf_counter()
    pred = run(batches([item], batch)[0])  # a static batch is padded with copies of the image
    ms = (time.perf_counter() - t1) * 1000
    boxes = nms(pred[:1], conf, iou)[0].copy()
    height, width = item.original.shape[:2]
    if len(boxes):  # letterbox → original pixels
        boxes[:, [0, 2]] = (boxes[:, [0, 2]] - item.pad[0]) / item.ratio
        boxes[:, [1, 3]] = (boxes[:, [1, 3]] - item.pad[1]) / item.ratio
        boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, width)
        boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, height)
    return [[round(float(v), 1) for v in b[:4]] + [round(float(b[4]), 5), int(b[5])] for b in boxes], ms


def unreadable_reason(path: Path) -> str:
    """Why ``prepare_images`` gave nothing for the path: ``missing`` | ``unreadable`` (the job's and auto-label's)."""
    return "missing" if not path.is_file() else "unreadable"


def unreadable_message(path: Path, reason: str) -> str:
    return (tr("{path}: not an image this app can read", path=path) if reason == "unreadable"
            else tr("{path}: no such file", path=path))


def run_predict(ctx: JobContext) -> str:
    """Boxes for each image of the spec, one ``predictions`` event each; ``stopped`` when asked to stop.

    A spec with a ``source`` (``yolostudio predict``) streams its frames and writes outputs instead
    (``core/worker/predict_stream.py``)."""
    spec = ctx.spec
    if spec.get("source"):
        from core.worker.predict_stream import run_source

        return run_source(ctx)
    ctx.done_fields["images"] = 0
    model = Path(spec["model"])
    run, names, stride, backend = load_runner(model)
    batch, imgsz = input_shape(model, int(spec.get("imgsz", 640)))
    ctx.emit("stage", stage="predicting", detail=backend, backend=backend, imgsz=imgsz,
             images=len(spec.get("images", [])))
    for path in map(Path, spec.get("images", [])):
        if ctx.stop_requested:
            return "stopped"
        prepared = prepare_images([path], imgsz, stride)
        if not prepared:
            reason = unreadable_reason(path)
            ctx.emit("warning", code="unreadable-image", image=str(path), reason=reason,
                     message=unreadable_message(path, reason))
            ctx.done_fields["skipped"] = ctx.done_fields.get("skipped", 0) + 1
            continue
        item = prepared[0]
        boxes, ms = predict_item(run, item, batch, float(spec.get("conf", 0.001)), float(spec.get("iou", 0.45)))
        height, width = item.original.shape[:2]
        ctx.emit("predictions", image=str(path), width=int(width), height=int(height),
                 boxes=boxes, names=names, inference_ms=ms)
        ctx.done_fields["images"] += 1
    return "stopped" if ctx.stop_requested else "completed"
