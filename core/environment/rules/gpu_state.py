"""Rules about the GPUs' state right now and their kind: busy, throttled, narrowed PCIe, AMP-unsafe models.
(Which GPUs training gets — hidden, mixed, several — is ``devices``.)
"""

from __future__ import annotations

from typing import Any

from core.environment.facts import EnvironmentFacts, GpuFacts
from core.environment.rules.base import RuleContext, need_gpu, need_nvml
from core.environment.rules.devices import compute_blocked, device_fix
from core.environment.rules.pcie import pcie_finding
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
        if not compute_blocked(f, g):  # an exclusive GPU held by another process is gpu-compute-mode's, said once
            out += _busy(f, g, label)
        out += _throttled(g, label)
        link = pcie_finding(g, label, ctx)
        if link is not None:
            out.append(link)
    return out


def _process_words(processes: list[dict[str, Any]]) -> str:
    return ", ".join(tr("pid {pid} ({name}, {memory})", pid=p.get("pid"), name=p.get("name") or "?",
                        memory=f"{p['used_gb']:.1f} GB" if p.get("used_gb") is not None else tr("memory unknown"))
                     for p in processes)


def _amount(value: float | None, unit: str, digits: int = 0) -> str:
    """A reading with its unit, or '?' when it was not read (never 'None')."""
    return "?" if value is None else f"{value:.{digits}f} {unit}"


def _busy(f: EnvironmentFacts, g: GpuFacts, label: str) -> list[Finding]:
    """Busy means other *compute* work (``tables.GPU_BUSY_*``): the desktop's memory never counts. A process
    list NVML could not give (``processes`` None, the reason in ``unknown``: NoPermission, NotSupported…) is not
    an empty one: then only the utilisation can tell, and the finding says the list is unavailable."""
    unavailable = g.processes is None
    others = list(g.processes or [])
    held = sum(p.get("used_gb") or 0.0 for p in others)
    util = g.util_percent
    computing = util is not None and util >= GPU_BUSY_UTIL
    reason = g.unknown.get("processes") or tr("not read")
    evidence = {tr("compute processes"): tr("unavailable ({reason})", reason=reason) if unavailable else
                _process_words(others) or tr("none"),
                tr("utilisation"): _amount(util, "%"),
                tr("memory used"): f"{_amount(g.memory_used_gb, 'GB', 1)} / {_amount(g.memory_total_gb, 'GB', 1)}"}
    idle = [o for o in f.nvml.gpus if o is not g and o.processes == []
            and (o.util_percent is None or o.util_percent < GPU_BUSY_UTIL)]
    move_fix, move_kind, move_change = device_fix(f, idle[:1]) if idle else ("", "advice", ())
    move = tr("or train on the idle {gpu}: {fix}", gpu=idle[0].name or "GPU", fix=move_fix) if idle else ""
    if not others:
        if util is None or util < GPU_BUSY_UNSEEN_UTIL:
            return []
        see = (tr("Run nvidia-smi on the host to see who uses it; {move}", move=move) if idle else
               tr("Run nvidia-smi on the host to see who uses it, and train when it is free."))
        if unavailable:
            return [Finding("gpu-busy", "warning", tr("GPU {gpu} is busy, and its process list is unavailable",
                                                      gpu=label),
                            tr("The GPU computes {util:.0f}% of the time, but NVML could not list its processes "
                               "({reason}), so who runs on it is unknown; training would get a share of it.",
                               util=util, reason=reason), evidence, see, "advice")]
        return [Finding("gpu-busy", "warning", tr("GPU {gpu} is busy with work this system cannot see", gpu=label),
                        tr("The GPU computes {util:.0f}% of the time, but NVML lists no compute process here: another "
                           "container, virtual machine or user runs on it, and training would get a share of it.",
                           util=util), evidence, see, "advice")]
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
                    "setting" if move_change else "command", move_change)]


#: The fix for each throttle cause (``tables.THROTTLE_KIND``), in the order a person checks them.
def _throttle_fixes() -> dict[str, str]:
    return {
        "thermal": tr("Improve airflow: clean the dust filters and fans, give the card room, raise the fan curve; "
                      "watch it with 'nvidia-smi -q -d TEMPERATURE,PERFORMANCE'."),
        "hardware": tr("Check the power supply: its rating for this card, every power connector seated, no adapters "
                       "or daisy-chained cables; then cooling. 'nvidia-smi -q -d PERFORMANCE' shows which slowdown "
                       "is active."),
    }


def _throttled(g: GpuFacts, label: str) -> list[Finding]:
    """One ``gpu-throttled`` per GPU, naming every cause and each cause's fix (``tables.THROTTLE_KIND``): heat
    and a hardware slowdown often come together (HwSlowdown is also raised by heat), and one card is one
    finding. A power cap under load is the GPU working as designed; it counts only on a GPU that is not busy,
    or whose limit was lowered (``gpu-power-capped``, a cause of its own)."""
    kinds = throttle_kinds(g.throttle_reasons)
    hot = g.temperature_c is not None and g.slowdown_temp_c is not None and g.temperature_c >= g.slowdown_temp_c - 5
    if hot:
        kinds.setdefault("thermal", [])
    default = f" ({tr('default {limit}', limit=_amount(g.power_default_limit_w, 'W'))})" \
        if g.power_default_limit_w is not None else ""
    evidence = {tr("reasons"): ", ".join(throttle_names(g.throttle_reasons)) or "—",
                tr("temperature"): tr("{now} / {slowdown} slowdown", now=_amount(g.temperature_c, "°C"),
                                      slowdown=_amount(g.slowdown_temp_c, "°C")),
                tr("power"): f"{_amount(g.power_w, 'W')} / {_amount(g.power_limit_w, 'W')}{default}",
                tr("utilisation"): _amount(g.util_percent, "%")}
    out: list[Finding] = []
    causes = [c for c in ("thermal", "hardware") if c in kinds or (c == "hardware" and "power-brake" in kinds)]
    if causes:
        hardware = ", ".join(kinds.get("hardware", []) + kinds.get("power-brake", []))
        why = {"thermal": tr("The GPU is at or near its slowdown temperature and lowers its clocks."),
               "hardware": tr("The board halves its clocks or more ({reasons}): this comes from the power supply "
                              "(an external power brake, or power spikes beyond what it delivers) or from heat.",
                              reasons=hardware)}
        message = (tr("GPU {gpu} slows down to stay cool", gpu=label) if causes == ["thermal"] else
                   tr("GPU {gpu} is held back by a hardware slowdown", gpu=label) if causes == ["hardware"] else
                   tr("GPU {gpu} slows down from heat and a hardware slowdown", gpu=label))
        fixes = _throttle_fixes()
        out.append(Finding("gpu-throttled", "warning", message,
                           " ".join(why[c] for c in causes) + " " + tr("Every training step takes longer."),
                           evidence, "\n".join(fixes[c] for c in causes), "advice"))
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
                              "limit ({power} of {limit}): the limit is far below what this card needs.",
                              util=g.util_percent, power=_amount(g.power_w, "W"),
                              limit=_amount(g.power_limit_w, "W")), evidence,
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
