"""What this machine offers for export, read without importing torch, tensorrt or onnxsim.

Facts are data (``ExportFacts``): gathered cheaply here (NVML, package metadata, ``find_spec``) and fed
into the option rules in ``core/export/options.py``; tests inject them instead of needing a GPU or
TensorRT. The worker re-checks what it actually finds and says so if it disagrees.
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Any


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


def _nvml_gpu() -> tuple[int, str, tuple[int, int] | None]:
    try:
        import pynvml

        pynvml.nvmlInit()
        try:
            count = pynvml.nvmlDeviceGetCount()
            if not count:
                return 0, "", None
            handle = pynvml.nvmlDeviceGetHandleByIndex(0)
            name = pynvml.nvmlDeviceGetName(handle)
            try:
                major, minor = pynvml.nvmlDeviceGetCudaComputeCapability(handle)
                capability: tuple[int, int] | None = (int(major), int(minor))
            except Exception:  # noqa: BLE001 - old drivers lack it
                capability = None
            return count, name.decode() if isinstance(name, bytes) else str(name), capability
        finally:
            pynvml.nvmlShutdown()
    except Exception:  # noqa: BLE001 - no driver, no library, no GPU: all mean "no GPU we can use"
        return 0, "", None


def gather_export_facts() -> ExportFacts:
    """This machine's facts; a few milliseconds, safe to call from a GUI background thread."""
    count, name, capability = _nvml_gpu()
    return ExportFacts(gpu_count=count, gpu_name=name, gpu_capability=capability, torch_cuda=torch_cuda_version(),
                       tensorrt_version=tensorrt_version(), onnxsim=_has_module("onnxsim"),
                       onnxruntime=_has_module("onnxruntime"))
