"""The one NVML reader: opening the library, listing the GPUs and reading their live state.

NVML (pynvml) answers in milliseconds without a CUDA context, so the GUI process, the CLI and the workers
all read GPUs through it — and all through this module, so a driver error means the same everywhere and
every reading the GPU doesn't support is ``None``, never an exception. Tests pass a fake module as ``nvml``.

One facts type per purpose, each built on ``NvmlReader``:
- which GPUs the machine has (count, names, compute capability): ``core.environment.machine.MachineFacts``, for checking
  options (Train form, ``yolostudio train``) and for what export can do (``core.export.facts``);
- live readings (utilisation, memory, temperature, power, throttle reasons): ``NvmlReader.read()`` rows — the
  ``gpus`` of ``system`` events (``core/worker/system_sampler.py``) and the status bar's glance;
- the environment checker's full record (driver, PCIe, processes …): ``core.environment.facts.NvmlFacts``,
  read by ``core/environment/gather_nvml.py`` on top of this reader (the probe job and the installer).
"""

from __future__ import annotations

from typing import Any, Callable

from core.i18n import N_, tr

GB = 1024**3
#: ``nvmlDeviceGetTemperature`` sensor 0: the GPU die.
NVML_TEMPERATURE_GPU = 0


def error_kind(exc: BaseException) -> str:
    """'NVMLError_LibraryNotFound' -> 'LibraryNotFound'; ImportError -> 'NotInstalled'."""
    if isinstance(exc, ImportError):
        return "NotInstalled"
    name = type(exc).__name__
    return name.split("NVMLError_", 1)[1] if name.startswith("NVMLError_") else name


#: pynvml's error classes (``NVMLError_<Kind>``, from NVML's ``NVML_ERROR_*`` codes) that a user meets, in words.
_ERROR_WORDS = {
    "NotInstalled": N_("the NVIDIA management library for Python (nvidia-ml-py) is not installed"),
    "LibraryNotFound": N_("no NVIDIA driver library on this machine"),
    "DriverNotLoaded": N_("the NVIDIA driver is not loaded"),
    "NoPermission": N_("no permission to query the GPU"),
    "GpuIsLost": N_("the GPU stopped answering (fell off the bus)"),
    "LibRmVersionMismatch": N_("the driver's libraries and its loaded kernel module are different versions"),
    "NotSupported": N_("not supported by this GPU"),
    "Uninitialized": N_("NVML was not started"),
    "Unknown": N_("an unknown NVML error"),
}


def error_words(kind: str) -> str:
    """An NVML error kind (``error_kind``) for a person; a kind without words as it is."""
    return tr(_ERROR_WORDS[kind]) if kind in _ERROR_WORDS else kind


def text(value: Any) -> str | None:
    """NVML returns bytes from older bindings and str from newer ones."""
    if value is None:
        return None
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


class NvmlReader:
    """NVML opened once, with every GPU's handle; readings a GPU doesn't support read as None."""

    def __init__(self, nvml: Any) -> None:
        self.nvml = nvml
        nvml.nvmlInit()
        self.handles = [nvml.nvmlDeviceGetHandleByIndex(i) for i in range(nvml.nvmlDeviceGetCount())]

    def try_call(self, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return fn(*args)
        except Exception:  # noqa: BLE001 - NVMLError_NotSupported, a GPU lost meanwhile, and friends
            return None

    def names(self) -> list[str]:
        return [text(self.try_call(self.nvml.nvmlDeviceGetName, h)) or "?" for h in self.handles]

    def capabilities(self) -> list[tuple[int, int] | None]:
        out: list[tuple[int, int] | None] = []
        for handle in self.handles:
            cc = self.try_call(self.nvml.nvmlDeviceGetCudaComputeCapability, handle)  # old drivers lack it
            out.append((int(cc[0]), int(cc[1])) if cc is not None else None)
        return out

    def read(self) -> list[dict[str, Any]]:
        """Live readings per GPU (the ``gpus`` rows of a ``system`` event, docs/protocol.md)."""
        n = self.nvml
        out = []
        for index, handle in enumerate(self.handles):
            util = self.try_call(n.nvmlDeviceGetUtilizationRates, handle)
            mem = self.try_call(n.nvmlDeviceGetMemoryInfo, handle)
            power = self.try_call(n.nvmlDeviceGetPowerUsage, handle)
            limit = self.try_call(n.nvmlDeviceGetEnforcedPowerLimit, handle)
            out.append({
                "index": index,
                "util_percent": None if util is None else util.gpu,
                "mem_util_percent": None if util is None else util.memory,
                "mem_used_gb": None if mem is None else mem.used / GB,
                "mem_total_gb": None if mem is None else mem.total / GB,
                "temperature_c": self.try_call(n.nvmlDeviceGetTemperature, handle, NVML_TEMPERATURE_GPU),
                "power_w": None if power is None else power / 1000.0,
                "power_limit_w": None if limit is None else limit / 1000.0,
                "throttle_reasons": self.try_call(n.nvmlDeviceGetCurrentClocksEventReasons, handle),
            })
        return out

    def close(self) -> None:
        self.try_call(self.nvml.nvmlShutdown)


class NvmlUnavailable(Exception):
    """NVML cannot be used here; ``kind`` is the short error kind, the message NVML's own words."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def open_nvml(nvml: Any | None = None, reader: type[NvmlReader] = NvmlReader) -> NvmlReader:
    """Open NVML (pynvml unless a module is given); raises ``NvmlUnavailable`` with the reason."""
    try:
        if nvml is None:
            import pynvml as nvml  # noqa: PLC0415 - optional: absent or driverless machines are normal
        return reader(nvml)
    except Exception as exc:  # noqa: BLE001 - ImportError, LibraryNotFound, DriverNotLoaded, NoPermission...
        raise NvmlUnavailable(error_kind(exc), str(exc) or type(exc).__name__) from exc
