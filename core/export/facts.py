"""What this machine offers for export, read without importing torch, tensorrt or onnxsim.

Facts are data (``ExportFacts``): gathered cheaply here (the GPUs from ``core.environment.machine``, package metadata,
``find_spec``) and fed into the option rules in ``core/export/options.py``; tests inject them instead of
needing a GPU or TensorRT. The worker re-checks what it actually finds and says so if it disagrees.
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from core.environment.machine import quick_machine_facts


@dataclass(frozen=True)
class ExportFacts:
    gpu_count: int = 0
    gpu_name: str = ""
    #: CUDA compute capability of the first GPU as (major, minor), or None when unknown.
    gpu_capability: tuple[int, int] | None = None
    #: CUDA version torch was built for ("13.0"), None for a CPU-only build.
    torch_cuda: str | None = None
    #: Installed TensorRT version ("10.16.1"), None when the package is missing.
    tensorrt_version: str | None = None
    onnxsim: bool = False
    onnxruntime: bool = True
    openvino: bool = True
    #: NNCF, OpenVINO's INT8 quantiser (``export --format openvino --int8``).
    nncf: bool = True

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExportFacts:
        cap = data.get("gpu_capability")
        fields = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        fields["gpu_capability"] = tuple(cap) if cap else None
        return cls(**fields)


def _has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _dist_version(*names: str) -> str | None:
    for name in names:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return None


def tensorrt_version() -> str | None:
    """The TensorRT Python package's version, from its metadata (importing it loads CUDA libraries)."""
    if not _has_module("tensorrt"):
        return None
    return _dist_version("tensorrt", "tensorrt-cu13", "tensorrt-cu12", "tensorrt_cu13", "tensorrt_cu12") or "unknown"


def torch_cuda_version() -> str | None:
    """The CUDA version of the installed torch build, read from ``torch/version.py`` as text."""
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        try:
            text = (Path(location) / "version.py").read_text(encoding="utf-8")
        except OSError:
            continue
        match = re.search(r"^cuda\s*(?::[^=]*)?=\s*['\"]([\d.]+)['\"]", text, re.M)
        return match.group(1) if match else None
    return None


def gather_export_facts() -> ExportFacts:
    """This machine's facts; a few milliseconds, safe to call from a GUI background thread."""
    machine = quick_machine_facts()
    count = machine.gpu_count or 0  # unknown reads as none: nothing is offered that may not work
    name = machine.gpu_names[0] if count and machine.gpu_names else ""
    capability = machine.gpu_capabilities[0] if count and machine.gpu_capabilities else None
    return ExportFacts(gpu_count=count, gpu_name=name, gpu_capability=capability, torch_cuda=torch_cuda_version(),
                       tensorrt_version=tensorrt_version(), onnxsim=_has_module("onnxsim"),
                       onnxruntime=_has_module("onnxruntime"), openvino=_has_module("openvino"), nncf=_has_module("nncf"))
