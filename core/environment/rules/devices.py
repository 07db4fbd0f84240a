"""Rules about *which* GPUs training gets: GPUs hidden by the environment, a mixed set, several good ones.

NVML lists GPUs in PCI-bus order and ignores ``CUDA_VISIBLE_DEVICES``; CUDA — and so ``--device`` — counts
only the GPUs that variable shows, fastest first unless ``CUDA_DEVICE_ORDER=PCI_BUS_ID``
(``core.environment.visible_devices``; the app's workers set PCI order, ``core.job.launch.worker_env``, unless the
user chose). So a GPU is named to the user by the index the *training worker* will give it (``worker_index``),
with its name beside it: the probe's torch index (joined to NVML by UUID / PCI bus id, ``probe_torch.join_nvml``)
when the probe counted in the worker's order, else its rank in PCI-bus order (a facts file probed fastest
first); only under a user's ``CUDA_VISIBLE_DEVICES`` with torch's view unread does a fix name GPUs by UUID.

The fixes change an environment variable or a setting — never a reinstall while some GPU is usable, and
never DataParallel or DDP over a card that would hold the others back.
"""

from __future__ import annotations

from core.environment.facts import EnvironmentFacts, GpuFacts
from core.environment.rules.base import RuleContext, gpu_capability, gpu_words, need_gpu, nvml_lists_gpus
from core.environment.tables import arch_covers
from core.environment.visible_devices import (CONTAINER_VISIBLE, CUDA_ORDER, CUDA_VISIBLE, container_hides_gpus,
                                              parse_cuda_visible)
from core.findings import Change, Finding, changes
from core.i18n import tr

#: [design] A usable GPU with less than this share of the best GPU's memory is "far weaker": yolov5 gives every
#: DDP rank the same share of the batch, so the smallest card caps the batch, and every step waits for the
#: slowest rank (PyTorch DDP synchronises gradients each step), so one weak card sets the pace of all.
WEAK_MEMORY_RATIO = 0.5


def torch_index(f: EnvironmentFacts, g: GpuFacts) -> int | None:
    """The CUDA index (what ``--device`` means) of an NVML GPU, from the UUID / bus-id join; None if unknown."""
    return next((d.index for d in f.torch.devices if d.nvml_index == g.index), None)


#: The order the app's workers count GPUs in when the user set none (``core.job.launch.worker_env``).
WORKER_ORDER = "PCI_BUS_ID"
#: CUDA's own default (CUDA Programming Guide, "CUDA Environment Variables"): what a probe without the variable used.
CUDA_DEFAULT_ORDER = "FASTEST_FIRST"
#: Compute modes in which CUDA cannot create a context for training (``gather_nvml.COMPUTE_MODES``).
PROHIBITED = "Prohibited"
EXCLUSIVE = ("ExclusiveProcess", "ExclusiveThread")


def _bus_key(g: GpuFacts) -> tuple[int, ...] | None:
    """'00000000:0A:00.0' -> (0, 10, 0, 0), PCI order's key; None when NVML gave no bus id."""
    parts = (g.pci_bus_id or "").replace(".", ":").split(":")
    try:
        return tuple(int(p, 16) for p in parts) if len(parts) == 4 else None
    except ValueError:
        return None


def worker_index(f: EnvironmentFacts, g: GpuFacts) -> int | None:
    """What ``--device N`` means for this NVML GPU in the app's training worker: the probe's torch index when the
    probe counted in the worker's order, else the GPU's rank in PCI-bus order (the worker's, unless the user set
    another); None under a user's CUDA_VISIBLE_DEVICES whose order only torch's view could tell."""
    env = f.system.env
    worker = env.get(CUDA_ORDER, WORKER_ORDER)
    probed = env.get(CUDA_ORDER, CUDA_DEFAULT_ORDER)
    if worker == probed and torch_index(f, g) is not None:
        return torch_index(f, g)
    if worker != WORKER_ORDER or CUDA_VISIBLE in env:
        return None
    keys = [_bus_key(o) for o in f.nvml.gpus]
    if all(k is not None for k in keys):
        return sorted(keys).index(_bus_key(g))  # type: ignore[arg-type]
    return g.index  # NVML, like nvidia-smi, enumerates in PCI-bus order


