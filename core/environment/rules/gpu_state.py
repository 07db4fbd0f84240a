"""Rules about the GPUs' state right now and their kind: busy, throttled, narrowed PCIe, AMP-unsafe models,
several GPUs that want DDP.
"""

from __future__ import annotations

from core.environment.commands import torchrun_command
from core.environment.facts import EnvironmentFacts
from core.environment.findings import Finding
from core.environment.rules.base import RuleContext, gpu_words, need_gpu, nvml_lists_gpus
from core.environment.tables import GPU_BUSY_MEM_SHARE, amp_unsafe, throttle_names
from core.i18n import tr


def rule_gpu_state(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    need_gpu(f)
    if not nvml_lists_gpus(f):
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
    need_gpu(f)
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
    need_gpu(f)
    count = max(len(f.nvml.gpus), f.torch.device_count or 0)
    if count < 2 or "LOCAL_RANK" in f.system.env:
        return []
    return [Finding("multi-gpu-dataparallel-risk", "info", tr("{count} GPUs: use DDP through torchrun", count=count),
                    tr("yolov5 with several devices but without torchrun falls back to DataParallel, which is slower "
                       "than one GPU in many cases. Launch one process per GPU with torchrun (DDP); the batch is "
                       "the total, divisible by the number of GPUs."),
                    {tr("GPUs"): gpu_words(f)}, torchrun_command(count), "command")]
