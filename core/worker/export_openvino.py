"""OpenVINO IR: writing it from the PyTorch model, and the runtime that loads it back (verification, predict).

The IR is two files, ``best.xml`` (the graph) and ``best.bin`` (the weights), the ``bin`` found beside the
``xml`` by its stem (OpenVINO's ``Core.read_model``); the export's ``path`` is the ``xml``. Weights are kept FP32
(``save_model``'s default compresses them to FP16: ``compress_to_fp16=False``, as Ultralytics' exporter does unless
``half``), and the CPU plugin is asked for f32 inference (``INFERENCE_PRECISION_HINT``: on a CPU with bf16/AMX it
would otherwise pick bf16), so an FP32 export meets the FP32 tolerance against PyTorch. Conversion goes through
OpenVINO's PyTorch frontend (``convert_model(model, example_input=…)``), the path Ultralytics uses.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from core.worker.compat_openvino import decline_openvino_telemetry
from core.worker.export_formats import write_file
from core.worker.export_verify import Runner


def bin_of(xml: Path) -> Path:
    """The weights file of an IR graph: same name, ``.bin`` (``.best.xml.123.partial`` → ``….partial.bin``)."""
    return xml.with_name(xml.name[:-4] + ".bin") if xml.name.endswith(".xml") else xml.with_name(xml.name + ".bin")


def export_openvino(model: Any, im: Any, path: Path, *, names: dict[int, str], stride: int) -> dict[str, Any]:
    """Write ``path`` (the xml) and ``bin_of(path)``; names and stride in the IR's runtime info."""
    decline_openvino_telemetry()  # compat.apply did already; kept for a caller outside a worker
    import openvino as ov
    import torch

    with torch.no_grad():
        converted = ov.convert_model(model, example_input=im)
    converted.set_rt_info(str(stride), ["model_info", "stride"])
    converted.set_rt_info(str(names), ["model_info", "names"])
    save_ir(converted, path)
    return {"openvino": ov.__version__, "bin_bytes": bin_of(path).stat().st_size}


def save_ir(model: Any, path: Path) -> None:
    """``path`` and ``bin_of(path)`` from an in-memory OpenVINO model, weights as they are (no FP16 compression);
    the pair is read back, which proves it loads on its own."""
    import openvino as ov

    with tempfile.TemporaryDirectory(dir=path.parent) as scratch:
        xml = Path(scratch) / "model.xml"
        ov.save_model(model, str(xml), compress_to_fp16=False)
        write_file(path, xml.read_bytes())  # by Python: a full disk is an OSError the job reports
        write_file(bin_of(path), (Path(scratch) / "model.bin").read_bytes())
    ov.Core().read_model(str(path), str(bin_of(path)))


def openvino_runner(path: Path) -> tuple[Runner, dict[str, Any]]:
    """The IR on OpenVINO's CPU plugin in f32."""
    decline_openvino_telemetry()  # before the import: importing openvino sends an event otherwise
    import openvino as ov

    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(path), str(bin_of(path))), "CPU",
                                  {"INFERENCE_PRECISION_HINT": "f32"})
    request = compiled.create_infer_request()

    def run(x: np.ndarray) -> np.ndarray:
        return np.asarray(request.infer({0: x})[compiled.output(0)], dtype=np.float32)

    return run, {"client": "openvino", "version": ov.__version__, "device": "CPU"}


def openvino_names(path: Path) -> tuple[dict[int, str], int | None]:
    """Names and stride from the IR's runtime info ({} and None when absent). Each value is read as text with
    ``astype(str)``: ``str()`` of OpenVINO's ``OVAny`` is the placeholder ``<OVAny class>`` (OpenVINO 2026)."""
    import ast

    decline_openvino_telemetry()
    import openvino as ov

    model = ov.Core().read_model(str(path), str(bin_of(path)))
    try:
        names = {int(k): str(v) for k, v in ast.literal_eval(_info(model, "names")).items()}
        stride = int(_info(model, "stride"))
    except (KeyError, ValueError, SyntaxError, RuntimeError, TypeError, AttributeError):
        return {}, None
    return names, stride


def _info(model: Any, key: str) -> str:
    if not model.has_rt_info(["model_info", key]):
        raise KeyError(key)
    return str(model.get_rt_info(["model_info", key]).astype(str))


def copy_model_info(source: Any, target: Any) -> None:
    """The app's runtime info (names, stride) of ``source`` onto ``target`` (NNCF's quantised model drops it)."""
    for key in ("names", "stride"):
        if source.has_rt_info(["model_info", key]):
            target.set_rt_info(_info(source, key), ["model_info", key])
