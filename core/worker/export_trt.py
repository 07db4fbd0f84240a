"""TensorRT engines from a verified ONNX file, with the TensorRT ≥ 10 Python API, and a runner for them.

yolov5 7.0.14's own TensorRT code uses the TensorRT 8 API (``max_workspace_size``, ``build_engine``,
``num_bindings``) that TensorRT 10 removed, and tries to pip-install TensorRT at run time; this module
replaces both. Build: builder → network (explicit batch is implicit in 10) → ONNX parser → config with a
workspace memory-pool limit, FP16/INT8 flags, an optimisation profile for dynamic shapes, an entropy
calibrator fed with the run's own images for INT8 → ``build_serialized_network``. The engine file is
the raw plan (no metadata header). ``tensorrt`` is imported lazily and can be injected (tests use a
fake that mirrors the API, since TensorRT cannot be installed on the development machines).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np

from core.i18n import tr
from core.worker.export_load import ExportError

WORKSPACE_BYTES = 4 << 30


def import_tensorrt() -> Any:
    try:
        import tensorrt as trt
    except ImportError as exc:
        raise ExportError("config", tr("TensorRT is not installed."),
                          tr("Install TensorRT 10 for this CUDA (the Export page shows the command).")) from exc
    return trt


def trt_major(trt: Any) -> int:
    return int(str(trt.__version__).split(".")[0])


def make_calibrator(trt: Any, images: Iterator[np.ndarray] | list[np.ndarray], cache: Path,
                    to_device: Callable[[np.ndarray], tuple[int, Any]]) -> Any:
    """An ``IInt8EntropyCalibrator2`` that feeds letterboxed batches; ``to_device`` returns (pointer, keep-alive)."""
    batches = list(images)

    class Calibrator(trt.IInt8EntropyCalibrator2):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            trt.IInt8EntropyCalibrator2.__init__(self)
            self.index = 0
            self.alive: Any = None

        def get_batch_size(self) -> int:
            return int(batches[0].shape[0]) if batches else 1

        def get_batch(self, names: list[str]) -> list[int] | None:
            if self.index >= len(batches):
                return None
            pointer, self.alive = to_device(batches[self.index])
            self.index += 1
            return [pointer]

        def read_calibration_cache(self) -> bytes | None:
            return cache.read_bytes() if cache.is_file() else None

        def write_calibration_cache(self, data: Any) -> None:
            cache.write_bytes(bytes(data))

    return Calibrator()


def torch_to_device(x: np.ndarray) -> tuple[int, Any]:
    import torch

    tensor = torch.from_numpy(np.ascontiguousarray(x)).cuda()
    return int(tensor.data_ptr()), tensor


def build_engine(onnx_path: Path, engine_path: Path, *, imgsz: int, batch: int = 1, half: bool = False,
                 int8: bool = False, dynamic: bool = False, calibration: list[np.ndarray] | None = None,
                 workspace_bytes: int = WORKSPACE_BYTES, trt: Any = None,
                 to_device: Callable[[np.ndarray], tuple[int, Any]] = torch_to_device) -> dict[str, Any]:
    """Build and write the plan; returns the build facts. Raises ``ExportError`` with the parser's words."""
    trt = trt or import_tensorrt()
    major = trt_major(trt)
    if major < 10:
        raise ExportError("config", tr("TensorRT {version} is too old: export needs TensorRT 10 or newer.",
                                       version=trt.__version__), "")
    logger = trt.Logger(trt.Logger.WARNING)
    builder = trt.Builder(logger)
    network = builder.create_network(0)
    parser = trt.OnnxParser(network, logger)
    if not parser.parse_from_file(str(onnx_path)):
        errors = [str(parser.get_error(i)) for i in range(parser.num_errors)]
        raise ExportError("export", tr("TensorRT could not parse the ONNX model: {errors}",
                                       errors="; ".join(errors) or "?"),
                          tr("Try another ONNX opset (17 is the most widely supported)."))
    config = builder.create_builder_config()
    config.set_memory_pool_limit(trt.MemoryPoolType.WORKSPACE, workspace_bytes)
    flags = []
    if half:
        if major >= 11:
            raise ExportError("config", tr("TensorRT 11 removed the FP16 builder flag."),
                              tr("Install TensorRT 10 for FP16 engines."))
        config.set_flag(trt.BuilderFlag.FP16)
        flags.append("FP16")
    if int8:
        if major >= 11:
            raise ExportError("config", tr("TensorRT 11 removed INT8 calibration."),
                              tr("Install TensorRT 10 for calibrated INT8 engines."))
        if not calibration:
            raise ExportError("dataset", tr("INT8 calibration needs images, and none were found in the dataset."),
                              tr("Give a dataset with validation images (--data DATA.yaml)."))
        config.set_flag(trt.BuilderFlag.INT8)
        config.int8_calibrator = make_calibrator(trt, calibration, engine_path.with_suffix(".calib"), to_device)
        flags.append("INT8")
    profile_shapes = None
    if dynamic:
        profile = builder.create_optimization_profile()
        low = max(32, imgsz // 2 // 32 * 32)
        profile_shapes = {"min": (1, 3, low, low), "opt": (batch, 3, imgsz, imgsz),
                          "max": (max(batch, 1) * 2, 3, imgsz * 2, imgsz * 2)}
        for i in range(network.num_inputs):
            profile.set_shape(network.get_input(i).name, **profile_shapes)
        config.add_optimization_profile(profile)
        if int8:
            config.set_calibration_profile(profile)
    plan = builder.build_serialized_network(network, config)
    if plan is None:
        raise ExportError("export", tr("TensorRT could not build an engine for this model on this GPU."),
                          tr("The worker log has TensorRT's own messages; a smaller image size or FP32 may work."))
    engine_path.write_bytes(bytes(memoryview(plan)))
    return {"tensorrt": str(trt.__version__), "flags": flags, "workspace_bytes": workspace_bytes,
            "profile": {k: list(v) for k, v in profile_shapes.items()} if profile_shapes else None}


class TrtRunner:
    """Loads a plan and runs it on torch CUDA tensors through the name-based TensorRT 10/11 API."""

    def __init__(self, engine_path: Path, trt: Any = None) -> None:
        import torch

        self.torch = torch
        self.trt = trt = trt or import_tensorrt()
        self.logger = trt.Logger(trt.Logger.WARNING)
        self.runtime = trt.Runtime(self.logger)
        self.engine = self.runtime.deserialize_cuda_engine(engine_path.read_bytes())
        if self.engine is None:
            raise ExportError("export", tr("This engine could not be loaded: it was built for another TensorRT "
                                           "version or GPU."), tr("Build it again on this machine."))
        self.context = self.engine.create_execution_context()
        names = [self.engine.get_tensor_name(i) for i in range(self.engine.num_io_tensors)]
        self.inputs = [n for n in names if self.engine.get_tensor_mode(n) == trt.TensorIOMode.INPUT]
        self.outputs = [n for n in names if n not in self.inputs]
        self.stream = torch.cuda.Stream()

    def _dtype(self, name: str) -> Any:
        trt, torch = self.trt, self.torch
        mapping = {trt.float32: torch.float32, trt.float16: torch.float16, trt.int32: torch.int32,
                   trt.int8: torch.int8, trt.bool: torch.bool}
        return mapping.get(self.engine.get_tensor_dtype(name), torch.float32)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        torch = self.torch
        name = self.inputs[0]
        tensor = torch.from_numpy(np.ascontiguousarray(x)).cuda().to(self._dtype(name))
        self.context.set_input_shape(name, tuple(tensor.shape))
        self.context.set_tensor_address(name, int(tensor.data_ptr()))
        outputs = {}
        for out in self.outputs:
            shape = tuple(self.context.get_tensor_shape(out))
            outputs[out] = torch.empty(shape, dtype=self._dtype(out), device="cuda")
            self.context.set_tensor_address(out, int(outputs[out].data_ptr()))
        torch.cuda.current_stream().synchronize()  # the input copy ran on torch's stream, not ours
        self.context.execute_async_v3(self.stream.cuda_stream)
        self.stream.synchronize()
        return outputs[self.outputs[0]].float().cpu().numpy()
