"""Compatibility fix 16 (``core/worker/compat.py``): yolov5's own code runs an OpenVINO IR on today's OpenVINO.

yolov5 7.0.14's ``models/common.py`` ``DetectMultiBackend`` (the loader of ``val.run`` and ``detect.run``) fails on
the app's IR twice:

1. it imports ``from openvino.runtime import Core, Layout, get_batch`` (line 384). The ``openvino.runtime``
   namespace was deprecated in OpenVINO 2025 (docs.openvino.ai/2025, ``openvino.runtime.deprecated``) and is gone
   from the 2026 wheels (2026.4.1 here: ``ModuleNotFoundError: No module named 'openvino.runtime'``); the same
   three names are OpenVINO's top-level ones. Its ``Core().compile_model(network, device_name='CPU')`` also leaves
   the precision to the plugin, which picks bf16 on a CPU that has it (avx512_bf16/AMX): the "FP32" mAP would be
   bf16's. The app's own runner asks for f32 (``export_openvino.openvino_runner``), and so does this one.
2. it knows an IR only as a folder named ``*_openvino_model`` (``_model_type``, line 607: the suffix list of
   ``export.export_formats``); the app's IR is an ``.xml`` file (its ``.bin`` beside), which yolov5 refused
   ("acceptable suffix is [...]").
3. it reads names and stride from ``<stem>.yaml`` beside the xml (``_load_metadata``, line 622), a file yolov5's
   own exporter writes; the app keeps them in the IR's runtime info (as Ultralytics' exporter does now), so the
   stride came back ``None`` and ``val.run``'s ``check_img_size`` failed.

The fix: ``openvino.runtime`` resolves to a small module of OpenVINO's top-level names, loaded on first use (a job
that never reads an IR never imports OpenVINO; an OpenVINO that still ships the namespace is left alone), whose
``Core`` compiles for the CPU in f32 unless told otherwise; and ``_load_metadata`` falls back to the IR's runtime
info when no yaml is there; ``_model_type`` reads a path ending in ``.xml`` as an OpenVINO IR. OpenVINO's and NNCF's
usage statistics are declined here too, before anything imports OpenVINO (``decline_openvino_telemetry``).
"""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path
from typing import Any

ALIAS = "openvino.runtime"
F32 = {"INFERENCE_PRECISION_HINT": "f32"}


def decline_openvino_telemetry() -> None:
    """OpenVINO's converter reports usage to Google Analytics unless a consent file says no: ``convert_model``
    builds ``openvino_telemetry.Telemetry(enable_opt_in_dialog=False)``, whose ``OptInChecker.check`` answers
    NO_FILE (= send) on a machine where nobody ran ``opt_in_out`` (openvino/tools/ovc/telemetry_utils.py,
    ``init_ovc_telemetry``; openvino_telemetry/main.py, ``init``). The app sends no usage statistics: every
    consent check in this worker answers DECLINED, without writing anything into the user's home.

    It must run before the process first imports ``openvino``: ``openvino/__init__.py`` imports
    ``openvino.tools.ovc``, whose ``__init__`` builds the sender and sends ``("ov", "import", "general_import")`` at
    import (measured: a lookup of www.google-analytics.com from a forked child). NNCF builds its sender at import
    through the same check (nncf/telemetry/wrapper.py). ``compat.apply`` calls it first thing for every job."""
    try:
        from openvino_telemetry.utils.opt_in_checker import ConsentCheckResult, OptInChecker
    except ImportError:  # no telemetry package: nothing to send with
        return
    OptInChecker.check = lambda self, *args, **kwargs: ConsentCheckResult.DECLINED


def _has_runtime_namespace() -> bool:
    """Whether the installed OpenVINO still ships ``openvino/runtime`` (read from disk: no import of OpenVINO)."""
    spec = importlib.util.find_spec("openvino")
    return any((Path(location) / "runtime").is_dir() for location in (spec.submodule_search_locations or ()))


def _f32_core() -> type:
    import openvino

    class Core(openvino.Core):
        """OpenVINO's ``Core``, whose CPU compilation is f32 unless the caller's config says otherwise."""

        def compile_model(self, model: Any, device_name: str | None = None, config: dict | None = None,
                          **kwargs: Any) -> Any:
            if device_name in (None, "CPU"):
                config = {**F32, **(config or {})}
            return super().compile_model(model, device_name or "CPU", config, **kwargs)

    return Core


def _alias_module() -> types.ModuleType:
    module = types.ModuleType(ALIAS, "OpenVINO's top-level names under yolov5's old import path (YOLO Studio "
                                     "compatibility fix 16).")
    cache: dict[str, Any] = {}

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if name not in cache:
            import openvino

            cache[name] = _f32_core() if name == "Core" else getattr(openvino, name)
        return cache[name]

    module.__getattr__ = __getattr__  # type: ignore[method-assign]
    return module


def install_runtime_alias() -> None:
    """``import openvino.runtime`` works where OpenVINO no longer ships it (idempotent; nothing without OpenVINO)."""
    if ALIAS in sys.modules or importlib.util.find_spec("openvino") is None or _has_runtime_namespace():
        return
    sys.modules[ALIAS] = _alias_module()


def read_ir_metadata() -> None:
    """yolov5's ``DetectMultiBackend._load_metadata``: a missing ``<stem>.yaml`` beside an IR's xml is answered from
    the IR's runtime info (names, stride) — idempotent."""
    from yolov5.models.common import DetectMultiBackend

    original = DetectMultiBackend.__dict__["_load_metadata"].__func__
    if getattr(original, "_yolostudio", False):
        return

    def load_metadata(f: Path = Path("path/to/meta.yaml")) -> tuple[Any, Any]:
        stride, names = original(f)
        xml = Path(f).with_suffix(".xml")
        if stride is None and xml.is_file():
            from core.worker.export_openvino import openvino_names

            ir_names, ir_stride = openvino_names(xml)
            if ir_stride is not None:
                return ir_stride, ir_names
        return stride, names

    load_metadata._yolostudio = True  # type: ignore[attr-defined]
    DetectMultiBackend._load_metadata = staticmethod(load_metadata)


def read_xml_as_ir() -> None:
    """yolov5's ``DetectMultiBackend._model_type``: a path ending in ``.xml`` is an OpenVINO IR (idempotent)."""
    from yolov5.models.common import DetectMultiBackend

    original = DetectMultiBackend.__dict__["_model_type"].__func__
    if getattr(original, "_yolostudio", False):
        return

    def model_type(p: Any = "path/to/model.pt") -> list[bool]:
        if not str(p).lower().endswith(".xml"):
            return original(p)
        from yolov5.export import export_formats

        suffixes = list(export_formats().Suffix)
        return [s == "_openvino_model" for s in suffixes] + [False]  # the last: Triton

    model_type._yolostudio = True  # type: ignore[attr-defined]
    DetectMultiBackend._model_type = staticmethod(model_type)


def run_openvino_ir() -> None:
    """Fix 16 (``compat.apply`` calls it for every job), after declining OpenVINO's and NNCF's telemetry."""
    decline_openvino_telemetry()
    install_runtime_alias()
    read_xml_as_ir()
    read_ir_metadata()
