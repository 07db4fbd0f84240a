"""The rule that says what accelerator PyTorch drives when it is not an NVIDIA desktop GPU — an AMD GPU through
ROCm, a Jetson — and what works there (``core.environment.accelerator`` owns the facts and their sources).

It runs before the NVIDIA rules; they, through ``base.need_gpu`` / ``base.need_nvml``, then say "does not apply"
with this reason instead of telling an AMD or Jetson user to install NVIDIA's driver utilities or a CUDA wheel.
"""

from __future__ import annotations

from core.environment.accelerator import is_rocm, is_tegra, jetson_torch_fix, jetson_words, rocm_label
from core.environment.facts import EnvironmentFacts
from core.environment.rules.base import RuleContext, Unknown, torch_absent
from core.findings import Finding
from core.i18n import tr

#: ROCm's Linux install guide ("Configuring permissions for GPU access"): the user needs the ``render`` and
#: ``video`` groups to open /dev/kfd and /dev/dri; a container needs ``--device=/dev/kfd --device=/dev/dri``
#: (ROCm docs, "Running ROCm Docker containers"). ``rocminfo`` lists the GPUs the ROCm runtime can open.
ROCM_GROUPS_FIX = "sudo usermod -a -G render,video $LOGNAME   # then log out and in; 'rocminfo' should list the GPU"
ROCM_CONTAINER_FIX = "docker run --device=/dev/kfd --device=/dev/dri --group-add video …"


def _devices(f: EnvironmentFacts) -> str:
    names = [f"{d.index}: {d.name or '?'}" + (f" ({d.arch_name})" if d.arch_name else "") for d in f.torch.devices]
    return ", ".join(names) or tr("none")


def rule_accelerator(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    if is_rocm(f):
        return _rocm(f)
    if is_tegra(f):
        return _jetson(f)
    if not f.torch.installed:
        raise Unknown(torch_absent(f))
    return []  # an NVIDIA GPU through CUDA, or the CPU: the checks below judge it


def _rocm(f: EnvironmentFacts) -> list[Finding]:
    hip = f.torch.hip or rocm_label(f) or "?"
    if not f.torch.installed:
        raise Unknown(torch_absent(f))  # torch-cannot-load (above) says why, and reinstalls this same ROCm build
    evidence = {tr("PyTorch"): str(f.torch.version), tr("HIP (ROCm)"): str(hip), tr("GPUs PyTorch sees"): _devices(f)}
    if f.torch.cuda_available:
        return [Finding("gpu-rocm", "info", tr("AMD GPU through ROCm: training runs on it"),
                        tr("This PyTorch is a ROCm build: it drives AMD GPUs through the same torch.cuda interface "
                           "yolov5 uses, so '--device 0' trains on the AMD GPU. NVIDIA's checks (NVML, the NVIDIA "
                           "driver, CUDA wheels) do not apply and are skipped; GPU monitoring is ROCm's own "
                           "(rocm-smi). Keep this build."), evidence,
                        tr("Nothing to fix. Watch the GPU with rocm-smi."), "advice")]
    fix = ROCM_CONTAINER_FIX if f.system.container else ROCM_GROUPS_FIX
    return [Finding("gpu-rocm", "warning", tr("PyTorch's ROCm build sees no AMD GPU"),
                    tr("This PyTorch is a ROCm build, but torch.cuda.is_available() is False, so training would run "
                       "on the CPU. The usual cause is access to the GPU's device files (/dev/kfd, /dev/dri): the "
                       "user is not in the 'render' and 'video' groups, or a container was started without those "
                       "devices. Keep this ROCm build — an NVIDIA (CUDA) wheel cannot drive an AMD GPU."),
                    {**evidence, tr("message"): f.torch.cuda_error or tr("none")}, fix, "command")]


def _jetson(f: EnvironmentFacts) -> list[Finding]:
    if not f.torch.installed:
        raise Unknown(torch_absent(f))
    evidence = {tr("Jetson"): jetson_words(f), tr("CPU"): f.system.cpu_arch or "?",
                tr("PyTorch"): str(f.torch.version), tr("torch CUDA"): str(f.torch.cuda or tr("none (CPU build)"))}
    if not f.torch.cuda:
        return [Finding("jetson-torch", "error", tr("PyTorch on this Jetson is a CPU-only build"),
                        tr("This is a Jetson: its GPU is integrated, and only a PyTorch built for its JetPack "
                           "release can use it. The installed build has no CUDA, so training would run on the "
                           "CPU."), evidence, jetson_torch_fix(f), "advice")]
    if not f.torch.cuda_available:
        return [Finding("jetson-torch", "error", tr("PyTorch cannot use this Jetson's GPU"),
                        tr("PyTorch is a CUDA build, but CUDA does not start on this Jetson: a build for another "
                           "JetPack release, or one not made for Jetson, cannot use its GPU."),
                        {**evidence, tr("message"): f.torch.cuda_error or tr("none")}, jetson_torch_fix(f), "advice")]
    return [Finding("jetson-torch", "info", tr("Jetson: training runs on its integrated GPU"),
                    tr("PyTorch uses the Jetson's GPU through CUDA. NVIDIA's desktop checks (NVML, nvidia-smi, the "
                       "desktop driver and its CUDA wheels) do not apply here and are skipped; watch the GPU with "
                       "tegrastats or jtop."), evidence, tr("Nothing to fix. Watch the GPU with tegrastats."),
                    "advice")]