def compute_blocked(f: EnvironmentFacts, g: GpuFacts) -> str | None:
    """Why the GPU's compute mode keeps training off it (NVML: PROHIBITED "no contexts per device";
    EXCLUSIVE_PROCESS "only one context per device" while another process holds it), or None."""
    if g.compute_mode == PROHIBITED:
        return tr("its compute mode is Prohibited")
    if g.compute_mode in EXCLUSIVE and g.processes:
        return tr("its compute mode is Exclusive and another process holds it")
    return None


def unusable_reason(f: EnvironmentFacts, g: GpuFacts) -> str | None:
    """Why this PyTorch cannot train on the GPU (no kernels for its architecture, its compute mode, a failed test
    kernel)."""
    cc = gpu_capability(g)
    if f.torch.cuda and f.torch.arch_list and cc is not None and not arch_covers(f.torch.arch_list, cc):
        return tr("this PyTorch has no kernels for sm_{cc}", cc=f"{cc[0]}{cc[1]}")
    blocked = compute_blocked(f, g)
    if blocked:
        return blocked
    joined = next((d for d in f.torch.devices if d.nvml_index == g.index), None)
    if joined is not None and joined.kernel_ok is False:
        return tr("its test kernel failed")
    return None


def good_gpus(f: EnvironmentFacts) -> list[GpuFacts]:
    """The GPUs worth training on, strongest first: usable, and not far weaker than the best usable one."""
    usable = [g for g in f.nvml.gpus if unusable_reason(f, g) is None]
    usable.sort(key=lambda g: (g.memory_total_gb or 0.0, gpu_capability(g) or (0, 0)), reverse=True)
    if not usable:
        return []
    best = usable[0].memory_total_gb
    return [g for g in usable if best is None or g.memory_total_gb is None
            or g.memory_total_gb >= best * WEAK_MEMORY_RATIO]


def explained_failure(f: EnvironmentFacts, index: int) -> bool:
    """A failed test kernel on torch's device ``index`` that an earlier rule explains (no kernels for its
    architecture, its compute mode): said there, with its own fix, and not again as a reboot."""
    d = next((d for d in f.torch.devices if d.index == index), None)
    if d is None:
        return False
    g = next((g for g in f.nvml.gpus if g.index == d.nvml_index), None)
    if g is not None:
        cc = gpu_capability(g)
        if (f.torch.arch_list and cc is not None and not arch_covers(f.torch.arch_list, cc)) or compute_blocked(f, g):
            return True
    cc = tuple(d.capability[:2]) if d.capability and len(d.capability) >= 2 else None
    return bool(f.torch.arch_list and cc is not None and not arch_covers(f.torch.arch_list, cc))  # type: ignore[arg-type]


def gpu_label(f: EnvironmentFacts, g: GpuFacts) -> str:
    """'1: NVIDIA GeForce RTX 4090' — the GPU by the index ``--device`` gives it in the worker, and its name."""
    index = worker_index(f, g)
    return f"{index if index is not None else '?'}: {g.name or '?'}"


def device_fix(f: EnvironmentFacts, gpus: list[GpuFacts]) -> tuple[str, str, tuple[Change, ...]]:
    """(fix, fix_kind, changes) that trains on exactly these GPUs: ``--device`` with the indices the training
    worker gives them (``worker_index``) and their names beside it, or, when those are unknown under a user's
    CUDA_VISIBLE_DEVICES, the GPUs by UUID."""
    indices = [worker_index(f, g) for g in gpus]
    if all(i is not None for i in indices):
        value = ",".join(str(i) for i in indices)
        names = ", ".join(g.name or "?" for g in gpus)
        return f"--device {value}   # {names}", "setting", changes({"device": value})
    windows = f.system.os == "Windows"
    if CUDA_VISIBLE in f.system.env and all(g.uuid for g in gpus):  # the user's mask renumbers: name them by UUID
        value = ",".join(str(g.uuid) for g in gpus)
        prefix = f"set {CUDA_VISIBLE}={value} && " if windows else f"{CUDA_VISIBLE}={value} "
        return (tr("{prefix}yolostudio train DATA.yaml --device {value}", prefix=prefix,
                   value=",".join(str(i) for i in range(len(gpus)))), "command", ())
    value = ",".join(str(g.index) for g in gpus)
    prefix = "set CUDA_DEVICE_ORDER=PCI_BUS_ID && " if windows else "CUDA_DEVICE_ORDER=PCI_BUS_ID "
    return (tr("{prefix}yolostudio train DATA.yaml --device {value}   # PCI order, as nvidia-smi numbers them",
               prefix=prefix, value=value), "command", ())


