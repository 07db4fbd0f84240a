"""Reading the machine without torch: OS, Python, CPU and its limits, memory, /dev/shm, container/WSL.

Runs inside the probe worker (and is cheap enough for anywhere). Each reader takes what it parses as an
argument where the OS is involved (cgroup files, /proc/1/cgroup), so tests feed text instead of a
machine; whatever cannot be read goes into ``unknown`` with the reason instead of a guess.
"""

from __future__ import annotations

import math
import os
import platform
import shutil
import sys
from pathlib import Path

import psutil

from core.environment.facts import SystemFacts
from core.i18n import tr

GB = 1024**3
ENV_VARS = ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "LOCAL_RANK", "WORLD_SIZE",
            "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES")  # the last two: NVIDIA container runtime


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def parse_cgroup_quota(cpu_max: str | None, cfs_quota: str | None = None,
                       cfs_period: str | None = None) -> float | None:
    """Cores allowed by a cgroup: v2 ``cpu.max`` ("200000 100000" -> 2.0, "max 100000" -> None) or v1 quota/period."""
    if cpu_max:
        parts = cpu_max.split()
        if len(parts) == 2 and parts[0] != "max":
            try:
                return int(parts[0]) / int(parts[1])
            except (ValueError, ZeroDivisionError):
                return None
        return None
    try:
        quota, period = int((cfs_quota or "").strip()), int((cfs_period or "").strip())
    except ValueError:
        return None
    return quota / period if quota > 0 and period > 0 else None


#: Mounted into every pod unless automountServiceAccountToken is off (Kubernetes docs, "Accessing the
#: Kubernetes API from a Pod"); KUBERNETES_SERVICE_HOST is set in every container of a pod.
KUBERNETES_SERVICE_ACCOUNT = "/var/run/secrets/kubernetes.io/serviceaccount"


def detect_container(files: dict[str, bool], proc1_cgroup: str | None, env: dict[str, str]) -> str:
    """'docker', 'podman', 'kubernetes', 'lxc' or '' (none found)."""
    if env.get("KUBERNETES_SERVICE_HOST") or files.get(KUBERNETES_SERVICE_ACCOUNT) or (
            proc1_cgroup and "kubepods" in proc1_cgroup):
        return "kubernetes"
    if files.get("/run/.containerenv"):
        return "podman"
    if files.get("/.dockerenv") or (proc1_cgroup and "docker" in proc1_cgroup):
        return "docker"
    if env.get("container") == "lxc" or (proc1_cgroup and "/lxc/" in proc1_cgroup):
        return "lxc"
    return env.get("container", "")


def detect_wsl(release: str, proc_version: str | None) -> bool:
    text = f"{release} {proc_version or ''}".lower()
    return "microsoft" in text or "wsl" in text


def cpu_model(cpuinfo: str | None) -> str | None:
    for line in (cpuinfo or "").splitlines():
        if line.lower().startswith(("model name", "hardware", "processor\t: arm")):
            return line.split(":", 1)[1].strip() or None
    name = platform.processor()
    return name or None


def gather_system() -> SystemFacts:
    f = SystemFacts(os=platform.system() or None, os_release=platform.release() or None,
                    python_version=platform.python_version(), python_executable=sys.executable)
    f.cpu_model = cpu_model(_read("/proc/cpuinfo"))
    if f.cpu_model is None:
        f.unknown["cpu_model"] = tr("the OS does not name the CPU")
    f.logical_cores = os.cpu_count()
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else f.logical_cores
    if f.os == "Linux":
        f.cgroup_cpu_quota = parse_cgroup_quota(_read("/sys/fs/cgroup/cpu.max"),
                                                _read("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"),
                                                _read("/sys/fs/cgroup/cpu/cpu.cfs_period_us"))
    usable = affinity
    if f.cgroup_cpu_quota is not None and usable is not None:
        usable = max(1, min(usable, math.ceil(f.cgroup_cpu_quota)))
    f.usable_cores = usable
    vm = psutil.virtual_memory()
    f.ram_total_gb, f.ram_available_gb = vm.total / GB, vm.available / GB
    try:
        f.swap_total_gb = psutil.swap_memory().total / GB
    except (OSError, RuntimeError) as exc:
        f.unknown["swap_total_gb"] = str(exc)
    if os.path.isdir("/dev/shm"):
        try:
            usage = shutil.disk_usage("/dev/shm")
            f.shm_total_gb, f.shm_free_gb = usage.total / GB, usage.free / GB
        except OSError as exc:
            f.unknown["shm_total_gb"] = str(exc)
    else:
        f.unknown["shm_total_gb"] = tr("no /dev/shm on this OS")
    if f.os == "Linux":
        files = {p: os.path.exists(p) for p in ("/.dockerenv", "/run/.containerenv", KUBERNETES_SERVICE_ACCOUNT)}
        f.container = detect_container(files, _read("/proc/1/cgroup"), dict(os.environ))
        f.wsl = detect_wsl(platform.release(), _read("/proc/version"))
    else:
        f.container, f.wsl = "", False
    f.env = {k: os.environ[k] for k in ENV_VARS if k in os.environ}
    if f.os == "Windows":
        try:
            f.commit_limit_gb, f.commit_available_gb = windows_commit()
        except (OSError, AttributeError, ValueError) as exc:
            f.unknown["commit_limit_gb"] = f"{type(exc).__name__}: {exc}"
    return f


def windows_commit() -> tuple[float, float]:
    """(commit limit, commit still available) in GB from ``GlobalMemoryStatusEx`` (Win32 ``MEMORYSTATUSEX``:
    ``ullTotalPageFile`` "the current committed memory limit for the system", ``ullAvailPageFile`` "the maximum
    amount of memory the current process can commit")."""
    import ctypes

    class MemoryStatusEx(ctypes.Structure):
        _fields_ = [("dwLength", ctypes.c_ulong), ("dwMemoryLoad", ctypes.c_ulong),
                    *((name, ctypes.c_ulonglong) for name in (
                        "ullTotalPhys", "ullAvailPhys", "ullTotalPageFile", "ullAvailPageFile", "ullTotalVirtual",
                        "ullAvailVirtual", "ullAvailExtendedVirtual"))]

    status = MemoryStatusEx()
    status.dwLength = ctypes.sizeof(MemoryStatusEx)
    if not ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status)):  # type: ignore[attr-defined]
        raise OSError(ctypes.get_last_error(), "GlobalMemoryStatusEx failed")
    return status.ullTotalPageFile / GB, status.ullAvailPageFile / GB


def package_versions() -> dict[str, str | None]:
    """yolov5 / ultralytics / opencv versions from their metadata (None: not installed), without importing them."""
    from importlib import metadata

    out: dict[str, str | None] = {}
    for key, dists in (("yolov5", ("yolov5",)), ("ultralytics", ("ultralytics",)),
                       ("opencv", ("opencv-python", "opencv-python-headless", "opencv-contrib-python"))):
        out[key] = None
        for dist in dists:
            try:
                out[key] = metadata.version(dist)
                break
            except metadata.PackageNotFoundError:
                continue
    return out
