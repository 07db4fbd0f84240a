"""Rules about the GPUs' state right now and their kind: busy, throttled, narrowed PCIe, AMP-unsafe models.
(Which GPUs training gets — hidden, mixed, several — is ``devices``.)
"""

from __future__ import annotations

from typing import Any

from core.environment.facts import EnvironmentFacts, GpuFacts
from core.environment.rules.base import RuleContext, gpu_words, need_gpu, need_nvml
from core.findings import Finding, changes
from core.environment.tables import (GPU_BUSY_MEM_GB, GPU_BUSY_UNSEEN_UTIL, GPU_BUSY_UTIL, POWER_CAP_BUSY_UTIL,
                                     POWER_LIMIT_LOWERED, amp_unsafe, throttle_kinds, throttle_names)
from core.i18n import tr


def rule_gpu_state(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    need_gpu(f)
    need_nvml(f)
    out: list[Finding] = []
    for g in f.nvml.gpus:
        label = f"{g.index}: {g.name or '?'}"
        out += _busy(f, g, label)
        out += _throttled(g, label)
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


def _process_words(processes: list[dict[str, Any]]) -> str:
    return ", ".join(tr("pid {pid} ({name}, {memory})", pid=p.get("pid"), name=p.get("name") or "?",
                        memory=f"{p['used_gb']:.1f} GB" if p.get("used_gb") is not None else tr("memory unknown"))
                     for p in processes)


def _busy(f: EnvironmentFacts, g: GpuFacts, label: str) -> list[Finding]:
    """Busy means other *compute* work (``tables.GPU_BUSY_*``): the desktop's memory never counts."""
    others = list(g.processes or [])
    held = sum(p.get("used_gb") or 0.0 for p in others)
    util = g.util_percent
    computing = util is not None and util >= GPU_BUSY_UTIL
    evidence = {tr("compute processes"): _process_words(others) or tr("none"),
                tr("utilisation"): f"{util:.0f} %" if util is not None else "?",
                tr("memory used"): f"{g.memory_used_gb or 0:.1f} / {g.memory_total_gb or 0:.1f} GB"}
    idle = [o.index for o in f.nvml.gpus if o is not g and not o.processes
            and (o.util_percent is None or o.util_percent < GPU_BUSY_UTIL)]
    move = tr("or train on GPU {index}, which is idle: --device {index}", index=idle[0]) if idle else ""
    if not others:
        if util is None or util < GPU_BUSY_UNSEEN_UTIL:
            return []
        return [Finding("gpu-busy", "warning", tr("GPU {gpu} is busy with work this system cannot see", gpu=label),
                        tr("The GPU computes {util:.0f}% of the time, but NVML lists no compute process here: another "
                           "container, virtual machine or user runs on it, and training would get a share of it.",
                           util=util), evidence,
                        tr("Run nvidia-smi on the host to see who uses it; {move}", move=move) if idle else
                        tr("Run nvidia-smi on the host to see who uses it, and train when it is free."), "advice")]
    if not computing and held < GPU_BUSY_MEM_GB:
        return []  # a small idle context (a notebook that imported torch): not in the way
    pids = " ".join(str(p.get("pid")) for p in others)
    kill = f"taskkill /PID {' /PID '.join(pids.split())}" if f.system.os == "Windows" else f"kill {pids}"
    why = (tr("They compute {util:.0f}% of the time, so training gets only a share of the GPU.", util=util)
           if computing else
           tr("They hold {held:.1f} GB of its memory; yolov5's AutoBatch ignores other processes' memory, so the "
              "batch it picks can run out of memory.", held=held))
    fix = tr("{kill}   # only if they are yours and can stop; {move}", kill=kill, move=move) if idle else \
        tr("{kill}   # only if they are yours and can stop; otherwise wait for them", kill=kill)
    return [Finding("gpu-busy", "warning", tr("GPU {gpu} is in use by {count} other process(es): {pids}", gpu=label,
                                              count=len(others), pids=pids),
                    tr("Other programs run CUDA on this GPU. {why}", why=why), evidence, fix,
                    "setting" if idle else "command", changes({"device": str(idle[0])} if idle else None))]


def _throttled(g: GpuFacts, label: str) -> list[Finding]:
    """One finding per cause, each with its own fix (``tables.THROTTLE_KIND``). A power cap under load is the
    GPU working as designed; it counts only on a GPU that is not busy, or whose limit was lowered."""
    kinds = throttle_kinds(g.throttle_reasons)
    hot = g.temperature_c is not None and g.slowdown_temp_c is not None and g.temperature_c >= g.slowdown_temp_c - 5
    if hot:
        kinds.setdefault("thermal", [])
    evidence = {tr("reasons"): ", ".join(throttle_names(g.throttle_reasons)) or "—",
                tr("temperature"): f"{g.temperature_c} °C / {g.slowdown_temp_c} °C slowdown",
                tr("power"): f"{g.power_w} W / {g.power_limit_w} W (default {g.power_default_limit_w} W)",
                tr("utilisation"): f"{g.util_percent} %"}
    out: list[Finding] = []
    if "thermal" in kinds:
        out.append(Finding("gpu-throttled", "warning", tr("GPU {gpu} slows down to stay cool", gpu=label),
                           tr("The GPU is at or near its slowdown temperature and lowers its clocks, so every training "
                              "step takes longer."), evidence,
                           tr("Improve airflow: clean the dust filters and fans, give the card room, raise the fan "
                              "curve; watch it with 'nvidia-smi -q -d TEMPERATURE,PERFORMANCE'."), "advice"))
    if "hardware" in kinds or "power-brake" in kinds:
        out.append(Finding("gpu-throttled", "warning", tr("GPU {gpu} is held back by a hardware slowdown", gpu=label),
                           tr("The board halves its clocks or more: {reasons}. This comes from the power supply "
                              "(an external power brake, or power spikes beyond what it delivers) or from heat.",
                              reasons=", ".join(kinds.get("hardware", []) + kinds.get("power-brake", []))), evidence,
                           tr("Check the power supply: its rating for this card, every power connector seated, no "
                              "adapters or daisy-chained cables; then cooling. 'nvidia-smi -q -d PERFORMANCE' shows "
                              "which slowdown is active."), "advice"))
    lowered = (g.power_limit_w is not None and g.power_default_limit_w is not None
               and g.power_limit_w < g.power_default_limit_w * POWER_LIMIT_LOWERED)
    busy = g.util_percent is not None and g.util_percent >= POWER_CAP_BUSY_UTIL
    if lowered:
        out.append(Finding("gpu-power-capped", "warning",
                           tr("GPU {gpu}'s power limit is lowered to {limit:.0f} W (default {default:.0f} W)",
                              gpu=label, limit=g.power_limit_w, default=g.power_default_limit_w),
                           tr("Someone (or a power-saving profile) set a lower power limit, so the GPU reaches its "
                              "cap, and lowers its clocks, sooner than it was built to."), evidence,
                           tr("sudo nvidia-smi -i {index} -pl {default:.0f}   # restore the default limit; see the "
                              "limits with: nvidia-smi -q -d POWER", index=g.index, default=g.power_default_limit_w),
                           "command"))
    elif "power-cap" in kinds and not busy and g.util_percent is not None:
        out.append(Finding("gpu-power-capped", "warning",
                           tr("GPU {gpu} hits its power cap while hardly busy", gpu=label),
                           tr("The GPU computes only {util:.0f}% of the time yet its clocks are held by the power "
                              "limit ({power} W of {limit} W): the limit is far below what this card needs.",
                              util=g.util_percent, power=g.power_w, limit=g.power_limit_w), evidence,
                           tr("nvidia-smi -q -d POWER   # compare the enforced limit with the default and max limits"),
                           "command"))
    return out


def rule_amp(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    need_gpu(f)
    names = [g.name for g in f.nvml.gpus] or [d.name for d in f.torch.devices]
    bad = [n for n in names if amp_unsafe(n)]
    if not bad:
        return []
    return [Finding("amp-unsafe-gpu", "warning", tr("Mixed precision (AMP) is unreliable on {name}", name=bad[0]),
                    tr("GTX 16xx and Quadro T-series GPUs (TU116/TU117) pass yolov5's AMP check, then produce NaN "
                       "losses or zero mAP later in FP16 training. Train in full precision (FP32): it needs more GPU "
                       "memory per image, so a smaller batch may be needed."),
                    {tr("GPU"): ", ".join(bad)}, "--no-amp", "setting", changes({"no_amp": True}))]
