"""What kind of machine this is, read from files before any NVIDIA rule speaks: the CPU architecture, a Jetson
(Tegra) and its Jetson Linux release, a laptop chassis, the nvidia kernel modules that are loaded, and the driver
version of the loaded kernel module beside the one of the NVML library on disk.

Why files: these facts are needed exactly where NVML cannot answer — a Jetson has no desktop NVML, and after a
driver update without a reboot NVML refuses to start ("Driver/library version mismatch"), so only the files
can say which two versions disagree. Every reader takes ``root`` (``/`` on a real machine), so tests plant the
files in a temporary folder instead of needing the machine. Sources, per file:
- ``/proc/driver/nvidia/version`` — written by the nvidia kernel module: "NVRM version: NVIDIA UNIX x86_64 Kernel
  Module  550.54.14  …" or "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.126.09  Release Build …"
  (the open modules; quoted beside ``nvidia-smi``'s "NVML library version: 580.159" in cpnr/computing#109);
- ``libnvidia-ml.so.1`` → ``libnvidia-ml.so.<driver version>`` — the driver's user-space NVML library is named by
  the driver's version (NVIDIA/nvidia-container-toolkit#1451 infers the driver ("RM") version from that suffix);
- ``/etc/nv_tegra_release`` — Jetson Linux (L4T): "# R36 (release), REVISION: 4.3, GCID: …"; and
  ``/proc/device-tree/compatible`` — NUL-separated, "nvidia,tegra234" on an Orin (Jetson Linux Developer Guide);
- ``/sys/class/dmi/id/chassis_type`` — the SMBIOS chassis type (DMTF DSP0134, "System Enclosure or Chassis
  Types"): 8 Portable, 9 Laptop, 10 Notebook, 14 Sub Notebook, 30 Tablet, 31 Convertible, 32 Detachable;
- ``/proc/modules`` — one loaded module per line, its name first (``nvidia_uvm`` is the one CUDA needs).
"""

from __future__ import annotations

import os
import platform
import re
from pathlib import Path

from core.environment.facts import NvmlFacts, SystemFacts
from core.i18n import tr

#: SMBIOS chassis types of a portable machine (DMTF DSP0134 7.4.1).
PORTABLE_CHASSIS = frozenset({8, 9, 10, 14, 30, 31, 32})
#: Where distributions put the driver's libraries (Debian/Ubuntu multiarch, Fedora/RHEL, the NVIDIA container
#: runtime's mount, WSL2's mapping of the Windows driver).
LIBRARY_DIRS = ("usr/lib/x86_64-linux-gnu", "usr/lib/aarch64-linux-gnu", "usr/lib64", "usr/lib",
                "usr/local/nvidia/lib64", "usr/lib/wsl/lib")
_MODULE_VERSION = re.compile(r"Kernel Module\b.*?\b(\d+\.\d+(?:\.\d+)?)\b")
_LIBRARY = re.compile(r"^libnvidia-ml\.so\.(\d+\.\d+(?:\.\d+)?)$")
_TEGRA_RELEASE = re.compile(r"#\s*R(\d+)\s*\(release\),\s*REVISION:\s*([\d.]+)")


def _read(path: Path, limit: int = 65536) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(limit)
    except OSError:
        return None


def kernel_module_version(text: str | None) -> str | None:
    """'NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu …' -> '550.54.14'."""
    match = _MODULE_VERSION.search(text or "")
    return match.group(1) if match else None


def library_version(root: Path) -> str | None:
    """The driver version of the NVML library the loader finds (``libnvidia-ml.so.1``'s target), or None."""
    for folder in LIBRARY_DIRS:
        link = root / folder / "libnvidia-ml.so.1"
        try:
            target = os.readlink(link) if link.is_symlink() else None
        except OSError:
            target = None
        if target is not None:
            match = _LIBRARY.match(Path(target).name)
            if match:
                return match.group(1)
        if (root / folder).is_dir():
            versions = sorted({m.group(1) for p in (root / folder).glob("libnvidia-ml.so.*.*")
                               if (m := _LIBRARY.match(p.name))})
            if len(versions) == 1:  # several versions side by side: only the link says which one loads
                return versions[0]
    return None


def tegra_release(text: str | None) -> str:
    """'# R36 (release), REVISION: 4.3, GCID: …' -> 'R36.4.3'; '' when the file says no release."""
    match = _TEGRA_RELEASE.search(text or "")
    return f"R{match.group(1)}.{match.group(2)}" if match else ""


def tegra_soc(compatible: str | None) -> str:
    """'nvidia,p3767-0005\\0nvidia,tegra234\\0' -> 'tegra234'; '' for a machine that is not a Tegra."""
    for entry in (compatible or "").split("\0"):
        vendor, _, model = entry.strip().partition(",")
        if vendor == "nvidia" and model.startswith("tegra"):
            return model
    return ""


def is_laptop(chassis_type: str | None) -> bool | None:
    try:
        return int((chassis_type or "").strip()) in PORTABLE_CHASSIS
    except ValueError:
        return None


def nvidia_modules(proc_modules: str | None) -> list[str] | None:
    """The loaded kernel modules whose name starts with 'nvidia' (nvidia, nvidia_uvm, nvidia_drm …)."""
    if proc_modules is None:
        return None
    return [line.split()[0] for line in proc_modules.splitlines() if line.startswith("nvidia")]


def gather_platform(system: SystemFacts, nvml: NvmlFacts, root: Path = Path("/"),
                    machine: str | None = None) -> None:
    """Fill the version-3 platform facts of ``system`` and the driver versions of ``nvml`` from ``root``."""
    system.cpu_arch = machine if machine is not None else (platform.machine() or None)
    if system.os not in (None, "Linux"):  # these files are Linux's; elsewhere the facts stay unread, with why
        for key in ("tegra_release", "tegra_soc", "board_model", "laptop", "nvidia_modules"):
            system.unknown[key] = tr("only read on Linux")
        for key in ("kernel_module_version", "library_version"):
            nvml.unknown[key] = tr("only read on Linux")
        return
    release = _read(root / "etc/nv_tegra_release")
    system.tegra_release = tegra_release(release)
    compatible = _read(root / "proc/device-tree/compatible")
    system.tegra_soc = tegra_soc(compatible)
    model = _read(root / "proc/device-tree/model")
    system.board_model = (model or "").strip("\0\n ")  # "" without a device tree (a PC)
    system.laptop = is_laptop(_read(root / "sys/class/dmi/id/chassis_type"))
    if system.laptop is None:
        system.unknown["laptop"] = tr("no DMI chassis type")
    system.nvidia_modules = nvidia_modules(_read(root / "proc/modules", 1 << 20))
    if system.nvidia_modules is None:
        system.unknown["nvidia_modules"] = tr("{path} is not readable", path="/proc/modules")
    nvml.kernel_module_version = kernel_module_version(_read(root / "proc/driver/nvidia/version"))
    if nvml.kernel_module_version is None:
        nvml.unknown["kernel_module_version"] = tr("no nvidia kernel module loaded")
    nvml.library_version = library_version(root)
    if nvml.library_version is None:
        nvml.unknown["library_version"] = tr("no NVML library (libnvidia-ml.so.1) found")
