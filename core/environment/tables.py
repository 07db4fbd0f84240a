"""The reference tables the environment rules judge by, kept as data (one test per row).

Sources: NVIDIA's "CUDA Compatibility" notes (driver floors per CUDA family, the driver each toolkit
shipped with), NVIDIA's compute-capability list, PyTorch's wheel builds (``torch_builds``: the builds and
Python versions each torch release ships, with their sources) and NVML's throttle bits — as collected in
``docs/facts/gpu-environment.md``. Rows marked [design] are engineering choices.
Changing a figure here changes the diagnosis everywhere; the tests pin each row.
"""

from __future__ import annotations

import re

from core.environment.torch_builds import CPU_WHEEL, Wheel, release_for  # noqa: F401 - CPU_WHEEL, Wheel re-exported

#: Versions the app is built and tested with (pyproject.toml); install commands pin these.
PINNED = {"torch": "2.14.1", "torchvision": "0.29.1", "yolov5": "7.0.14"}
PINNED_TORCH = PINNED["torch"]

#: Minimum driver per CUDA family (minor-version compatibility): major -> (Linux, Windows). Source: NVIDIA's
#: CUDA Toolkit Release Notes, "CUDA Toolkit and Minimum Required Driver Version for CUDA Minor Version
#: Compatibility" (12.x: >= 525.60.13 / >= 528.33; 13.x: >= 580 — every 13.x toolkit, 13.2 included, runs on a
#: 580-branch driver), and NVIDIA's "CUDA Compatibility" guide. A driver of a newer family runs every older
#: family's wheels (backward compatibility), so a 13.x driver runs cu126 too.
DRIVER_FLOORS: dict[int, tuple[str, str]] = {
    13: ("580.65.06", "580"),
    12: ("525.60.13", "528.33"),
    11: ("450.80.02", "452.39"),
}

#: The driver each CUDA toolkit shipped with (Linux, Windows); used to name the driver a wheel wants. Source:
#: NVIDIA's CUDA Toolkit Release Notes, "CUDA Toolkit and Corresponding Driver Versions". A toolkit missing here
#: (13.2) is named by its family's floor, which runs it through minor-version compatibility.
TOOLKIT_DRIVERS: dict[str, tuple[str, str]] = {
    "12.1": ("530.30.02", "531.14"),
    "12.4": ("550.54.14", "551.61"),
    "12.6": ("560.28.03", "560.76"),
    "12.8": ("570.26", "570.65"),
    "12.9": ("575.51.03", "576.02"),
    "13.0": ("580.65.06", "580"),  # Windows: the 580 branch (Windows numbering; 580.65.06 is Linux's)
}

#: Compute capability (major, minor) -> architecture family and typical parts.
ARCHITECTURES: dict[tuple[int, int], tuple[str, str]] = {
    (5, 0): ("Maxwell", "GTX 750, Quadro K/M"),
    (5, 2): ("Maxwell", "GTX 9xx, Titan X, M40"),
    (6, 0): ("Pascal", "P100"),
    (6, 1): ("Pascal", "GTX 10xx, P40, P4"),
    (7, 0): ("Volta", "V100, Titan V"),
    (7, 5): ("Turing", "RTX 20xx, GTX 16xx, T4, Quadro RTX"),
    (8, 0): ("Ampere", "A100, A30"),
    (8, 6): ("Ampere", "RTX 30xx, A10, A40, RTX A6000"),
    (8, 9): ("Ada", "RTX 40xx, L4, L40"),
    (9, 0): ("Hopper", "H100, H200"),
    (10, 0): ("Blackwell", "B200, GB200"),
    (12, 0): ("Blackwell", "RTX 50xx, RTX PRO 6000"),
}

PYTORCH_INDEX = "https://download.pytorch.org/whl/{tag}"


#: The CUDA builds of the torch release the app pins, in order of preference: ``torch_builds`` owns the table
#: (cu132, cu130: sm_75–sm_120; cu126: sm_50–sm_90 for torch 2.14 — no cu128).
WHEELS: tuple[Wheel, ...] = release_for(PINNED_TORCH).builds

