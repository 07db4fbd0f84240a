"""The environment probe's torch half: the build, CUDA's view of the GPUs, and a test kernel on each.

Importing torch is timed (it is most of the probe's time). ``torch.cuda.init()`` runs under
``warnings.catch_warnings(record=True)`` so the "sm_XY is not compatible with the current PyTorch
installation" warning becomes evidence instead of noise. Devices are joined to NVML by UUID, then by PCI
bus id — never by index (NVML counts in PCI order, CUDA fastest first).
"""

from __future__ import annotations

import time
import warnings
from typing import Any, Callable

from core.environment.facts import GpuFacts, TorchFacts, TorchGpuFacts

GB = 1024**3


def _norm_uuid(value: Any) -> str | None:
    text = str(value or "").strip().lower()
    return text[4:] if text.startswith("gpu-") else (text or None)


def _norm_bus(value: str | None) -> str | None:
    """'00000000:01:00.0' and '0000:01:00.0' -> '01:00'."""
    if not value:
        return None
    parts = value.lower().split(":")
    return ":".join(parts[-2:]).split(".")[0] if len(parts) >= 2 else None


def join_nvml(devices: list[TorchGpuFacts], gpus: list[GpuFacts]) -> None:
    by_uuid = {_norm_uuid(g.uuid): g.index for g in gpus if g.uuid}
    by_bus = {_norm_bus(g.pci_bus_id): g.index for g in gpus if g.pci_bus_id}
    for d in devices:
        d.nvml_index = by_uuid.get(_norm_uuid(d.uuid))
        if d.nvml_index is None:
            d.nvml_index = by_bus.get(_norm_bus(d.pci_bus_id))


def test_kernel(torch: Any, index: int) -> tuple[bool, str | None]:
    """A tiny computation on one GPU, checked against the CPU's answer."""
    try:
        x = torch.arange(4096, dtype=torch.float32, device=f"cuda:{index}")
        got = float((x * 2).sum().item())
        weight = torch.ones(1, 3, 3, 3, device=f"cuda:{index}")
        conv = torch.nn.functional.conv2d(torch.ones(1, 3, 8, 8, device=f"cuda:{index}"), weight)
        torch.cuda.synchronize(index)
        if got != float(4095 * 4096) or float(conv[0, 0, 0, 0].item()) != 27.0:
            return False, f"wrong result {got}"
        return True, None
    except Exception as exc:  # noqa: BLE001 - the message is the evidence
        return False, f"{type(exc).__name__}: {exc}".strip()


def distribution_version(name: str) -> str | None:
    """An installed distribution's version from its metadata (no import), or None when it is not installed."""
    try:
        import importlib.metadata as md

        return md.version(name)
    except Exception:  # noqa: BLE001 - PackageNotFoundError, or metadata too damaged to read
        return None


def gather_torch(nvml_gpus: list[GpuFacts], run_kernels: bool = True,
                 step: Callable[[str], None] | None = None) -> TorchFacts:
    """torch's facts; ``step(name)`` is called before the CUDA part (where a wedged driver would hang)."""
    facts = TorchFacts()
    start = time.perf_counter()
    try:
        import torch
    except Exception as exc:  # noqa: BLE001 - ImportError, or a broken install raising anything
        facts.installed = False
        facts.import_error = f"{type(exc).__name__}: {exc}"
        facts.dist_version = distribution_version("torch")  # present: installed, but it cannot load
        facts.import_s = time.perf_counter() - start
        return facts
    facts.import_s = time.perf_counter() - start
    facts.installed = True
    facts.version = str(torch.__version__)
    facts.dist_version = distribution_version("torch")
    try:
        import importlib.metadata as md

        facts.torchvision = md.version("torchvision")
    except Exception:  # noqa: BLE001
        facts.unknown["torchvision"] = "not installed"
    facts.cuda = torch.version.cuda
    # PyTorch's "HIP (ROCm) semantics": a ROCm build reuses the torch.cuda interfaces, and torch.version.hip
    # (None elsewhere) is how to tell it from a CUDA build; its torch.version.cuda is None.
    facts.hip = getattr(torch.version, "hip", None)
    try:
        facts.cudnn_version = torch.backends.cudnn.version()
        facts.cudnn_enabled = bool(torch.backends.cudnn.enabled)
    except Exception as exc:  # noqa: BLE001
        facts.unknown["cudnn_version"] = str(exc)
    facts.arch_list = list(torch.cuda.get_arch_list()) if facts.cuda else []
    if step is not None and (facts.cuda or facts.hip):  # a CPU build has no GPU to test
        step("cuda")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if facts.cuda or facts.hip:
                torch.cuda.init()
        except Exception as exc:  # noqa: BLE001
            facts.cuda_error = f"{type(exc).__name__}: {exc}"
        facts.cuda_available = bool(torch.cuda.is_available())
        facts.device_count = torch.cuda.device_count() if facts.cuda_available else 0
    messages = [str(w.message) for w in caught if "cuda" in str(w.message).lower() or "sm_" in str(w.message)]
    if messages and not facts.cuda_error:
        facts.cuda_error = " | ".join(m.strip().splitlines()[0] for m in messages)[:600]
    for i in range(facts.device_count or 0):
        d = TorchGpuFacts(index=i)
        try:
            p = torch.cuda.get_device_properties(i)
            d.name, d.capability, d.memory_total_gb = p.name, [p.major, p.minor], p.total_memory / GB
            d.uuid = str(getattr(p, "uuid", "")) or None
            d.arch_name = getattr(p, "gcnArchName", None) if facts.hip else None  # ROCm: "gfx1100"
            if hasattr(p, "pci_bus_id"):
                domain, device = getattr(p, "pci_domain_id", 0), getattr(p, "pci_device_id", 0)
                d.pci_bus_id = f"{domain:08x}:{p.pci_bus_id:02x}:{device:02x}.0"
        except Exception as exc:  # noqa: BLE001
            d.unknown["name"] = f"{type(exc).__name__}: {exc}"
        if run_kernels:
            d.kernel_ok, d.kernel_error = test_kernel(torch, i)
        facts.devices.append(d)
    join_nvml(facts.devices, nvml_gpus)
    return facts
