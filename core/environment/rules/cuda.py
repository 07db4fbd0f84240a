"""Rules about whether training can use the GPU: NVML, a GPU at all, torch's CUDA build, driver, architecture,
a working test kernel and cuDNN. Order matters: later rules skip a consequence an earlier one reported.
"""

from __future__ import annotations

from core.environment.accelerator import not_nvidia_desktop
from core.environment.commands import driver_update_command
from core.environment.facts import EnvironmentFacts
from core.environment.rules.devices import device_fix, explained_failure, gpu_label, good_gpus
from core.environment.rules.driver_state import (driver_mismatch, mismatch_finding, unknown_error, uvm_detail,
                                                 uvm_fix)
from core.findings import Finding
from core.environment.rules.base import (NotApplicable, RuleContext, Unknown, capabilities, cuda_text,
                                         driver_os, driver_too_old_fix, gpu_words, need_fact, need_gpu, need_nvml,
                                         nvml_error_text, nvml_lists_gpus, nvml_unread, right_wheel_fix,
                                         torch_absent)
from core.environment.build_fit import no_build_reason
from core.environment.torch_builds import release_for
from core.environment.tables import (TOOLKIT_DRIVERS, arch_covers, architecture_name, choose_wheel, cuda_tuple,
                                     driver_floor, driver_meets)
from core.i18n import N_, tr


#: Findings above that already say why no GPU shows, with the fix that applies (no "install the driver" after them).
NO_GPU_EXPLAINED = ("gpu-hidden", "driver-mismatch")