#: NVML clocks-event (throttle) reasons that slow training; 0x1 (GPU idle) and 0x2 (app clocks) are not.
THROTTLE_BITS: dict[int, str] = {
    0x4: "SwPowerCap",
    0x8: "HwSlowdown",
    0x20: "SwThermalSlowdown",
    0x40: "HwThermalSlowdown",
    0x80: "HwPowerBrakeSlowdown",
}
THROTTLE_IDLE = 0x1
#: What each reason means, from NVML's ``nvmlClocksEventReasons`` documentation, and so which fix applies:
#: SwPowerCap "clocks optimized to not exceed the currently set power limit" (a GPU under full load at its
#: limit works as designed); HwSlowdown "engaged: temperature too high, external power brake assertion
#: (e.g. by the system power supply), or power draw too high and fast-trigger protection"; SwThermal /
#: HwThermal: "to keep the GPU below its max operating temperature"; HwPowerBrake "external power brake
#: assertion being triggered (e.g. by the system power supply)".
THROTTLE_KIND: dict[int, str] = {0x4: "power-cap", 0x8: "hardware", 0x20: "thermal", 0x40: "thermal",
                                 0x80: "power-brake"}

#: GPUs whose FP16 (AMP) training is known to produce NaN losses / zero mAP with yolov5.
AMP_UNSAFE_NAMES: tuple[str, ...] = (r"\bGTX\s*16\d\d", r"\bQuadro\s+T\d{3,4}\b", r"^(NVIDIA\s+)?T\d{3,4}\b")

#: Python versions the pinned torch release has wheels for: (oldest, newest) inclusive (``torch_builds``).
PYTHON_SUPPORTED: tuple[tuple[int, int], tuple[int, int]] = release_for(PINNED_TORCH).python

# [design] thresholds
#: Random reads of dataset images below this many files/s starve the loader on a fast GPU (yolov5s at 640
#: consumes ~500-1500 images/s on a current card); MB/s is only the fallback, as small images read fast.
DISK_SLOW_FILES_S = 400.0
DISK_SLOW_MB_S = 100.0
DISK_FREE_WARN_GB = 10.0
DISK_FREE_ERROR_GB = 2.0
#: Another *compute* process (NVML ``GetComputeRunningProcesses``: a desktop's compositor and browser are
#: graphics processes and never count) makes a GPU busy when it computes (utilisation at or above this) or
#: holds this much memory: yolov5's AutoBatch (utils/autobatch.py) sizes the batch from torch's own
#: reserved/allocated memory and ignores other processes', so their memory turns into an out-of-memory error.
GPU_BUSY_UTIL = 20.0  # % of time a kernel ran; a desktop alone stays in single digits
GPU_BUSY_MEM_GB = 1.0
GPU_BUSY_UNSEEN_UTIL = 50.0  # this busy with no process NVML can see: another container or VM uses it
#: A software power cap counts only while the GPU is not this busy, or when its limit is below the default.
POWER_CAP_BUSY_UTIL = 50.0
POWER_LIMIT_LOWERED = 0.97  # enforced / default limit under this: someone lowered it
PREFETCH_FACTOR = 2  # torch DataLoader default per worker
SHM_SAFETY = 2.0  # collated batches in flight are copied; keep twice the estimate free
RAM_CACHE_MARGIN = 1.1  # yolov5's check_cache_ram safety margin


