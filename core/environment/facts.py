"""Environment facts: plain dataclasses for everything the probe reads, and their JSON file format.

Every section keeps an ``unknown`` map (field name -> reason): a fact that could not be read is
``None`` there *and* says why, so the rules never guess and a report shows what was missing.
``facts_from_dict`` is forgiving by design: a file from a newer version, with missing or mistyped
fields, still loads; each defect becomes a message naming it, and the rules that need only the facts
that were read still run.
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any

from core.atomic import atomic_write_text
from core.file_values import is_finite_number
from core.i18n import tr

#: 2 added the MIG mode and slices of each GPU and the Windows commit limit; 3 what a machine that is not a healthy
#: NVIDIA desktop needs (issue 31): the CPU architecture and Tegra (Jetson) identity, a laptop chassis, the loaded
#: nvidia kernel modules, the kernel module's driver version beside the NVML library's, each GPU's compute mode,
#: ECC and retired-page / row-remapping state, torch's HIP (ROCm) version (``ADDED_LATER``). Older files still
#: load, those facts then unread (None) and the rules that need them not-checked or silent.
FACTS_VERSION = 3
FACTS_KIND = "yolostudio-environment-facts"


@dataclass
class SystemFacts:
    os: str | None = None  # "Linux", "Windows", "Darwin"
    os_release: str | None = None
    python_version: str | None = None  # "3.11.9"
    python_executable: str | None = None
    cpu_model: str | None = None
    logical_cores: int | None = None
    usable_cores: int | None = None  # affinity mask, then cgroup quota
    cgroup_cpu_quota: float | None = None  # cores allowed by cgroup cpu.max / cfs quota
    ram_total_gb: float | None = None
    ram_available_gb: float | None = None
    swap_total_gb: float | None = None
    shm_total_gb: float | None = None
    shm_free_gb: float | None = None
    container: str | None = None  # "docker", "podman", "kubernetes", "lxc", "" (none)
    wsl: bool | None = None
    env: dict[str, str] = field(default_factory=dict)  # CUDA_VISIBLE_DEVICES, LOCAL_RANK, ...
    # Windows only (GlobalMemoryStatusEx): the commit limit is RAM + page file, what every process's committed
    # memory together may reach — spawned loader workers each commit a torch of their own (WinError 1455).
    commit_limit_gb: float | None = None  # ullTotalPageFile
    commit_available_gb: float | None = None  # ullAvailPageFile: the limit minus what is committed now
    # Facts version 3 (``gather_platform``): what kind of machine this is, before any NVIDIA rule speaks.
    cpu_arch: str | None = None  # platform.machine(): "x86_64", "aarch64", "AMD64", "arm64"
    tegra_release: str | None = None  # Jetson Linux (L4T) release from /etc/nv_tegra_release: "R36.4.3"; "" none
    tegra_soc: str | None = None  # "tegra234" from /proc/device-tree/compatible; "" not a Tegra
    board_model: str | None = None  # /proc/device-tree/model: "NVIDIA Jetson AGX Orin Developer Kit"
    laptop: bool | None = None  # DMI chassis type is a portable one (SMBIOS "System Enclosure or Chassis Types")
    nvidia_modules: list[str] | None = None  # loaded kernel modules named nvidia* (/proc/modules)
    unknown: dict[str, str] = field(default_factory=dict)


@dataclass
class DiskFacts:
    role: str = ""  # "workspace" or "dataset"
    path: str = ""
    free_gb: float | None = None
    total_gb: float | None = None
    read_mb_s: float | None = None
    files_per_s: float | None = None
    files_read: int | None = None
    unknown: dict[str, str] = field(default_factory=dict)


@dataclass
class GpuFacts:
    """One GPU as NVML sees it (index in NVML's PCI-bus order)."""

    index: int = 0
    name: str | None = None
    uuid: str | None = None
    pci_bus_id: str | None = None
    memory_total_gb: float | None = None
    memory_used_gb: float | None = None
    capability: list[int] | None = None  # [major, minor]
    util_percent: float | None = None
    temperature_c: float | None = None
    slowdown_temp_c: float | None = None
    power_w: float | None = None
    power_limit_w: float | None = None  # enforced now
    power_default_limit_w: float | None = None  # the board's default; lower enforced = someone lowered it
    pcie_gen: int | None = None
    pcie_gen_max: int | None = None
    pcie_width: int | None = None
    pcie_width_max: int | None = None
    throttle_reasons: int | None = None
    processes: list[dict[str, Any]] | None = None  # compute processes: [{"pid", "used_gb", "name"}]; None:
    # the list could not be read (its reason in ``unknown["processes"]``), which is not "no processes" ([])
    mig_mode: bool | None = None  # MIG enabled now (nvmlDeviceGetMigMode's current mode)
    mig_devices: list[dict[str, Any]] | None = None  # its slices: [{"name", "uuid", "profile", "memory_total_gb"}]
    # Facts version 3 (``gather_nvml``; NVML API Reference, each guarded: NotSupported on GeForce is normal).
    compute_mode: str | None = None  # nvmlDeviceGetComputeMode: "Default", "ExclusiveProcess", "Prohibited"
    ecc_enabled: bool | None = None  # nvmlDeviceGetEccMode, the current mode
    ecc_uncorrected: int | None = None  # nvmlDeviceGetTotalEccErrors(UNCORRECTED, VOLATILE): since the driver loaded
    retired_pages: int | None = None  # nvmlDeviceGetRetiredPages, both causes (pre-Ampere dynamic page retirement)
    retired_pages_pending: bool | None = None  # nvmlDeviceGetRetiredPagesPendingStatus: needs a reboot to retire
    remapped_rows_pending: bool | None = None  # nvmlDeviceGetRemappedRows (Ampere+): "a reset will be required"
    remapping_failed: bool | None = None  # nvmlDeviceGetRemappedRows: "a row remapping ever failed in the past"
    unknown: dict[str, str] = field(default_factory=dict)


@dataclass
class NvmlFacts:
    available: bool = False
    error: str | None = None  # "LibraryNotFound", "DriverNotLoaded", "NoPermission", "GpuIsLost", ...
    error_message: str | None = None
    driver_version: str | None = None
    cuda_driver_version: int | None = None  # 12080 = CUDA 12.8 (the nvidia-smi header)
    # Facts version 3, read from files (``gather_platform``), so they are there when NVML itself fails: the driver
    # the loaded kernel module is (/proc/driver/nvidia/version) and the one the NVML library on disk belongs to
    # (libnvidia-ml.so.<version>). Different: a driver update without a reboot ("Driver/library version mismatch").
    kernel_module_version: str | None = None
    library_version: str | None = None
    gpus: list[GpuFacts] = field(default_factory=list)
    unknown: dict[str, str] = field(default_factory=dict)


@dataclass
class TorchGpuFacts:
    """One GPU as torch sees it (CUDA order), joined to NVML by UUID / PCI bus id."""

    index: int = 0
    name: str | None = None
    uuid: str | None = None
    pci_bus_id: str | None = None
    nvml_index: int | None = None
    capability: list[int] | None = None
    memory_total_gb: float | None = None
    kernel_ok: bool | None = None
    kernel_error: str | None = None
    arch_name: str | None = None  # a ROCm device's gcnArchName ("gfx1100"); None on CUDA (facts version 3)
    unknown: dict[str, str] = field(default_factory=dict)


@dataclass
class TorchFacts:
    installed: bool | None = None
    import_error: str | None = None
    dist_version: str | None = None  # torch's installed distribution (metadata), read even when import fails
    import_s: float | None = None
    version: str | None = None
    torchvision: str | None = None
    cuda: str | None = None  # torch.version.cuda; None on a CPU build and on a ROCm build
    hip: str | None = None  # torch.version.hip: the ROCm (HIP) build's version, None elsewhere (facts version 3)
    cudnn_version: int | None = None
    cudnn_enabled: bool | None = None
    arch_list: list[str] | None = None
    cuda_available: bool | None = None
    cuda_error: str | None = None  # what torch.cuda.init() raised or warned
    device_count: int | None = None
    devices: list[TorchGpuFacts] = field(default_factory=list)
    unknown: dict[str, str] = field(default_factory=dict)


@dataclass
class DatasetFacts:
    data_yaml: str | None = None
    images: int | None = None
    sampled: int | None = None
    imgsz: int | None = None
    cache_ram_gb: float | None = None  # yolov5's check_cache_ram estimate for --cache ram
    unknown: dict[str, str] = field(default_factory=dict)


@dataclass
class ProbeInfo:
    completed: bool = True
    timed_out: bool = False
    timeout_s: float | None = None
    hung_at: str | None = None  # the step that never finished
    elapsed_s: float | None = None
    error: str | None = None


@dataclass
class EnvironmentFacts:
    version: int = FACTS_VERSION
    kind: str = FACTS_KIND
    created: float | None = None
    app_version: str | None = None
    system: SystemFacts = field(default_factory=SystemFacts)
    nvml: NvmlFacts = field(default_factory=NvmlFacts)
    torch: TorchFacts = field(default_factory=TorchFacts)
    packages: dict[str, str | None] = field(default_factory=dict)  # yolov5, ultralytics, opencv -> version
    disks: list[DiskFacts] = field(default_factory=list)
    dataset: DatasetFacts | None = None
    probe: ProbeInfo = field(default_factory=ProbeInfo)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# -- loading ------------------------------------------------------------------------------------------

#: Fields added after facts version 1: a file written before them lacks them without being defective.
ADDED_LATER = frozenset({"power_default_limit_w", "mig_mode", "mig_devices", "commit_limit_gb",
                         "commit_available_gb", "dist_version",
                         # version 3
                         "cpu_arch", "tegra_release", "tegra_soc", "board_model", "laptop", "nvidia_modules",
                         "compute_mode", "ecc_enabled", "ecc_uncorrected", "retired_pages", "retired_pages_pending",
                         "remapped_rows_pending", "remapping_failed", "kernel_module_version", "library_version",
                         "hip", "arch_name"})

_NESTED: dict[tuple[type, str], type] = {
    (EnvironmentFacts, "system"): SystemFacts, (EnvironmentFacts, "nvml"): NvmlFacts,
    (EnvironmentFacts, "torch"): TorchFacts, (EnvironmentFacts, "dataset"): DatasetFacts,
    (EnvironmentFacts, "probe"): ProbeInfo,
}
_LISTS: dict[tuple[type, str], type] = {
    (EnvironmentFacts, "disks"): DiskFacts, (NvmlFacts, "gpus"): GpuFacts, (TorchFacts, "devices"): TorchGpuFacts,
}


#: A version as every reader of one expects it: a leading number ("3.11.9", "12.8", "2.5.1+cu124").
_VERSION = re.compile(r"\s*v?\d")
#: A facts file is a few kB; this is far past any real one and stops a huge file before it is read.
MAX_FACTS_BYTES = 16 << 20


class _Problems(list):
    """Problems, and the subset that make a file invalid (values no reader could use), not just old."""

    def __init__(self) -> None:
        super().__init__()
        self.invalid: list[str] = []


def _load(cls: type, raw: Any, where: str, problems: list[str]) -> Any:
    """Build ``cls`` from ``raw``, keeping what is well-formed and naming every defect."""
    if not isinstance(raw, dict):
        problems.append(tr("{where}: expected an object, found {found}", where=where, found=type(raw).__name__))
        return cls()
    values: dict[str, Any] = {}
    defaults = cls()
    for f in fields(cls):
        name = f"{where}.{f.name}" if where else f.name
        if f.name not in raw:
            if f.name not in ("unknown", "dataset", "kind", "env") and f.name not in ADDED_LATER:
                problems.append(tr("{field}: missing", field=name))
            continue
        value = raw[f.name]
        nested = _NESTED.get((cls, f.name))
        listed = _LISTS.get((cls, f.name))
        default = getattr(defaults, f.name)
        if nested is not None:
            values[f.name] = None if value is None and f.name == "dataset" else _load(nested, value, name, problems)
        elif listed is not None:
            if not isinstance(value, list):
                problems.append(tr("{field}: expected a list", field=name))
                continue
            values[f.name] = [_load(listed, item, f"{name}[{i}]", problems) for i, item in enumerate(value)]
        elif f.name.endswith("_version") and isinstance(value, str) and not _VERSION.match(value):
            problems.append(tr("{field}: {value!r} is not a version number", field=name, value=value[:40]))
            if isinstance(problems, _Problems):
                problems.invalid.append(problems[-1])
        elif _impossible_number(f.name, value):  # `inf` cores crashed every rule that counts with them
            problems.append(tr("{field}: {value!r} is not a finite number of at least 0", field=name, value=value))
            if isinstance(problems, _Problems):
                problems.invalid.append(problems[-1])
        elif value is None or _type_ok(value, default, f.type):
            values[f.name] = value
        else:
            problems.append(tr("{field}: unexpected value {value!r}", field=name, value=value))
    return cls(**values)


def _impossible_number(name: str, value: Any) -> bool:
    """A number no machine has: NaN, ±inf (JSON's ``1e400``), or a negative count, size or rate (every
    numeric fact is one, a temperature aside)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return not is_finite_number(value) or (value < 0 and not name.endswith("_c"))


def _type_ok(value: Any, default: Any, annotation: Any) -> bool:
    text = str(annotation)
    if isinstance(default, dict):
        return isinstance(value, dict)
    if isinstance(default, list) or text.startswith("list"):
        return isinstance(value, list)
    if isinstance(value, bool):
        return "bool" in text
    if isinstance(value, (int, float)):
        return "int" in text or "float" in text
    if isinstance(value, str):
        return "str" in text
    return isinstance(value, (dict, list)) and ("dict" in text or "list" in text)


def facts_from_dict(raw: Any) -> tuple[EnvironmentFacts, list[str]]:
    """Facts from a parsed JSON object, and messages naming whatever was wrong with it."""
    problems: list[str] = _Problems()
    if not isinstance(raw, dict):
        return EnvironmentFacts(probe=ProbeInfo(completed=False)), [
            tr("The facts file holds {found}, not a facts object.", found=type(raw).__name__)]
    if "facts" in raw and isinstance(raw["facts"], dict) and "findings" in raw:
        raw = raw["facts"]  # a saved report (`doctor --json` / the page's "Save report") holds the facts too
    version = raw.get("version")
    if isinstance(version, int) and version > FACTS_VERSION:
        problems.append(tr("The facts file is version {found}, newer than this app reads ({known}); "
                           "fields it does not know are ignored.", found=version, known=FACTS_VERSION))
    elif not isinstance(version, int):
        problems.append(tr("The facts file has no valid version number."))
    facts = _load(EnvironmentFacts, raw, "", problems)
    facts.version = FACTS_VERSION
    return facts, problems


def load_facts(path: Path) -> tuple[EnvironmentFacts, list[str]]:
    """Read a facts file. Raises OSError (unreadable) or ValueError ("this facts file is not valid: …").

    Only a regular file is opened (a FIFO would block forever), at most ``MAX_FACTS_BYTES``; JSON nested
    past the parser's depth, and values no rule could use (a version that is not one), make the file
    invalid. Missing fields and fields of an older or newer layout are notes: the rules use the rest."""
    with open(Path(path), "rb", opener=_nonblocking) as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise ValueError(_invalid(tr("it is not a regular file (a folder, a pipe or a device)")))
        data = handle.read(MAX_FACTS_BYTES + 1)
    if len(data) > MAX_FACTS_BYTES:
        raise ValueError(_invalid(tr("it is larger than {limit} MB", limit=MAX_FACTS_BYTES >> 20)))
    try:
        raw = json.loads(data.decode("utf-8"))
    except RecursionError:
        raise ValueError(_invalid(tr("its JSON nests too deeply to be a facts file"))) from None
    except ValueError as exc:  # invalid JSON or UTF-8
        raise ValueError(tr("{path} is not a JSON facts file: {reason}", path=path, reason=exc)) from exc
    if not isinstance(raw, dict):
        raise ValueError(_invalid(tr("it holds a {found}, not a facts object", found=type(raw).__name__)))
    facts, problems = facts_from_dict(raw)
    invalid = getattr(problems, "invalid", [])
    if invalid:
        raise ValueError(_invalid(tr("field {problem}", problem="; ".join(invalid[:3]))))
    return facts, list(problems)


def _invalid(reason: str) -> str:
    return tr("this facts file is not valid: {reason}", reason=reason)


def _nonblocking(path: str, flags: int) -> int:
    """Open without blocking: opening a FIFO for reading waits for a writer, forever (POSIX)."""
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))


def save_facts(facts: EnvironmentFacts, path: Path) -> None:
    atomic_write_text(Path(path), json.dumps(facts.to_dict(), indent=2, ensure_ascii=False) + "\n", backup=False)


# -- privacy ------------------------------------------------------------------------------------------

def abbreviate_home(value: Any, home: str | None = None) -> Any:
    """Replace the user's home folder with ``~`` in every string of a JSON-like value (for reports)."""
    home = home if home is not None else os.path.expanduser("~")
    if not home or home in ("/", "~"):
        return value
    if isinstance(value, str):
        return value.replace(home, "~")
    if isinstance(value, dict):
        return {k: abbreviate_home(v, home) for k, v in value.items()}
    if isinstance(value, list):
        return [abbreviate_home(v, home) for v in value]
    if is_dataclass(value) and not isinstance(value, type):
        return abbreviate_home(asdict(value), home)
    return value
