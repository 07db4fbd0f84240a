"""The installer's view of this machine: OS, Python, NVIDIA driver and each GPU's compute capability.

Read through NVML with the environment checker's own reader (``core.environment.gather_nvml``) when
nvidia-ml-py can be imported — the installer puts it into the app's fresh venv first, as a bootstrap
step — else through ``nvidia-smi --query-gpu``, which every
NVIDIA driver ships (Linux and Windows). The result is ``EnvironmentFacts``, the type a saved facts file
loads into, so ``--facts FILE`` and this machine are planned by the same code.
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
import sys
from typing import Callable

from core.environment.facts import EnvironmentFacts, GpuFacts, NvmlFacts, SystemFacts
from core.environment.platform_kind import this_machine

#: ``nvidia-smi --query-gpu`` fields, in order; compute_cap exists since driver 510 (older ones refuse it).
SMI_FIELDS = ("index", "name", "uuid", "pci.bus_id", "driver_version", "memory.total", "compute_cap")
SMI_TIMEOUT_S = 20.0  # a wedged driver makes nvidia-smi hang; the plan goes on without the GPU then

Runner = Callable[[list[str]], tuple[int, str]]  # argv -> (exit code, stdout + stderr)


def run_command(argv: list[str]) -> tuple[int, str]:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=SMI_TIMEOUT_S, check=False)
    except FileNotFoundError:
        return 127, f"{argv[0]}: not found"
    except subprocess.TimeoutExpired:
        return 124, f"{argv[0]}: no answer within {SMI_TIMEOUT_S:.0f} s"
    return done.returncode, (done.stdout or "") + (done.stderr or "")


def system_facts() -> SystemFacts:
    """WSL and containers matter to the plan: the driver there is the Windows one / the host's."""
    container, wsl = this_machine()
    return SystemFacts(os=platform.system(), os_release=platform.release(), python_version=platform.python_version(),
                       python_executable=sys.executable, logical_cores=os.cpu_count(), wsl=wsl, container=container)


def venv_available() -> bool:
    """Can this Python make a venv with pip? Debian/Ubuntu ship ``ensurepip`` in a separate package."""
    import importlib.util  # noqa: PLC0415

    return all(importlib.util.find_spec(name) is not None for name in ("venv", "ensurepip"))


def _value(text: str) -> str | None:
    text = text.strip()
    return None if not text or text.startswith("[") or text in ("N/A", "Not Supported") else text


def parse_smi_gpus(text: str, fields: tuple[str, ...]) -> tuple[str | None, list[GpuFacts]]:
    """(driver version, GPUs) from ``--format=csv,noheader,nounits`` output."""
    driver = None
    gpus = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.split(",")]
        if len(cells) != len(fields):
            continue
        row = dict(zip(fields, cells))
        index = _value(row["index"])
        if index is None or not index.isdigit():
            continue
        gpu = GpuFacts(index=int(index), name=_value(row["name"]), uuid=_value(row["uuid"]),
                       pci_bus_id=_value(row["pci.bus_id"]))
        memory = _value(row["memory.total"])
        gpu.memory_total_gb = round(float(memory) / 1024, 2) if memory and memory.replace(".", "").isdigit() else None
        cc = _value(row.get("compute_cap", ""))
        match = re.fullmatch(r"(\d+)\.(\d+)", cc or "")
        gpu.capability = [int(match.group(1)), int(match.group(2))] if match else None
        if gpu.capability is None:
            gpu.unknown["capability"] = "NotSupported"
        driver = driver or _value(row["driver_version"])
        gpus.append(gpu)
    return driver, gpus


def parse_smi_cuda(text: str) -> int | None:
    """The "CUDA Version: 12.8" of nvidia-smi's header, in NVML's encoding (12080)."""
    match = re.search(r"CUDA Version\s*:\s*(\d+)\.(\d+)", text)
    return int(match.group(1)) * 1000 + int(match.group(2)) * 10 if match else None


def smi_error_kind(text: str) -> str:
    lowered = text.lower()
    if "couldn't communicate with the nvidia driver" in lowered or "driver/library version mismatch" in lowered:
        return "DriverNotLoaded"
    if "no devices were found" in lowered:
        return "NoDevices"
    if "insufficient permissions" in lowered:
        return "NoPermission"
    return "NvidiaSmiFailed"


def nvidia_smi_facts(run: Runner = run_command, smi: str | None = None) -> NvmlFacts:
    """NVML facts read through nvidia-smi; ``available=False`` with the reason when it can't be used."""
    smi = smi or shutil.which("nvidia-smi")
    if smi is None:
        return NvmlFacts(available=False, error="LibraryNotFound", error_message="nvidia-smi not found")
    fields = SMI_FIELDS
    code, out = run([smi, f"--query-gpu={','.join(fields)}", "--format=csv,noheader,nounits"])
    if code != 0 and "compute_cap" in out:  # a driver older than 510: no compute_cap field
        fields = tuple(f for f in SMI_FIELDS if f != "compute_cap")
        code, out = run([smi, f"--query-gpu={','.join(fields)}", "--format=csv,noheader,nounits"])
    if code != 0:
        kind = smi_error_kind(out)
        if kind == "NoDevices":
            return NvmlFacts(available=True, gpus=[])
        return NvmlFacts(available=False, error=kind, error_message=out.strip()[:300])
    driver, gpus = parse_smi_gpus(out, fields)
    _, header = run([smi])
    facts = NvmlFacts(available=True, driver_version=driver, cuda_driver_version=parse_smi_cuda(header), gpus=gpus)
    if facts.cuda_driver_version is None:
        facts.unknown["cuda_driver_version"] = "NotInHeader"
    return facts


def nvml_facts(run: Runner = run_command) -> tuple[NvmlFacts, str]:
    """(facts, source): NVML through nvidia-ml-py when it can be imported, else nvidia-smi."""
    try:
        from core.environment.gather_nvml import gather_nvml  # noqa: PLC0415 - lazy: only this path needs it
    except ImportError:
        gather_nvml = None
    if gather_nvml is not None:
        facts = gather_nvml()
        if facts.error != "NotInstalled":
            return facts, "NVML"
    return nvidia_smi_facts(run), "nvidia-smi"


def detect(run: Runner = run_command) -> tuple[EnvironmentFacts, str]:
    """This machine's facts for planning an install, and where the GPU facts came from."""
    nvml, source = nvml_facts(run)
    return EnvironmentFacts(system=system_facts(), nvml=nvml), source
