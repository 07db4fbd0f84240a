"""The environment checker's NVML facts: driver, and per GPU its identity, limits and current state.

Extends the one NVML reader (``core.environment.nvml.NvmlReader``: the same handles and the same live readings as the
training sampler: utilisation, memory, temperature, power, throttle reasons) with what the checker needs
once: names, UUIDs, PCI ids, compute capability, slowdown temperature, PCIe link, compute processes.
Every NVML error is mapped to a short kind (LibraryNotFound, DriverNotLoaded, NoPermission, GpuIsLost,
NotSupported...) and recorded, never raised: a machine without a driver is a fact, not a crash. No torch
here: the probe job calls it, and so does the installer before torch is installed.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from core.environment.facts import GpuFacts, NvmlFacts
from core.environment.nvml import GB, NvmlReader, NvmlUnavailable, error_kind, open_nvml, text

NVML_TEMPERATURE_THRESHOLD_SLOWDOWN = 1
#: ``nvmlComputeMode_t`` (NVML API Reference, "Device Enums"): 0 DEFAULT "multiple contexts per device",
#: 1 EXCLUSIVE_THREAD "support removed", 2 PROHIBITED "no contexts per device", 3 EXCLUSIVE_PROCESS "only one
#: context per device, usable from multiple threads at a time".
COMPUTE_MODES = {0: "Default", 1: "ExclusiveThread", 2: "Prohibited", 3: "ExclusiveProcess"}
#: ``nvmlDeviceGetTotalEccErrors(handle, NVML_MEMORY_ERROR_TYPE_UNCORRECTED=1, NVML_VOLATILE_ECC=0)``: the
#: uncorrectable errors since the driver loaded; ``nvmlPageRetirementCause_t``: 0 multiple single-bit, 1 double-bit.
NVML_MEMORY_ERROR_TYPE_UNCORRECTED = 1
NVML_VOLATILE_ECC = 0
PAGE_RETIREMENT_CAUSES = (0, 1)
#: A MIG device's name ends with its profile: "NVIDIA A100-SXM4-40GB MIG 1g.5gb", "… MIG 1c.3g.20gb" (a compute
#: instance of 1 of a 3-slice GPU instance) — NVIDIA MIG User Guide, "Supported MIG Profiles".
_MIG_PROFILE = re.compile(r"\bMIG\s+((?:\d+c\.)?\d+g\.\d+gb(?:\+\w+)?)", re.I)


def mig_profile(name: str | None) -> str | None:
    """'NVIDIA A100-SXM4-40GB MIG 1g.5gb' -> '1g.5gb'; None for a whole GPU's name."""
    match = _MIG_PROFILE.search(name or "")
    return match.group(1).lower() if match else None