def _gpu_label(g: GpuFacts, index: bool = True) -> str:
    memory = f" ({g.memory_total_gb:.0f} GB)" if g.memory_total_gb is not None else ""
    return f"{g.index}: {g.name or '?'}{memory}" if index else f"{g.name or '?'}{memory}"


# -- hidden by the environment ---------------------------------------------------------------------------------

def _unset_command(os_name: str | None) -> str:
    if os_name == "Windows":
        return "set CUDA_VISIBLE_DEVICES=   (PowerShell: Remove-Item Env:CUDA_VISIBLE_DEVICES)"
    return "unset CUDA_VISIBLE_DEVICES"


def _set_command(os_name: str | None, value: str) -> str:
    return f"set CUDA_VISIBLE_DEVICES={value}" if os_name == "Windows" else f"export CUDA_VISIBLE_DEVICES={value}"


def _why_entry(reason: str, entry: str | None, count: int) -> str:
    return {
        "empty": tr("It is set but empty, and an empty list shows CUDA no GPU."),
        "negative": tr("'{entry}' is not a GPU (it is often set to hide every GPU), and CUDA shows no GPU from "
                       "that entry on.", entry=entry),
        "index": tr("There is no GPU {entry}: this machine has {count} (0 to {last}), and CUDA shows no GPU from "
                    "that entry on.", entry=entry, count=count, last=count - 1),
        "uuid": tr("'{entry}' matches no GPU's UUID here, and CUDA shows no GPU from that entry on.", entry=entry),
    }.get(reason, tr("'{entry}' is neither a GPU index nor a GPU UUID, and CUDA shows no GPU from that entry on.",
                     entry=entry))


def _container_without_gpus(f: EnvironmentFacts, value: str) -> Finding:
    kubernetes = f.system.container == "kubernetes"
    fix = ("resources:\n  limits:\n    nvidia.com/gpu: 1   " +
           tr("# in the pod's container spec: the NVIDIA device plugin then gives it a GPU") if kubernetes else
           "docker run --gpus all …   " + tr("# or: docker run --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=all …"))
    return Finding("gpu-hidden", "warning",
                   tr("This container was started without GPUs ({variable}={value})", variable=CONTAINER_VISIBLE,
                      value=repr(value)),
                   tr("The NVIDIA container runtime mounts only the GPUs NVIDIA_VISIBLE_DEVICES names when the "
                      "container starts; '{value}' names none, so neither NVML nor PyTorch can see a GPU here. If the "
                      "host has one, start the container with it — nothing inside the container can add it.",
                      value=value),
                   {CONTAINER_VISIBLE: repr(value), tr("container"): f.system.container or "?"}, fix, "command")