def rule_no_gpu(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    reason = not_nvidia_desktop(f)
    if reason:
        raise NotApplicable(reason)  # an AMD GPU or a Jetson: the accelerator check says what it is
    if nvml_lists_gpus(f) or f.torch.cuda_available or f.torch.device_count:
        return []
    if any(e.code in NO_GPU_EXPLAINED or (e.code == "nvml-unavailable" and e.severity == "error") for e in earlier):
        return []  # said above (hidden, a driver not loaded or not matching), with the fix that applies
    if not f.nvml.available and f.nvml.error is None and f.torch.cuda_available is None:
        raise Unknown(tr("{fact} was not read", fact="NVML"))
    reason = nvml_error_text(f) or tr("no GPU listed")
    hint = (tr("In WSL, install the NVIDIA driver on Windows (not inside WSL); NVML lives in /usr/lib/wsl/lib.")
            if f.system.wsl else
            tr("If this machine has an NVIDIA GPU, install its driver until 'nvidia-smi' lists it, then re-check."))
    return [Finding("no-gpu", "info", tr("No NVIDIA GPU found: training runs on the CPU"),
                    tr("Without a usable NVIDIA GPU, yolov5 trains on the CPU — fine for the demo, one to two "
                       "orders of magnitude slower for real datasets."),
                    {tr("NVML"): reason, tr("torch CUDA available"): {True: tr("yes"), False: tr("no")}.get(f.torch.cuda_available, "?")},
                    hint, "advice")]


def rule_nvml(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    error = f.nvml.error
    if driver_mismatch(f):
        return [mismatch_finding(f)]  # a reboot (or reloading the modules), never "install the driver"
    if f.nvml.available:
        return []
    reason = not_nvidia_desktop(f)
    if reason:
        raise NotApplicable(reason)
    if error is None:
        raise Unknown(nvml_unread(f))
    if error in ("LibraryNotFound", "NotInstalled") and not (f.torch.cuda_available or f.torch.device_count) \
            and not f.system.wsl:
        raise NotApplicable(tr("no NVIDIA driver installed"))
    evidence = {tr("NVML error"): nvml_error_text(f)}
    if error == "LibraryNotFound":
        if f.system.wsl:
            return [Finding("nvml-unavailable", "warning", tr("NVML not found inside WSL"),
                            tr("WSL provides the NVIDIA library from the Windows driver in /usr/lib/wsl/lib; "
                               "without it the app cannot read GPU utilisation or check the driver."), evidence,
                            "export LD_LIBRARY_PATH=/usr/lib/wsl/lib:$LD_LIBRARY_PATH", "command")]
        if f.system.container:
            return [_container_capabilities(f, evidence)]
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
    if f.system.wsl:  # the driver is the Windows one: nothing to load or reboot inside WSL
        fixes["DriverNotLoaded"] = (fixes["DriverNotLoaded"][0], "error", tr(
            "On Windows, check the NVIDIA driver (Device Manager, or nvidia-smi in a Windows terminal) and update "
            "it if needed, then run 'wsl --shutdown' and reopen WSL. Never install a Linux NVIDIA driver inside "
            "WSL."), "advice")
    elif f.system.container:  # the driver is the host's: a container cannot load or replace it
        fixes["DriverNotLoaded"] = (fixes["DriverNotLoaded"][0], "error", tr(
            "On the host (not inside this container): sudo modprobe nvidia, or reboot the host after a driver "
            "update; then restart the container."), "advice")
    title, severity, fix, kind = fixes.get(error, (tr("The GPU driver cannot be queried"), "warning",
                                                    tr("Run nvidia-smi to see the driver's own error."), "advice"))
    return [Finding("nvml-unavailable", severity, title,
                    tr("NVML (the driver's management library) answered with an error: the driver and GPUs cannot "
                       "be checked, and training may not see the GPU."), evidence, fix, kind)]


def _container_capabilities(f: EnvironmentFacts, evidence: dict[str, str]) -> Finding:
    """NVML missing in a container that sees the GPU: the NVIDIA container runtime mounts the driver's libraries
    by capability — ``compute`` (CUDA) and ``utility`` (nvidia-smi, NVML) — from ``NVIDIA_DRIVER_CAPABILITIES``
    or ``--gpus '…,"capabilities=…"'`` (NVIDIA Container Toolkit docs, "Driver capabilities"). CUDA working
    without NVML means ``utility`` was left out; installing driver utilities inside the image cannot fix it (the
    user-space NVML must match the host's kernel driver, which only the runtime mounts)."""
    current = f.system.env.get("NVIDIA_DRIVER_CAPABILITIES")
    evidence = {**evidence, tr("container"): f.system.container or "?",
                "NVIDIA_DRIVER_CAPABILITIES": current if current is not None else tr("not set")}
    fix = ("docker run --gpus 'all,\"capabilities=compute,utility\"' …   "
           + tr("# or: docker run -e NVIDIA_DRIVER_CAPABILITIES=compute,utility … (Kubernetes: the same variable "
                "in the pod's env)"))
    return Finding("nvml-unavailable", "warning", tr("GPU monitoring is unavailable inside this container"),
                   tr("CUDA reaches the GPU but NVML (the driver's management library) is missing: the container was "
                      "started with the 'compute' driver capability only, so the NVIDIA runtime did not mount the "
                      "'utility' libraries. Without them the app cannot read GPU utilisation, throttling or other "
                      "processes. Restart the container with both capabilities."), evidence, fix, "command")


def rule_torch_cpu_build(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    need_gpu(f)
    if not f.torch.installed:
        raise Unknown(torch_absent(f))
    if need_fact(f.torch.version, N_("torch version")) and f.torch.cuda is not None:
        return []
    need_nvml(f)
    fix, kind = right_wheel_fix(f)
    return [Finding("torch-cpu-build", "error", tr("PyTorch is a CPU-only build, but this machine has an NVIDIA GPU"),
                    tr("The installed torch wheel has no CUDA support, so training would run on the CPU and the "
                       "GPU would sit idle. Install the CUDA wheel that matches the driver."),
                    {tr("torch"): str(f.torch.version), tr("torch CUDA"): tr("none (CPU build)"),
                     tr("GPUs"): gpu_words(f), tr("driver"): f.nvml.driver_version or "?"}, fix, kind)]


def rule_driver(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    need_gpu(f)
    if not f.torch.cuda:
        raise NotApplicable(tr("PyTorch is not a CUDA build")) if f.torch.installed else Unknown(
            torch_absent(f))
    if not nvml_lists_gpus(f):
        started = tr("; CUDA does start in PyTorch") if f.torch.cuda_available else ""
        raise Unknown(tr("{why}: the driver version cannot be read{started}", why=nvml_unread(f), started=started))
    wheel = cuda_tuple(f.torch.cuda)
    driver = str(need_fact(f.nvml.driver_version, N_("driver version")))
    driver_cuda = cuda_tuple(f.nvml.cuda_driver_version)
    assert wheel is not None
    platform = driver_os(f)
    floor = driver_floor(wheel[0], platform)
    evidence = {tr("driver"): driver, tr("driver's CUDA"): cuda_text(driver_cuda),
                tr("torch wheel CUDA"): f.torch.cuda, tr("family minimum driver"): floor or "?"}
    too_old = (driver_cuda is not None and driver_cuda[0] < wheel[0]) or driver_meets(driver, floor) is False
    if too_old:
        fix, kind, wanted = driver_too_old_fix(f, wheel)
        caps = capabilities(f)
        fits = choose_wheel(driver, driver_cuda, caps, platform) is not None
        covered = all(arch_covers(f.torch.arch_list or [], cc) for cc in caps)
        release = release_for(f.torch.version)
        runs_some = any(driver_meets(driver, driver_floor(w.cuda[0], platform)) is not False  # type: ignore[index]
                        for w in release.builds)
        if not fits and covered and not runs_some:  # the fix updates the driver for the installed wheel
            why = tr("No PyTorch {release} build runs on driver {driver}: the fix is the driver — update it to "
                     "{wanted} or newer.", release="%d.%d" % release.release, driver=driver, wanted=wanted)
        elif not fits and covered:  # some build runs on this driver, none of those has kernels for these GPUs
            why = tr("{why} The installed build runs with driver {wanted} or newer.",
                     why=no_build_reason(driver, caps, platform), wanted=wanted)
        else:
            why = no_build_reason(driver, caps, platform)
        detail = (tr("torch's CUDA {cuda} runtime needs driver {floor} or newer; with driver {driver} CUDA "
                     "cannot start and training falls back to the CPU. Either install the wheel that fits this "
                     "driver (the command below) or update the driver to {wanted} or newer.",
                     cuda=f.torch.cuda, floor=floor, driver=driver, wanted=wanted) if fits else
                  tr("torch's CUDA {cuda} runtime needs driver {floor} or newer; with driver {driver} CUDA cannot "
                     "start and training falls back to the CPU. {why}", cuda=f.torch.cuda, floor=floor, driver=driver,
                     why=why))
        return [Finding("driver-too-old", "error",
                        tr("The GPU driver is too old for this PyTorch (CUDA {cuda})", cuda=f.torch.cuda),
                        detail, evidence, fix, kind)]
    toolkit = TOOLKIT_DRIVERS.get(f"{wheel[0]}.{wheel[1]}")
    shipped = toolkit[1 if platform == "Windows" else 0] if toolkit else None
    # Only when a driver that runs this CUDA fully is known and newer than this one: a 580 driver runs every
    # 13.x wheel by minor-version compatibility, and a fix naming a driver it already has would change nothing.
    if driver_cuda is not None and driver_cuda < wheel and shipped and driver_meets(driver, shipped) is False:
        return [Finding("driver-cuda-minor", "info",
                        tr("The driver supports CUDA {have}; this PyTorch is built for {want}",
                           have=cuda_text(driver_cuda), want=f.torch.cuda),
                        tr("Same CUDA major version, so it runs (minor-version compatibility), but kernels that need "
                           "PTX JIT compilation may be unavailable."), evidence,
                        driver_update_command(f.system, shipped), "command")]
    return []


def rule_arch(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    need_gpu(f, jetson=True)
    if not f.torch.cuda:
        raise NotApplicable(tr("PyTorch is not a CUDA build")) if f.torch.installed else Unknown(
            torch_absent(f))
    archs = list(need_fact(f.torch.arch_list, N_("torch arch list")) or [])  # type: ignore[arg-type]
    if not archs:
        raise Unknown(tr("{fact} was not read", fact="torch arch list"))
    out = []
    usable = good_gpus(f)  # another GPU this wheel runs on: train there, no reinstall (rules/devices.py)
    for cc in sorted(set(capabilities(f))):
        if arch_covers(archs, cc):
            continue
        fix, kind = right_wheel_fix(f)
        change: tuple = ()
        if usable:
            fix, kind, change = device_fix(f, usable[:1])
        out.append(Finding("gpu-arch-unsupported", "warning" if usable else "error",
                           tr("This PyTorch has no kernels for the GPU's architecture (sm_{cc})", cc=f"{cc[0]}{cc[1]}"),
                           tr("The GPU is {family} (compute capability {major}.{minor}); the installed wheel is "
                              "compiled for {archs}. CUDA calls fail with 'no kernel image is available for "
                              "execution on the device'.", family=architecture_name(cc), major=cc[0], minor=cc[1],
                              archs=" ".join(archs)),
                           {tr("GPU"): gpu_words(f), tr("compute capability"): f"{cc[0]}.{cc[1]}",
                            tr("wheel arch list"): " ".join(archs), tr("torch"): str(f.torch.version),
                            **({tr("usable GPU (--device)"): gpu_label(f, usable[0])} if usable else {})},
                           fix, kind, change))
    return out


#: Errors above that stop CUDA before a test kernel could say anything of its own.
CUDA_STOPPERS = ("driver-too-old", "gpu-arch-unsupported", "torch-cpu-build", "nvml-unavailable", "gpu-hidden",
                 "driver-mismatch", "jetson-torch")


def rule_cuda_unusable(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    """CUDA does not start, or a test kernel fails — unless an earlier finding already explains it (then that
    finding's fix is the one: no second finding with another remedy). CUDA's "unknown error" is the suspend case:
    reload nvidia_uvm (``driver_state``), never a reinstall."""
    need_gpu(f, jetson=True)
    if not f.torch.installed:
        raise Unknown(torch_absent(f))
    if not f.torch.cuda:
        raise NotApplicable(tr("PyTorch is not a CUDA build"))
    cause = next((e for e in earlier if e.code in CUDA_STOPPERS and e.severity == "error"), None)
    if cause is not None:
        raise Unknown(tr("'{title}' (above) stops CUDA first", title=cause.message))
    if f.torch.cuda_available is None:
        raise Unknown(tr("{fact} was not read", fact="torch.cuda.is_available()"))
    failed = [d for d in f.torch.devices if d.kernel_ok is False and not explained_failure(f, d.index)]
    if f.torch.cuda_available is False and nvml_lists_gpus(f):
        message = f.torch.cuda_error or tr("torch.cuda.is_available() is False")
        visible = f.system.env.get("CUDA_VISIBLE_DEVICES")  # one that hides the GPUs is gpu-hidden, above
        evidence = {tr("message"): message, tr("GPUs"): gpu_words(f),
                    "CUDA_VISIBLE_DEVICES": repr(visible) if visible is not None else tr("not set")}
        if unknown_error(message):
            fix, kind = uvm_fix(f)
            return [Finding("cuda-unusable", "error", tr("CUDA answers 'unknown error': reload the NVIDIA driver's "
                                                         "nvidia_uvm module"),
                            tr("NVML lists the GPU, but CUDA does not start in torch. {why}", why=uvm_detail(f)),
                            evidence, fix, kind)]
        fix = tr("Reboot (a driver update needs it); if it persists: {cmd}", cmd=right_wheel_fix(f)[0])
        return [Finding("cuda-unusable", "error", tr("PyTorch cannot use the GPU"),
                        tr("NVML lists the GPU, but CUDA does not start in torch, so training would run on the CPU."),
                        evidence, fix, "command")]
    working = good_gpus(f)  # another GPU passed its kernel: train there first (rules/devices.py)
    out = []
    for d in failed:
        evidence = {tr("message"): d.kernel_error or "?", tr("GPU"): d.name or "?"}
        title = tr("A test kernel failed on GPU {index} ({name})", index=d.index, name=d.name or "?")
        if working:
            fix, kind, change = device_fix(f, working[:1])
            out.append(Finding("cuda-unusable", "warning", title,
                               tr("A tiny CUDA computation failed on this GPU, so training on it would fail too; the "
                                  "{good} works: train on it. Reboot, then check again, to use this one.",
                                  good=working[0].name or "GPU"), evidence, fix, kind, change))
        elif unknown_error(d.kernel_error):
            fix, kind = uvm_fix(f)
            out.append(Finding("cuda-unusable", "error", title, tr("A tiny CUDA computation failed on this GPU with "
                                                                   "CUDA's 'unknown error'. {why}", why=uvm_detail(f)),
                               evidence, fix, kind))
        else:
            out.append(Finding("cuda-unusable", "error", title,
                               tr("A tiny CUDA computation failed on this GPU, so training on it would fail too."),
                               evidence, tr("Reboot; if it persists, reinstall the wheel: {cmd}",
                                            cmd=right_wheel_fix(f)[0]), "command"))
    return out


def rule_cudnn(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    need_gpu(f, jetson=True)
    if not f.torch.cuda_available:
        raise Unknown(tr("CUDA does not start in PyTorch, so cuDNN cannot be used"))
    if f.torch.cudnn_version and f.torch.cudnn_enabled is not False:
        return []
    return [Finding("cudnn-unavailable", "warning", tr("cuDNN is not available to PyTorch"),
                    tr("Without cuDNN the convolutions run on slower kernels: training is several times slower."),
                    {tr("cuDNN version"): str(f.torch.cudnn_version or tr("none")),
                     tr("cuDNN enabled"): tr("yes") if f.torch.cudnn_enabled else tr("no")
                     if f.torch.cudnn_enabled is False else "?"},
                    right_wheel_fix(f, force=True)[0], "command")]