class NvmlFactsReader(NvmlReader):
    """``NvmlReader`` plus the one-off facts; each unreadable fact lands in ``unknown`` with its error kind."""

    def _get(self, unknown: dict[str, str], key: str, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return fn(*args)
        except Exception as exc:  # noqa: BLE001 - every NVML error is a recorded fact
            unknown[key] = error_kind(exc)
            return None

    def _call(self, unknown: dict[str, str], key: str, name: str, *args: Any) -> Any:
        """``_get`` for an NVML function an older pynvml may lack (then recorded as NotSupported)."""
        fn = getattr(self.nvml, name, None)
        if fn is None:
            unknown[key] = "NotSupported"
            return None
        return self._get(unknown, key, fn, *args)

    def _process_name(self, pid: int) -> str | None:
        """The process's name as NVML gives it (a full path on Linux), so a finding can say what it is."""
        name = text(self._call({}, "name", "nvmlSystemGetProcessName", pid))
        if not name:
            return None
        return name.replace("\\", "/").rsplit("/", 1)[-1] or None

    def _mig(self, unknown: dict[str, str], handle: Any) -> tuple[bool | None, list[dict[str, Any]] | None]:
        """(MIG on now, its slices): ``nvmlDeviceGetMigMode`` → (current, pending); each slice from
        ``nvmlDeviceGetMigDeviceHandleByIndex`` with its name ("… MIG 1g.5gb"), UUID and memory. A GPU without
        MIG answers NotSupported: then both are None and ``unknown`` says so."""
        mode = self._call(unknown, "mig_mode", "nvmlDeviceGetMigMode", handle)
        if mode is None:
            return None, None
        current = bool(mode[0] if isinstance(mode, (list, tuple)) else mode)
        if not current:
            return False, []
        slices: list[dict[str, Any]] = []
        count = self._call(unknown, "mig_devices", "nvmlDeviceGetMaxMigDeviceCount", handle) or 0
        for i in range(int(count)):
            mig = self._call({}, "mig", "nvmlDeviceGetMigDeviceHandleByIndex", handle, i)
            if mig is None:
                continue  # an index without a slice (NotFound): MIG slots are sparse
            name = text(self._get({}, "name", self.nvml.nvmlDeviceGetName, mig))
            memory = self._get({}, "memory", self.nvml.nvmlDeviceGetMemoryInfo, mig)
            slices.append({"name": name, "uuid": text(self._get({}, "uuid", self.nvml.nvmlDeviceGetUUID, mig)),
                           "profile": mig_profile(name),
                           "memory_total_gb": memory.total / GB if memory is not None else None})
        return True, slices

    def _health(self, g: GpuFacts, handle: Any) -> None:
        """Compute mode, ECC and the memory's retired pages / remapped rows, each guarded: GeForce cards answer
        NotSupported for ECC and page retirement, pre-Ampere cards for row remapping, and that is recorded."""
        u = g.unknown
        mode = self._call(u, "compute_mode", "nvmlDeviceGetComputeMode", handle)
        g.compute_mode = COMPUTE_MODES.get(int(mode), str(mode)) if mode is not None else None
        ecc = self._call(u, "ecc_enabled", "nvmlDeviceGetEccMode", handle)
        g.ecc_enabled = bool(ecc[0] if isinstance(ecc, (list, tuple)) else ecc) if ecc is not None else None
        if g.ecc_enabled:
            g.ecc_uncorrected = self._call(u, "ecc_uncorrected", "nvmlDeviceGetTotalEccErrors", handle,
                                           NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_VOLATILE_ECC)
        pages = [self._call(u, "retired_pages", "nvmlDeviceGetRetiredPages", handle, cause)
                 for cause in PAGE_RETIREMENT_CAUSES]
        g.retired_pages = sum(len(p) for p in pages) if all(p is not None for p in pages) else None
        pending = self._call(u, "retired_pages_pending", "nvmlDeviceGetRetiredPagesPendingStatus", handle)
        g.retired_pages_pending = bool(pending) if pending is not None else None
        rows = self._call(u, "remapped_rows_pending", "nvmlDeviceGetRemappedRows", handle)
        if rows is not None:  # (correctable rows, uncorrectable rows, pending, failure occurred)
            g.remapped_rows_pending, g.remapping_failed = bool(rows[2]), bool(rows[3])
        else:
            u["remapping_failed"] = u.get("remapped_rows_pending", "NotSupported")

    def facts(self) -> NvmlFacts:
        n = self.nvml
        out = NvmlFacts(available=True)
        out.driver_version = text(self._get(out.unknown, "driver_version", n.nvmlSystemGetDriverVersion))
        cuda_fn = getattr(n, "nvmlSystemGetCudaDriverVersion_v2", None) or n.nvmlSystemGetCudaDriverVersion
        out.cuda_driver_version = self._get(out.unknown, "cuda_driver_version", cuda_fn)
        live = self.read()
        for index, handle in enumerate(self.handles):
            g = GpuFacts(index=index)
            u = g.unknown
            g.name = text(self._get(u, "name", n.nvmlDeviceGetName, handle))
            g.uuid = text(self._get(u, "uuid", n.nvmlDeviceGetUUID, handle))
            pci = self._get(u, "pci_bus_id", n.nvmlDeviceGetPciInfo, handle)
            g.pci_bus_id = text(getattr(pci, "busId", None)) if pci is not None else None
            cc = self._get(u, "capability", n.nvmlDeviceGetCudaComputeCapability, handle)
            g.capability = list(cc) if cc is not None else None
            sample = live[index] if index < len(live) else {}
            g.memory_total_gb = sample.get("mem_total_gb")
            g.memory_used_gb = sample.get("mem_used_gb")
            g.util_percent = sample.get("util_percent")
            g.temperature_c = sample.get("temperature_c")
            g.power_w = sample.get("power_w")
            g.power_limit_w = sample.get("power_limit_w")
            default = self._call(u, "power_default_limit_w", "nvmlDeviceGetPowerManagementDefaultLimit", handle)
            g.power_default_limit_w = None if default is None else default / 1000.0
            g.throttle_reasons = sample.get("throttle_reasons")
            for key in ("memory_total_gb", "util_percent", "temperature_c", "power_w", "throttle_reasons"):
                if getattr(g, key) is None:
                    u.setdefault(key, "NotSupported")
            g.slowdown_temp_c = self._get(u, "slowdown_temp_c", n.nvmlDeviceGetTemperatureThreshold, handle,
                                          NVML_TEMPERATURE_THRESHOLD_SLOWDOWN)
            g.pcie_gen = self._get(u, "pcie_gen", n.nvmlDeviceGetCurrPcieLinkGeneration, handle)
            g.pcie_gen_max = self._get(u, "pcie_gen_max", n.nvmlDeviceGetMaxPcieLinkGeneration, handle)
            g.pcie_width = self._get(u, "pcie_width", n.nvmlDeviceGetCurrPcieLinkWidth, handle)
            g.pcie_width_max = self._get(u, "pcie_width_max", n.nvmlDeviceGetMaxPcieLinkWidth, handle)
            g.mig_mode, g.mig_devices = self._mig(u, handle)
            self._health(g, handle)
            procs = self._get(u, "processes", n.nvmlDeviceGetComputeRunningProcesses, handle)
            if procs is not None:
                g.processes = [{"pid": p.pid, "used_gb": (p.usedGpuMemory / GB) if getattr(p, "usedGpuMemory", None)
                                else None, "name": self._process_name(p.pid)} for p in procs]
            out.gpus.append(g)
        return out


def gather_nvml(nvml: Any | None = None) -> NvmlFacts:
    """NVML facts, or ``available=False`` with the error kind and message when NVML can't be used."""
    try:
        reader = open_nvml(nvml, NvmlFactsReader)
    except NvmlUnavailable as exc:
        return NvmlFacts(available=False, error=exc.kind, error_message=str(exc))
    try:
        return reader.facts()
    finally:
        reader.close()
