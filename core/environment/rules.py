"""The environment rules: pure functions from facts to findings, run from one table.

Each rule looks at ``EnvironmentFacts`` (and the training options it should be judged for, in
``RuleContext``) and returns findings. A rule that needs a fact that was not read raises ``Unknown``:
its check is reported as unknown with the reason, and every other rule still runs — so a partial or
old facts file still gets the diagnosis that its facts allow. Rules see the findings of the rules
before them, so a consequence is not reported twice (no "CUDA unusable" on top of "driver too old").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from core.environment.commands import (driver_update_command, torch_install_command, torchrun_command,
                                       yolov5_install_command)
from core.environment.facts import EnvironmentFacts, GpuFacts
from core.environment.findings import CheckResult, Evaluation, Finding
from core.environment.tables import (DISK_FREE_ERROR_GB, DISK_FREE_WARN_GB, DISK_SLOW_FILES_S, DISK_SLOW_MB_S,
                                     DRIVER_FLOORS, GPU_BUSY_MEM_SHARE, PREFETCH_FACTOR, PYTHON_SUPPORTED,
                                     RAM_CACHE_MARGIN, SHM_SAFETY, TOOLKIT_DRIVERS, amp_unsafe, arch_covers,
                                     architecture_name, choose_wheel, cuda_tuple, driver_floor, driver_meets,
                                     minimum_driver_for, throttle_names, version_tuple)
from core.i18n import tr

GB = 1024**3


class Unknown(Exception):
    """A rule cannot judge: a fact it needs was not read (the message says which)."""


class NotApplicable(Exception):
    """The check does not apply to this machine (GPU checks without a GPU); the message says why."""


def _need_gpu(f: EnvironmentFacts) -> None:
    if not _nvml_gpus(f) and not f.torch.cuda_available and not f.torch.device_count:
        raise NotApplicable(tr("no NVIDIA GPU"))


@dataclass(frozen=True)
class RuleContext:
    """The training options to judge the machine for (shared memory and RAM depend on them)."""

    workers: int = 8
    batch: int = 16
    imgsz: int = 640


def _need(value: object, name: str) -> object:
    if value is None:
        raise Unknown(tr("{fact} was not read", fact=name))
    return value


def _cc(gpu: GpuFacts) -> tuple[int, int] | None:
    cc = gpu.capability
    return (int(cc[0]), int(cc[1])) if cc and len(cc) >= 2 else None


def _capabilities(f: EnvironmentFacts) -> list[tuple[int, int]]:
    caps = [cc for cc in (_cc(g) for g in f.nvml.gpus) if cc is not None]
    if not caps:
        caps = [tuple(d.capability[:2]) for d in f.torch.devices if d.capability]  # type: ignore[misc]
    return caps


def _nvml_gpus(f: EnvironmentFacts) -> bool:
    return f.nvml.available and len(f.nvml.gpus) > 0


def _cuda_text(cuda: tuple[int, int] | None) -> str:
    return "—" if cuda is None else f"{cuda[0]}.{cuda[1]}"


def _right_wheel_fix(f: EnvironmentFacts) -> tuple[str, str]:
    """(fix, fix_kind): the install command for the wheel that fits this driver and GPU, or a driver update."""
    caps = _capabilities(f)
    wheel = choose_wheel(f.nvml.driver_version, cuda_tuple(f.nvml.cuda_driver_version), caps, f.system.os)
    if wheel is None:
        needed = minimum_driver_for(caps, f.system.os) or driver_floor(max(DRIVER_FLOORS), f.system.os) or "?"
        return driver_update_command(f.system.os, needed), "command"
    return torch_install_command(f, wheel), "command"


def _gpu_words(f: EnvironmentFacts) -> str:
    names = [g.name or "?" for g in f.nvml.gpus] or [d.name or "?" for d in f.torch.devices]
    return ", ".join(names)


# -- the rules ------------------------------------------------------------------------------------------

def rule_probe(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    p = f.probe
    if p.timed_out:
        return [Finding("probe-timeout", "error", tr("The environment check hung and was stopped"),
                        tr("The probe did not finish step '{step}' within {limit:.0f} s and was killed. A GPU driver "
                           "that hangs like this (a wedged driver, a GPU that fell off the bus) will hang training "
                           "too.", step=p.hung_at or "?", limit=p.timeout_s or 0),
                        {tr("step"): p.hung_at or "?", tr("time limit"): f"{p.timeout_s or 0:.0f} s"},
                        tr("Run nvidia-smi: if it hangs or shows 'ERR!', reboot the machine; if it persists, check "
                           "'sudo dmesg | grep -i xid' for the GPU error."), "advice")]
    if not p.completed:
        return [Finding("probe-failed", "error", tr("The environment check did not finish"),
                        tr("The probe process ended before reporting all facts; the checks below use what it "
                           "reported."), {tr("reason"): p.error or "?"},
                        tr("Run 'yolostudio doctor' in a terminal to see the probe's own messages."), "advice")]
    return []


def rule_python(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    version = version_tuple(str(_need(f.system.python_version, "Python version")))
    assert version is not None
    low, high = PYTHON_SUPPORTED
    if low <= version[:2] <= high:
        return []
    severity = "error" if version[:2] < low else "warning"
    return [Finding("python-unsupported", severity, tr("Python {version} is not supported",
                                                        version=f.system.python_version),
                    tr("YOLO Studio and its PyTorch wheels are built for Python {low} to {high}; with another "
                       "version the right wheels may not exist or install.",
                       low="%d.%d" % low, high="%d.%d" % high),
                    {tr("Python"): str(f.system.python_version), tr("supported"): "%d.%d–%d.%d" % (*low, *high)},
                    tr("Create the app's environment with Python {high}: python{high} -m venv .venv, then run "
                       "installer/launch.sh again.", high="%d.%d" % high), "command")]


def rule_torch_missing(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    if _need(f.torch.installed, "torch installed") is True:
        return []
    fix, kind = _right_wheel_fix(f)
    return [Finding("torch-missing", "error", tr("PyTorch is not installed"),
                    tr("Training needs PyTorch; importing it failed."),
                    {tr("import error"): f.torch.import_error or "?"}, fix, kind)]


def rule_yolov5_missing(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    if "yolov5" not in f.packages:
        raise Unknown(tr("{fact} was not read", fact="yolov5"))
    if f.packages["yolov5"]:
        return []
    return [Finding("yolov5-missing", "error", tr("The yolov5 package is not installed"),
                    tr("YOLO Studio trains with the yolov5 package's own trainer."),
                    {"yolov5": tr("not installed")}, yolov5_install_command(f), "command")]


def rule_no_gpu(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    if _nvml_gpus(f) or f.torch.cuda_available or f.torch.device_count:
        return []
    if not f.nvml.available and f.nvml.error is None and f.torch.cuda_available is None:
        raise Unknown(tr("{fact} was not read", fact="NVML"))
    reason = f"{f.nvml.error}: {f.nvml.error_message or ''}".strip(": ") if f.nvml.error else tr("no GPU listed")
    hint = (tr("In WSL, install the NVIDIA driver on Windows (not inside WSL); NVML lives in /usr/lib/wsl/lib.")
            if f.system.wsl else
            tr("If this machine has an NVIDIA GPU, install its driver until 'nvidia-smi' lists it, then re-check."))
    return [Finding("no-gpu", "info", tr("No NVIDIA GPU found: training runs on the CPU"),
                    tr("Without a usable NVIDIA GPU, yolov5 trains on the CPU — fine for the demo, one to two "
                       "orders of magnitude slower for real datasets."),
                    {tr("NVML"): reason, tr("torch CUDA available"): str(f.torch.cuda_available)},
                    hint, "advice")]


def rule_nvml(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    error = f.nvml.error
    if f.nvml.available or error is None:
        return []
    if error in ("LibraryNotFound", "NotInstalled") and not (f.torch.cuda_available or f.torch.device_count) \
            and not f.system.wsl:
        raise NotApplicable(tr("no NVIDIA driver installed"))
    evidence = {tr("NVML error"): f"{error}: {f.nvml.error_message or ''}".strip(": ")}
    if error == "LibraryNotFound":
        if f.system.wsl:
            return [Finding("nvml-unavailable", "warning", tr("NVML not found inside WSL"),
                            tr("WSL provides the NVIDIA library from the Windows driver in /usr/lib/wsl/lib; "
                               "without it the app cannot read GPU utilisation or check the driver."), evidence,
                            "export LD_LIBRARY_PATH=/usr/lib/wsl/lib:$LD_LIBRARY_PATH", "command")]
        return [Finding("nvml-unavailable", "warning", tr("GPU monitoring is unavailable (no NVML library)"),
                        tr("torch sees a GPU but the NVIDIA management library is missing, so the app cannot show "
                           "GPU utilisation, temperature or throttling."), evidence,
                        tr("Install the NVIDIA driver's utilities package (it provides libnvidia-ml and nvidia-smi)."),
                        "advice")]
    fixes = {
        "DriverNotLoaded": (tr("The NVIDIA driver is installed but not loaded"), "error",
                            tr("sudo modprobe nvidia   # if that fails (e.g. after a kernel update), reboot"),
                            "command"),
        "NoPermission": (tr("No permission to talk to the GPU driver"), "warning",
                         "sudo usermod -aG video $USER   # then log out and in", "command"),
        "GpuIsLost": (tr("A GPU has fallen off the bus"), "error",
                      tr("Reboot the machine; if it happens again, check power and cooling, and "
                         "'sudo dmesg | grep -i xid'."), "advice"),
    }
    title, severity, fix, kind = fixes.get(error, (tr("The GPU driver cannot be queried"), "warning",
                                                    tr("Run nvidia-smi to see the driver's own error."), "advice"))
    return [Finding("nvml-unavailable", severity, title,
                    tr("NVML (the driver's management library) answered with an error: the driver and GPUs cannot "
                       "be checked, and training may not see the GPU."), evidence, fix, kind)]


def rule_torch_cpu_build(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    _need_gpu(f)
    if not f.torch.installed or not _nvml_gpus(f):
        return []
    if _need(f.torch.version, "torch version") and f.torch.cuda is not None:
        return []
    fix, kind = _right_wheel_fix(f)
    return [Finding("torch-cpu-build", "error", tr("PyTorch is a CPU-only build, but this machine has an NVIDIA GPU"),
                    tr("The installed torch wheel has no CUDA support, so training would run on the CPU and the "
                       "GPU would sit idle. Install the CUDA wheel that matches the driver."),
                    {tr("torch"): str(f.torch.version), tr("torch CUDA"): tr("none (CPU build)"),
                     tr("GPUs"): _gpu_words(f), tr("driver"): str(f.nvml.driver_version)}, fix, kind)]


def rule_driver(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    _need_gpu(f)
    if not f.torch.cuda or not _nvml_gpus(f):
        return []
    wheel = cuda_tuple(f.torch.cuda)
    driver = str(_need(f.nvml.driver_version, "driver version"))
    driver_cuda = cuda_tuple(f.nvml.cuda_driver_version)
    assert wheel is not None
    floor = driver_floor(wheel[0], f.system.os)
    evidence = {tr("driver"): driver, tr("driver's CUDA"): _cuda_text(driver_cuda),
                tr("torch wheel CUDA"): f.torch.cuda, tr("family minimum driver"): floor or "?"}
    too_old = (driver_cuda is not None and driver_cuda[0] < wheel[0]) or driver_meets(driver, floor) is False
    if too_old:
        fix, kind = _right_wheel_fix(f)
        toolkit = TOOLKIT_DRIVERS.get(f"{wheel[0]}.{wheel[1]}")
        wanted = (toolkit[1] if f.system.os == "Windows" else toolkit[0]) if toolkit else floor
        return [Finding("driver-too-old", "error",
                        tr("The GPU driver is too old for this PyTorch (CUDA {cuda})", cuda=f.torch.cuda),
                        tr("torch's CUDA {cuda} runtime needs driver {floor} or newer; with driver {driver} CUDA "
                           "cannot start and training falls back to the CPU. Either install the wheel that fits this "
                           "driver (the command below) or update the driver to {wanted} or newer.",
                           cuda=f.torch.cuda, floor=floor, driver=driver, wanted=wanted), evidence, fix, kind)]
    if driver_cuda is not None and driver_cuda < wheel:
        toolkit = TOOLKIT_DRIVERS.get(f"{wheel[0]}.{wheel[1]}", (floor or "", floor or ""))
        return [Finding("driver-cuda-minor", "info",
                        tr("The driver supports CUDA {have}; this PyTorch is built for {want}",
                           have=_cuda_text(driver_cuda), want=f.torch.cuda),
                        tr("Same CUDA major version, so it runs (minor-version compatibility), but kernels that need "
                           "PTX JIT compilation may be unavailable."), evidence,
                        driver_update_command(f.system.os, toolkit[1 if f.system.os == "Windows" else 0]),
                        "command")]
    return []


def rule_arch(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    _need_gpu(f)
    if not f.torch.cuda:
        return []
    archs = list(_need(f.torch.arch_list, "torch arch list") or [])  # type: ignore[arg-type]
    if not archs:
        raise Unknown(tr("{fact} was not read", fact="torch arch list"))
    out = []
    for cc in sorted(set(_capabilities(f))):
        if arch_covers(archs, cc):
            continue
        fix, kind = _right_wheel_fix(f)
        out.append(Finding("gpu-arch-unsupported", "error",
                           tr("This PyTorch has no kernels for the GPU's architecture (sm_{cc})", cc=f"{cc[0]}{cc[1]}"),
                           tr("The GPU is {family} (compute capability {major}.{minor}); the installed wheel is "
                              "compiled for {archs}. CUDA calls fail with 'no kernel image is available for "
                              "execution on the device'.", family=architecture_name(cc), major=cc[0], minor=cc[1],
                              archs=" ".join(archs)),
                           {tr("GPU"): _gpu_words(f), tr("compute capability"): f"{cc[0]}.{cc[1]}",
                            tr("wheel arch list"): " ".join(archs), tr("torch"): str(f.torch.version)}, fix, kind))
    return out


def rule_cuda_unusable(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    _need_gpu(f)
    if not f.torch.cuda or not f.torch.installed:
        return []
    if any(e.id in ("driver-too-old", "gpu-arch-unsupported", "torch-cpu-build", "nvml-unavailable")
           and e.severity == "error" for e in earlier):
        return []
    failed = [d for d in f.torch.devices if d.kernel_ok is False]
    if f.torch.cuda_available is False and _nvml_gpus(f):
        message = f.torch.cuda_error or tr("torch.cuda.is_available() is False")
        visible = f.system.env.get("CUDA_VISIBLE_DEVICES")
        fix = (tr("unset CUDA_VISIBLE_DEVICES   # it is set to '{value}', which hides every GPU", value=visible)
               if visible is not None and visible.strip() in ("", "-1", "none") else
               tr("Reboot (a driver update needs it); if it persists: {cmd}", cmd=_right_wheel_fix(f)[0]))
        return [Finding("cuda-unusable", "error", tr("PyTorch cannot use the GPU"),
                        tr("NVML lists the GPU, but CUDA does not start in torch, so training would run on the CPU."),
                        {tr("message"): message, tr("GPUs"): _gpu_words(f), tr("CUDA_VISIBLE_DEVICES"): str(visible)},
                        fix, "command")]
    return [Finding("cuda-unusable", "error", tr("A test kernel failed on GPU {index} ({name})", index=d.index,
                                                 name=d.name or "?"),
                    tr("A tiny CUDA computation failed on this GPU, so training on it would fail too."),
                    {tr("message"): d.kernel_error or "?", tr("GPU"): d.name or "?"},
                    tr("Reboot; if it persists, reinstall the wheel: {cmd}", cmd=_right_wheel_fix(f)[0]), "command")
            for d in failed]


def rule_cudnn(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    _need_gpu(f)
    if not f.torch.cuda_available:
        return []
    if f.torch.cudnn_version and f.torch.cudnn_enabled is not False:
        return []
    return [Finding("cudnn-unavailable", "warning", tr("cuDNN is not available to PyTorch"),
                    tr("Without cuDNN the convolutions run on slower kernels: training is several times slower."),
                    {tr("cuDNN version"): str(f.torch.cudnn_version), tr("cuDNN enabled"): str(f.torch.cudnn_enabled)},
                    _right_wheel_fix(f)[0], "command")]


def shm_needed_gb(ctx: RuleContext) -> float:
    """Shared memory the data loader keeps in flight: workers x prefetch batches of uint8 images, doubled."""
    batch_bytes = ctx.batch * 3 * ctx.imgsz * ctx.imgsz
    return max(ctx.workers, 1) * PREFETCH_FACTOR * batch_bytes * SHM_SAFETY / GB


def rule_shm(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    if f.system.os not in (None, "Linux"):
        raise NotApplicable(tr("no /dev/shm on {os}", os=f.system.os))
    shm = float(_need(f.system.shm_total_gb, "/dev/shm size"))  # type: ignore[arg-type]
    need = shm_needed_gb(ctx)
    if shm >= need or ctx.workers == 0:
        return []
    per_worker = need / max(ctx.workers, 1)
    fits = max(int(shm // per_worker), 0)
    container = f.system.container
    fix = ("docker run --ipc=host …   # or: docker run --shm-size=16g …" if container
           else "sudo mount -o remount,size=16G /dev/shm")
    return [Finding("shm-too-small", "error" if container else "warning",
                    tr("/dev/shm is too small for {workers} data-loader workers", workers=ctx.workers),
                    tr("Data-loader workers hand batches to training through shared memory; when it is full the "
                       "loader dies with 'bus error' or 'No space left on device'. Docker gives containers only "
                       "64 MB unless told otherwise. Until it is fixed, --workers {fits} fits.", fits=fits),
                    {tr("/dev/shm"): f"{shm * 1024:.0f} MB", tr("needed"): f"{need * 1024:.0f} MB",
                     tr("options"): f"workers {ctx.workers}, batch {ctx.batch}, imgsz {ctx.imgsz}",
                     tr("container"): container or tr("no")}, fix, "command", {"workers": fits})]


def rule_ram(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    if f.dataset is None or f.dataset.cache_ram_gb is None:
        raise Unknown(tr("no dataset given"))
    available = float(_need(f.system.ram_available_gb, "available RAM"))  # type: ignore[arg-type]
    need = f.dataset.cache_ram_gb * RAM_CACHE_MARGIN
    if need <= available:
        return []
    return [Finding("ram-low", "warning", tr("Not enough RAM to cache this dataset"),
                    tr("--cache ram needs about {need:.1f} GB for {images} images at imgsz {imgsz}; yolov5 then "
                       "silently trains without a cache. Use the disk cache instead.", need=need,
                       images=f.dataset.images or "?", imgsz=f.dataset.imgsz or ctx.imgsz),
                    {tr("cache estimate"): f"{f.dataset.cache_ram_gb:.1f} GB",
                     tr("available RAM"): f"{available:.1f} GB"}, "--cache disk", "setting", {"cache": "disk"})]


def rule_disk(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    out: list[Finding] = []
    measured = [d for d in f.disks if d.read_mb_s is not None]
    if not f.disks:
        raise Unknown(tr("{fact} was not read", fact=tr("disk")))
    for d in measured:
        if (d.files_per_s >= DISK_SLOW_FILES_S) if d.files_per_s is not None else (d.read_mb_s >= DISK_SLOW_MB_S):
            continue
        out.append(Finding("disk-slow", "warning", tr("Slow disk under the {role}: {files:.0f} images/s",
                                                       role=d.role, files=d.files_per_s or 0),
                           tr("Random reads of image files ran at {speed:.0f} MB/s ({files:.0f} files/s); a fast GPU "
                              "consumes images faster than that, so it would wait for the disk.",
                              speed=d.read_mb_s, files=d.files_per_s or 0),
                           {tr("path"): d.path, tr("read speed"): f"{d.read_mb_s:.0f} MB/s",
                            tr("images per second"): f"{d.files_per_s or 0:.0f}",
                            tr("files read"): str(d.files_read)},
                           tr("Copy the dataset to a local SSD, or train with --cache ram (or --cache disk)."),
                           "setting", {"cache": "ram"}))
    for d in f.disks:
        if d.role != "workspace" or d.free_gb is None or d.free_gb >= DISK_FREE_WARN_GB:
            continue
        out.append(Finding("disk-space-low", "error" if d.free_gb < DISK_FREE_ERROR_GB else "warning",
                           tr("Only {free:.1f} GB free for the workspace", free=d.free_gb),
                           tr("Checkpoints, plots and a disk cache are written there; a full disk ends training."),
                           {tr("path"): d.path, tr("free"): f"{d.free_gb:.1f} GB"},
                           tr("Free space, or move the workspace: yolostudio --workspace DIR …"), "advice"))
    return out


def rule_gpu_state(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    _need_gpu(f)
    if not _nvml_gpus(f):
        return []
    out: list[Finding] = []
    for g in f.nvml.gpus:
        label = f"{g.index}: {g.name or '?'}"
        share = (g.memory_used_gb / g.memory_total_gb) if g.memory_used_gb is not None and g.memory_total_gb else None
        others = g.processes or []
        if others or (share is not None and share > GPU_BUSY_MEM_SHARE):
            idle = [o.index for o in f.nvml.gpus if not o.processes and o is not g]
            fix = (tr("Train on another GPU: --device {index}", index=idle[0]) if idle else
                   tr("Stop the other processes (nvidia-smi lists them) or wait for them to finish."))
            out.append(Finding("gpu-busy", "warning", tr("GPU {gpu} is already in use", gpu=label),
                               tr("Other processes hold memory or run kernels on this GPU: training gets a share of "
                                  "it, and AutoBatch may run out of memory."),
                               {tr("memory used"): f"{g.memory_used_gb or 0:.1f} / {g.memory_total_gb or 0:.1f} GB",
                                tr("processes"): ", ".join(f"pid {p.get('pid')} ({p.get('used_gb') or 0:.1f} GB)"
                                                           for p in others) or tr("none listed"),
                                tr("utilisation"): f"{g.util_percent if g.util_percent is not None else '?'} %"},
                               fix, "setting" if idle else "advice", {"device": str(idle[0])} if idle else None))
        reasons = throttle_names(g.throttle_reasons)
        hot = (g.temperature_c is not None and g.slowdown_temp_c is not None
               and g.temperature_c >= g.slowdown_temp_c - 5)
        if reasons or hot:
            out.append(Finding("gpu-throttled", "warning", tr("GPU {gpu} is slowing itself down", gpu=label),
                               tr("The GPU reports throttling (power or thermal): it runs below its clocks, so every "
                                  "training step takes longer."),
                               {tr("reasons"): ", ".join(reasons) or "—",
                                tr("temperature"): f"{g.temperature_c} °C / {g.slowdown_temp_c} °C slowdown",
                                tr("power"): f"{g.power_w} W / {g.power_limit_w} W"},
                               tr("Improve cooling (airflow, fan curve, dust); check the power limit with "
                                  "'nvidia-smi -q -d PERFORMANCE,POWER'."), "advice"))
        if g.pcie_width is not None and g.pcie_width_max and g.pcie_width < g.pcie_width_max:
            loaded = g.util_percent is not None and g.util_percent >= 30
            out.append(Finding("pcie-degraded", "warning" if loaded else "info",
                               tr("GPU {gpu} runs its PCIe link at x{width} of x{max}", gpu=label,
                                  width=g.pcie_width, max=g.pcie_width_max),
                               tr("A narrower link slows every copy of a batch to the GPU. An idle GPU may narrow its "
                                  "link to save power: check again during training."),
                               {tr("PCIe"): f"gen {g.pcie_gen}/{g.pcie_gen_max}, x{g.pcie_width}/x{g.pcie_width_max}",
                                tr("utilisation"): f"{g.util_percent} %"},
                               tr("Reseat the card or move it to a full x16 slot; verify with "
                                  "'nvidia-smi -q -d PCIE' under load."), "advice"))
    return out


def rule_amp(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    _need_gpu(f)
    names = [g.name for g in f.nvml.gpus] or [d.name for d in f.torch.devices]
    bad = [n for n in names if amp_unsafe(n)]
    if not bad:
        return []
    return [Finding("amp-unsafe-gpu", "warning", tr("Mixed precision (AMP) is unreliable on {name}", name=bad[0]),
                    tr("GTX 16xx and Quadro T-series GPUs are known to produce NaN losses or zero mAP with FP16 "
                       "training. The worker's AMP check compares FP16 with FP32 on your model before training and "
                       "falls back to FP32 when they disagree."),
                    {tr("GPU"): ", ".join(bad)},
                    tr("Watch the log for 'AMP checks failed'; if losses turn NaN anyway, report it with this facts "
                       "file and train on another GPU or on the CPU meanwhile (--device cpu)."), "advice")]


def rule_multi_gpu(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    _need_gpu(f)
    count = max(len(f.nvml.gpus), f.torch.device_count or 0)
    if count < 2 or "LOCAL_RANK" in f.system.env:
        return []
    return [Finding("multi-gpu-dataparallel-risk", "info", tr("{count} GPUs: use DDP through torchrun", count=count),
                    tr("yolov5 with several devices but without torchrun falls back to DataParallel, which is slower "
                       "than one GPU in many cases. Launch one process per GPU with torchrun (DDP); the batch is "
                       "the total, divisible by the number of GPUs."),
                    {tr("GPUs"): _gpu_words(f)}, torchrun_command(count), "command")]


def rule_windows(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    if _need(f.system.os, "OS") != "Windows":
        raise NotApplicable(tr("not Windows"))
    return [Finding("windows-workers", "info", tr("Windows: keep data-loader workers modest"),
                    tr("Windows starts each data-loader worker as a new process (spawn), which re-imports torch: "
                       "each costs seconds and memory, and many of them can fail with 'WinError 1455: the paging "
                       "file is too small'."), {tr("OS"): f"Windows {f.system.os_release or ''}".strip(),
                                                 tr("workers"): str(ctx.workers)},
                    tr("Use --workers 4; if WinError 1455 appears, enlarge the page file (System → Advanced → "
                       "Performance → Virtual memory)."), "setting", {"workers": min(ctx.workers, 4)})]


Rule = Callable[[EnvironmentFacts, RuleContext, list[Finding]], list[Finding]]

#: (check key, check title, rule), in the order they run and the order a person reads them.
RULES: tuple[tuple[str, str, Rule], ...] = (
    ("probe", "Environment probe", rule_probe),
    ("python", "Python version", rule_python),
    ("torch", "PyTorch installed", rule_torch_missing),
    ("yolov5", "yolov5 installed", rule_yolov5_missing),
    ("nvml", "GPU driver (NVML)", rule_nvml),
    ("gpu", "NVIDIA GPU present", rule_no_gpu),
    ("torch-build", "PyTorch CUDA build", rule_torch_cpu_build),
    ("driver", "Driver vs PyTorch CUDA", rule_driver),
    ("arch", "GPU architecture in the wheel", rule_arch),
    ("cuda", "CUDA works (test kernel)", rule_cuda_unusable),
    ("cudnn", "cuDNN", rule_cudnn),
    ("shm", "Shared memory (/dev/shm)", rule_shm),
    ("ram", "RAM for the dataset cache", rule_ram),
    ("disk", "Disk speed and space", rule_disk),
    ("gpu-state", "GPU busy, throttling, PCIe", rule_gpu_state),
    ("amp", "Mixed precision (AMP)", rule_amp),
    ("multi-gpu", "Several GPUs", rule_multi_gpu),
    ("windows", "Windows data loading", rule_windows),
)


def evaluate(facts: EnvironmentFacts, ctx: RuleContext | None = None, notes: list[str] | None = None) -> Evaluation:
    """Run every rule; a rule missing its facts is an ``unknown`` check, a crashing rule too (with why)."""
    ctx = ctx or RuleContext()
    result = Evaluation(notes=list(notes or []))
    for key, title, rule in RULES:
        try:
            found = rule(facts, ctx, list(result.findings))
        except Unknown as exc:
            result.checks.append(CheckResult(key, tr(title), "unknown", str(exc)))
            continue
        except NotApplicable as exc:
            result.checks.append(CheckResult(key, tr(title), "n/a", str(exc)))
            continue
        except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:  # malformed facts
            result.checks.append(CheckResult(key, tr(title), "unknown",
                                             tr("facts malformed: {reason}", reason=exc)))
            continue
        result.findings.extend(found)
        result.checks.append(CheckResult(key, tr(title), "found" if found else "ok"))
    return result
