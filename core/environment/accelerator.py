"""Which accelerator this PyTorch actually drives — an NVIDIA GPU through CUDA, an AMD GPU through ROCm (HIP), a
Jetson's integrated GPU (Tegra) — decided once, before any NVIDIA rule speaks.

Why: NVIDIA's desktop checks (NVML, the driver, the CUDA wheel for that driver) are wrong where the GPU is not an
NVIDIA desktop card. On an AMD GPU, "install NVIDIA's driver utilities" cannot work and "install the CUDA wheel"
would replace a working ROCm build; on a Jetson, the GPU driver is part of Jetson Linux and NVML is not the
desktop one. The facts, with their sources:
- PyTorch, "HIP (ROCm) semantics": "PyTorch for HIP intentionally reuses the existing torch.cuda interfaces" — so
  ``torch.cuda.is_available()`` is True on a working ROCm build, ``torch.version.cuda`` is None there and
  ``torch.version.hip`` names the HIP version. A ROCm wheel's version carries its label too ("2.14.1+rocm6.4",
  the ``download.pytorch.org/whl/rocm6.4`` index), read from metadata even when the import fails.
- Jetson Linux (L4T) writes ``/etc/nv_tegra_release``; the device tree says ``nvidia,tegra…``
  (``gather_platform``). The Jetson's GPU driver (nvgpu) ships with Jetson Linux, not as a desktop driver
  package; desktop NVML is absent before JetPack 6 and answers NotSupported for most queries after (the
  NVML lookups that fail there: XuehaiPan/nvitop#78, #168; ollama/ollama#3098: "NVidia didn't include the NVidia ML
  library in Jetpack prior to JP 6"; nvidia-cosmos/cosmos-reason1#61 on Thor). NVIDIA publishes PyTorch builds
  per JetPack release (NVIDIA, "Installing PyTorch for Jetson Platform"; forums.developer.nvidia.com/t/72048).
"""

from __future__ import annotations

import re

from core.environment.facts import EnvironmentFacts
from core.i18n import tr

CUDA, ROCM, TEGRA, CPU = "cuda", "rocm", "tegra", "cpu"
#: The ROCm label of a PyTorch wheel's version: "2.14.1+rocm6.4" -> "rocm6.4" (its download.pytorch.org index).
_ROCM_LABEL = re.compile(r"\+(rocm\d+(?:\.\d+)*)")
#: NVIDIA's guide to PyTorch on a Jetson (the builds per JetPack release).
JETSON_PYTORCH_URL = "https://docs.nvidia.com/deeplearning/frameworks/install-pytorch-jetson-platform/"


def rocm_label(f: EnvironmentFacts) -> str | None:
    """'rocm6.4' from the installed torch's version (loaded or only in its metadata), else None."""
    for version in (f.torch.version, f.torch.dist_version):
        match = _ROCM_LABEL.search(version or "")
        if match:
            return match.group(1)
    return None


def is_rocm(f: EnvironmentFacts) -> bool:
    """PyTorch is a ROCm (HIP) build: ``torch.version.hip``, or a '+rocm' version when it did not import."""
    return bool(f.torch.hip) or rocm_label(f) is not None


def is_tegra(f: EnvironmentFacts) -> bool:
    """A Jetson: Jetson Linux's release file or a Tegra device tree."""
    return bool(f.system.tegra_release or f.system.tegra_soc)


def accelerator(f: EnvironmentFacts) -> str | None:
    """What training would run on: ``rocm``, ``tegra``, ``cuda``, ``cpu``; None when torch was not read."""
    if is_rocm(f):
        return ROCM
    if is_tegra(f):
        return TEGRA
    if f.torch.cuda:
        return CUDA
    if f.torch.installed:
        return CPU
    return None


def not_nvidia_desktop(f: EnvironmentFacts) -> str | None:
    """Why NVIDIA's desktop checks (NVML, driver, CUDA wheels, GPU state) do not apply here, or None when they do."""
    if is_rocm(f):
        return tr("PyTorch is a ROCm build (HIP {hip}) for AMD GPUs: NVIDIA's driver and NVML do not apply",
                  hip=f.torch.hip or rocm_label(f) or "?")
    if is_tegra(f):
        return tr("a Jetson ({what}): its GPU driver is part of Jetson Linux, and NVIDIA's desktop driver "
                  "checks do not apply", what=jetson_words(f))
    return None


def jetson_words(f: EnvironmentFacts) -> str:
    """'NVIDIA Jetson AGX Orin Developer Kit, Jetson Linux R36.4.3' — what the files said, for messages."""
    parts = [f.system.board_model or f.system.tegra_soc or "Tegra"]
    if f.system.tegra_release:
        parts.append(tr("Jetson Linux {release}", release=f.system.tegra_release))
    return ", ".join(parts)


def jetson_torch_fix(f: EnvironmentFacts) -> str:
    """The one PyTorch fix on a Jetson: NVIDIA's build for its JetPack release, never a desktop wheel or driver."""
    release = f.system.tegra_release or tr("your release")
    return tr("Install the PyTorch build NVIDIA publishes for this Jetson's JetPack (Jetson Linux {release}): see "
              "{url} (or use NVIDIA's l4t-pytorch container). The wheels of PyPI and https://download.pytorch.org are "
              "not built for JetPack, and a Jetson needs no separate NVIDIA driver.", release=release,
              url=JETSON_PYTORCH_URL)