# Data-loader workers. yolov5 7.0.14 ``utils/dataloaders.py: create_dataloader`` sizes each loader as
#     nw = min([os.cpu_count() // max(nd, 1), batch_size if batch_size > 1 else 0, workers])
# with ``nd = torch.cuda.device_count()``; ``train.py`` builds the validation loader with ``workers * 2`` and
# ``batch_size * 2``, and both are ``InfiniteDataLoader``s, whose workers start at once and live for the whole
# run. ``os.cpu_count()`` is the machine's logical CPUs: it ignores the affinity mask and a container's CPU
# quota (Python docs: "not equivalent to the number of CPUs the current process can use";
# ``len(os.sched_getaffinity(0))`` is, and cgroup ``cpu.max`` caps it further).
YOLOV5_DEFAULT_WORKERS = 8  # train.py --workers default
#: RAM one worker costs the machine beside the batches it holds: bench/worker_memory.py (yolov5's own train and
#: val datasets, imgsz 640, batch 16, 1280x960 JPEGs; PSS of the main process and its workers before and
#: after) measured 53 MB (train) / 61 MB (val) per forked worker, of which ~40 MB are its two prefetched
#: batches, and 536 / 566 MB per spawned one (each re-imports torch, cv2 and yolov5). [design] 0.1 GB for a
#: forked worker leaves room for the copy-on-write pages of the dataset's Python lists that each worker copies
#: as it touches them (pytorch/pytorch#13246), which grow with the dataset.
WORKER_BASE_RAM_GB: dict[str, float] = {"fork": 0.1, "spawn": 0.55}
#: [design] the training process's own RAM: 1.1 GB RSS measured after importing torch and yolov5 and building
#: yolov5s with its optimizer (bench/worker_memory.py, on a CPU); CUDA's host-side libraries and pinned
#: buffers add to it on a GPU machine.
TRAIN_PROCESS_RAM_GB = 2.5


