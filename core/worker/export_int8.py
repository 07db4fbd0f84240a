"""INT8 with its measured cost: ONNX Runtime's static quantisation of the verified FP32 ONNX, or NNCF's
post-training quantisation of the verified FP32 OpenVINO IR, then the app's own evaluation
(``evaluate_job.validate``, yolov5's ``val.run``) of both files on the val split and their latency.

Calibration reads the dataset's *training* images (at most ``CALIBRATION_IMAGES``), letterboxed exactly as the
model sees them; the format is QDQ with per-channel INT8 weights and UINT8 activations (ONNX Runtime's
recommended CPU setting, onnxruntime/python/tools/quantization/README). The INT8 file is called verified only when
its mAP@0.5 on val falls by at most ``int8_max_drop`` (default 0.02, the user's ``--int8-max-drop``); its name says
``unverified`` otherwise, as every unverified export's does. NNCF quantises with its default (performance)
preset — symmetric INT8 weights and activations, the min/max of each activation over the calibration images, then
its fast bias correction — and the IR keeps the FP32 model's runtime info (names, stride), so the INT8 file loads as
the FP32 one does. Latency is measured interleaved — one FP32 run, one INT8 run, repeated — so a change of load on
the machine hits both alike; p50 and p99 of each.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

from core.evaluation.fingerprint import split_images
from core.worker.export_verify import Prepared, prepare_images
from core.worker.job import JobContext

CALIBRATION_IMAGES = 300  # Ultralytics' INT8 export calibrates on up to 300 images too (fraction of the split)
LATENCY_RUNS = 50
#: The evaluation yolov5's val.py runs for mAP (its defaults: conf 0.001, IoU 0.6, 300 detections an image).
EVAL_SETTINGS = {"batch": 1, "conf": 0.001, "iou": 0.6, "max_det": 300, "split": "val", "single_cls": False}


def calibration_images(data: str, imgsz: int, stride: int) -> list[Prepared]:
    paths = split_images(Path(data), "train")[:CALIBRATION_IMAGES]
    return prepare_images([Path(p) for p in paths], imgsz, stride)


def quantize_onnx(fp32: Path, int8: Path, images: list[Prepared], batch: int) -> dict[str, Any]:
    """``int8`` from ``fp32`` with ONNX Runtime's ``quantize_static`` calibrated on ``images``."""
    import onnxruntime
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType, quantize_static)

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.items = iter(images)

        def get_next(self) -> dict[str, np.ndarray] | None:
            item = next(self.items, None)
            return None if item is None else {"images": np.stack([item.tensor] * batch)}

    kept = head_decoding_nodes(fp32)
    quantize_static(str(fp32), str(int8), Reader(), quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, nodes_to_exclude=kept)
    return {"client": "onnxruntime", "version": onnxruntime.__version__, "calibration_images": len(images),
            "method": "static QDQ, per-channel INT8 weights, UINT8 activations (MinMax); the Detect head's "
                      "decoding kept FP32", "fp32_nodes": len(kept)}


def head_decoding_nodes(path: Path) -> list[str]:
    """The Detect head's decoding after its last convolutions (sigmoid, grid and anchor arithmetic, the final
    concat), to be left in FP32. Its output is one tensor holding boxes in pixels and scores in 0..1: quantised
    per tensor, the scale follows the boxes (a few hundred pixels / 255) and every score rounds to 0 — measured on
    the tiny e2e run: objectness max 0.020 in FP32, 0.0 (one value) in INT8, mAP@0.5 0.009 → 0.000
    (``bench/int8.py``). The head's nodes are those under the module that writes the graph's output
    (torch's ONNX names, ``/model.24/…``); its convolutions stay quantised."""
    import onnx

    graph = onnx.load(str(path), load_external_data=False).graph
    producer = next((n for n in graph.node if graph.output[0].name in n.output), None)
    if producer is None or "/" not in producer.name.strip("/"):
        return []
    prefix = producer.name.rsplit("/", 1)[0] + "/"
    return [n.name for n in graph.node if n.name.startswith(prefix) and n.op_type != "Conv"]


def quantize_openvino(fp32: Path, int8: Path, images: list[Prepared], batch: int) -> dict[str, Any]:
    """``int8`` (the xml, its ``bin`` beside) from the FP32 IR ``fp32`` with ``nncf.quantize``, calibrated on
    ``images`` fed exactly as the FP32 path feeds the model (the same letterboxed tensors, batched alike)."""
    import openvino as ov

    from core.worker.export_openvino import bin_of, copy_model_info, decline_openvino_telemetry, save_ir

    decline_openvino_telemetry()  # before NNCF's import: its telemetry asks the same consent check at import
    import nncf

    model = ov.Core().read_model(str(fp32), str(bin_of(fp32)))
    dataset = nncf.Dataset(images, lambda item: np.stack([item.tensor] * batch))
    quantized = nncf.quantize(model, dataset, subset_size=len(images))
    copy_model_info(model, quantized)
    save_ir(quantized, int8)
    return {"client": "nncf", "version": nncf.__version__, "openvino": ov.__version__,
            "calibration_images": len(images),
            "method": "NNCF post-training quantisation, performance preset (symmetric INT8, MinMax, fast bias "
                      "correction)"}


def evaluate(ctx: JobContext, model: Path, data: str, imgsz: int, names: dict[int, str],
             project: Path) -> dict[str, Any]:
    """mAP@0.5 and mAP@0.5:0.95 overall and per class on val, by the evaluate job's own ``validate``."""
    from core.worker.evaluate_job import Collector, _per_class, validate

    images = len(split_images(Path(data), "val"))
    collector = Collector(ctx, max(1, images))
    results, _speed = validate(collector, str(model), data, {**EVAL_SETTINGS, "imgsz": imgsz}, project,
                               device="cpu", workers=0)
    return {"map50": float(results[2]), "map": float(results[3]),
            "per_class": [{"name": r["name"], "map50": r["map50"], "map": r["map"]}
                          for r in _per_class(collector, names, len(names))]}


def interleaved_latency(first: Any, second: Any, x: np.ndarray, runs: int = LATENCY_RUNS) -> tuple[dict, dict]:
    """p50/p99 in ms of two runners timed alternately on the same input, after a warm-up of each."""
    for _ in range(5):
        first(x)
        second(x)
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(runs):
        for run, out in ((first, times[0]), (second, times[1])):
            t0 = time.perf_counter()
            run(x)
            out.append((time.perf_counter() - t0) * 1000)

    def pct(values: list[float]) -> dict[str, float]:
        q = statistics.quantiles(values, n=100, method="inclusive")
        return {"p50": float(statistics.median(values)), "p99": float(q[98]), "runs": len(values)}

    return pct(times[0]), pct(times[1])