def rule_gpu_hidden(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    """GPUs the machine has that the environment hides from CUDA (and so from PyTorch and yolov5)."""
    env = f.system.env
    container_value = container_hides_gpus(env, f.system.container)
    if container_value is not None and not nvml_lists_gpus(f) and not f.torch.device_count:
        return [_container_without_gpus(f, container_value)]
    value = env.get(CUDA_VISIBLE)
    if value is None:
        return []
    need_gpu(f)
    gpus = f.nvml.gpus
    if not gpus:
        return []  # only NVML lists the GPUs CUDA_VISIBLE_DEVICES could hide
    uuids = [g.uuid for g in gpus]
    migs = _mig_uuids(gpus)
    seen = parse_cuda_visible(value, len(gpus), uuids, migs)
    if seen.invalid is None and seen.reason != "empty":
        return []
    shown = f.torch.device_count
    if shown is not None and f.torch.installed and shown != len(seen.visible):
        return []  # torch disagrees with this reading: trust what it saw
    correct = list(dict.fromkeys(e for e in [*seen.visible, *seen.after]
                                 if not parse_cuda_visible(e, len(gpus), uuids, migs).invalid))
    fix = (tr("{command}   # or unset it to use every GPU", command=_set_command(f.system.os, ",".join(correct)))
           if correct else _unset_command(f.system.os))
    everything = not seen.visible
    message = (tr("{variable}={value} hides every GPU from PyTorch", variable=CUDA_VISIBLE, value=repr(value))
               if everything else
               tr("{variable}={value} names '{entry}', which hides the GPUs after it from PyTorch",
                  variable=CUDA_VISIBLE, value=repr(value), entry=seen.invalid))
    consequence = (tr("Training would run on the CPU.") if everything else
                   tr("CUDA shows only the entries before it ({shown}); the ones after it ({hidden}) are hidden.",
                      shown=", ".join(seen.visible), hidden=", ".join(seen.after) or "—"))
    return [Finding("gpu-hidden", "error" if everything else "warning", message,
                    tr("NVML lists {count} GPU(s), but CUDA — and so PyTorch and yolov5 — sees only the GPUs "
                       "{variable} lets through. {why} {consequence} Correct or unset the variable where it is set "
                       "(your shell profile, the service's or the container's environment); nothing needs to be "
                       "reinstalled or rebooted.", count=len(gpus), variable=CUDA_VISIBLE,
                       why=_why_entry(seen.reason, seen.invalid, len(gpus)), consequence=consequence),
                    {CUDA_VISIBLE: repr(value), tr("GPUs (NVML)"): gpu_words(f),
                     tr("GPUs PyTorch sees"): str(shown) if shown is not None else "?"}, fix, "command")]


def _mig_uuids(gpus: list[GpuFacts]) -> list[str] | None:
    """The MIG devices' UUIDs when they were read (facts version 2), else None: MIG entries are not judged."""
    read = [g for g in gpus if getattr(g, "mig_devices", None) is not None]
    if not read:
        return None
    return [str(m.get("uuid")) for g in read for m in (g.mig_devices or []) if m.get("uuid")]


# -- mixed and several GPUs ------------------------------------------------------------------------------------

def rule_mixed_gpus(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    """A far weaker (usable) card beside a good one; cards torch cannot use are ``gpu-arch-unsupported``'s."""
    need_gpu(f)
    if len(f.nvml.gpus) < 2:
        return []
    good = good_gpus(f)
    weak = [g for g in f.nvml.gpus if g not in good and unusable_reason(f, g) is None]
    if not good or not weak:
        return []
    fix, kind, change = device_fix(f, good[:1])
    return [Finding("gpu-mixed", "info",
                    tr("Train on the {good} alone: the {weak} is far weaker", good=_gpu_label(good[0], False),
                       weak=", ".join(_gpu_label(g, False) for g in weak)),
                    tr("Over several GPUs every training step waits for the slowest card, and each card gets the "
                       "same share of the batch, so the weak card would set the pace and the memory limit for "
                       "all. Train on the strong card alone (never DataParallel or DDP over both)."),
                    {tr("GPUs"): "; ".join(_gpu_label(g) for g in f.nvml.gpus),
                     tr("training GPU (--device)"): gpu_label(f, good[0])},
                    fix, kind, change)]


def rule_multi_gpu(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    """Several good GPUs: the app's own DDP (``--device 0,1,…``), never yolov5's DataParallel fallback."""
    need_gpu(f)
    if "LOCAL_RANK" in f.system.env or any(e.code in ("gpu-hidden", "gpu-mig-slice") for e in earlier):
        return []  # inside a launched rank; GPUs hidden, which comes first; MIG slices, which never combine
    if nvml_lists_gpus(f):
        good = good_gpus(f)
        if len(good) < 2:
            return []
        good.sort(key=lambda g: (worker_index(f, g) is None, worker_index(f, g) or 0, g.index))
        fix, kind, change = device_fix(f, good)
        count = len(good)
    else:
        count = f.torch.device_count or 0
        if count < 2:
            return []
        value = ",".join(str(i) for i in range(count))
        fix, kind, change = f"--device {value}", "setting", changes({"device": value})
    return [Finding("multi-gpu-dataparallel-risk", "info", tr("{count} GPUs: train on all of them with DDP",
                                                              count=count),
                    tr("yolov5 given several GPUs in one process falls back to DataParallel, which is slower than "
                       "one GPU in many cases. Name the GPUs in Device — the Train page's GPU choice, or "
                       "'yolostudio train DATA.yaml {fix}' — and the app starts one training process per GPU "
                       "(DDP through PyTorch's launcher); the batch is the total, split between them.",
                       fix=f"--device {change[0].value}" if change else "--device …"),
                    {tr("GPUs"): gpu_words(f)}, fix, kind, change)]