def yolov5_loader_workers(workers: int, batch: int, cpu_count: int, gpus: int) -> int:
    """The workers yolov5's ``create_dataloader`` starts (see above)."""
    return max(0, min(cpu_count // max(gpus, 1), batch if batch > 1 else 0, workers))


def worker_start_method(os_name: str | None, python_version: str | None) -> str:
    """How torch starts loader workers: fork on Linux until Python 3.14, which makes forkserver the POSIX
    default (a fresh server process, so workers import torch again like spawn); spawn on Windows and macOS."""
    if os_name in ("Windows", "Darwin"):
        return "spawn"
    version = version_tuple(python_version) or (3, 11)
    return "spawn" if version[:2] >= (3, 14) else "fork"


def worker_ram_gb(method: str, batch: int, imgsz: int) -> float:
    """RAM one worker costs: its base (``WORKER_BASE_RAM_GB``) plus the uint8 batches it keeps prefetched."""
    return WORKER_BASE_RAM_GB[method] + PREFETCH_FACTOR * batch * 3 * imgsz * imgsz / 1024**3


def version_tuple(text: str | None) -> tuple[int, ...] | None:
    """'525.60.13' -> (525, 60, 13); None when it has no leading number."""
    if not text:
        return None
    parts = re.findall(r"\d+", str(text))
    return tuple(int(p) for p in parts) if parts else None


def cuda_tuple(text: str | int | None) -> tuple[int, int] | None:
    """'12.8' or 12080 (NVML's encoding) -> (12, 8)."""
    if text is None:
        return None
    if isinstance(text, int):
        return (text // 1000, (text % 1000) // 10)
    parts = version_tuple(text)
    return None if not parts else (parts[0], parts[1] if len(parts) > 1 else 0)


def driver_platform(os_name: str | None, wsl: bool | None) -> str | None:
    """Whose driver numbering counts: under WSL2 the GPU driver is the *Windows* one (NVIDIA's "CUDA on WSL
    User Guide": install the Windows driver, never a Linux driver inside WSL), and nvidia-smi there reports
    the Windows driver's version, so the Windows floors apply."""
    return "Windows" if wsl else os_name


def driver_floor(cuda_major: int, os_name: str | None) -> str | None:
    row = DRIVER_FLOORS.get(cuda_major)
    if row is None:
        return None
    return row[1] if os_name == "Windows" else row[0]


def driver_meets(driver: str | None, floor: str | None) -> bool | None:
    have, need = version_tuple(driver), version_tuple(floor)
    if have is None or need is None:
        return None
    return have >= need


def parse_arch(entry: str) -> tuple[str, tuple[int, int]] | None:
    """'sm_86' -> ('sm', (8, 6)); 'compute_90' -> ('compute', (9, 0)); 'sm_120' -> ('sm', (12, 0))."""
    match = re.fullmatch(r"(sm|compute)_(\d+)(\d)[a-z]?", entry.strip())
    if not match:
        return None
    return match.group(1), (int(match.group(2)), int(match.group(3)))


def arch_covers(archs: list[str] | tuple[tuple[int, int], ...], capability: tuple[int, int]) -> bool:
    """Does a wheel's arch list run on a GPU of this capability? sm_XY runs on major X with minor >= Y;
    PTX (compute_XY) can be JIT-compiled for any newer GPU."""
    for entry in archs:
        if isinstance(entry, str):
            parsed = parse_arch(entry)
            if parsed is None:
                continue
            kind, cc = parsed
        else:
            kind, cc = "sm", tuple(entry)
        if kind == "sm" and cc[0] == capability[0] and capability[1] >= cc[1]:
            return True
        if kind == "compute" and capability >= cc:
            return True
    return False


def architecture_name(capability: tuple[int, int]) -> str:
    row = ARCHITECTURES.get(tuple(capability))
    if row is None:
        same = [name for (major, _), (name, _) in ARCHITECTURES.items() if major == capability[0]]
        return same[0] if same else f"sm_{capability[0]}{capability[1]}"
    return row[0]


def fitting_wheels(capabilities: list[tuple[int, int]]) -> list[Wheel]:
    """The CUDA wheels compiled for every one of these GPUs, newest first."""
    return [w for w in WHEELS if all(arch_covers(w.archs, cc) for cc in capabilities)]


def choose_wheel(driver: str | None, driver_cuda: tuple[int, int] | None, capabilities: list[tuple[int, int]],
                 os_name: str | None) -> Wheel | None:
    """The wheel this driver runs and every GPU is compiled for; CPU wheel when there is no GPU; None when
    no CUDA wheel fits (the driver must be updated first).

    First choice: the newest wheel whose CUDA the driver supports outright (NVML's driver CUDA version >=
    the wheel's). Else, by minor-version compatibility, a wheel of the driver's CUDA major whose family
    floor the driver reaches — the one closest to the driver, so the least PTX JIT is needed.
    """
    if not capabilities:
        return CPU_WHEEL
    fitting = fitting_wheels(capabilities)
    floor_ok = [w for w in fitting
                if driver_meets(driver, driver_floor(w.cuda[0], os_name)) is not False]  # type: ignore[index]
    for wheel in floor_ok:
        if driver_cuda is None or driver_cuda >= wheel.cuda:  # type: ignore[operator]
            return wheel
    for wheel in reversed(floor_ok):
        if driver_cuda is not None and driver_cuda[0] == wheel.cuda[0]:  # type: ignore[index]
            return wheel
    return None


def minimum_driver_for(capabilities: list[tuple[int, int]], os_name: str | None) -> str | None:
    """The lowest driver that runs some wheel compiled for these GPUs (the oldest fitting wheel's floor)."""
    fitting = fitting_wheels(capabilities)
    return driver_floor(fitting[-1].cuda[0], os_name) if fitting else None  # type: ignore[index]


def throttle_names(mask: int | None) -> list[str]:
    if not mask:
        return []
    return [name for bit, name in THROTTLE_BITS.items() if mask & bit]


def throttle_kinds(mask: int | None) -> dict[str, list[str]]:
    """The reasons in ``mask`` grouped by what fixes them: {"thermal": ["HwThermalSlowdown"], ...}."""
    out: dict[str, list[str]] = {}
    for bit, name in THROTTLE_BITS.items():
        if mask and mask & bit:
            out.setdefault(THROTTLE_KIND[bit], []).append(name)
    return out


def amp_unsafe(name: str | None) -> bool:
    return bool(name) and any(re.search(p, name, re.I) for p in AMP_UNSAFE_NAMES)
