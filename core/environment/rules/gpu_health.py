"""Rules about a GPU's settings and memory health that keep training off it or crash it: its compute mode, and
uncorrectable memory errors with the pages or rows waiting for a reset to be retired.

It runs before the CUDA test-kernel rule, so a kernel that failed because of these is explained here, once, with
this fix (``devices.explained_failure``). The facts are NVML's (``gather_nvml._health``), with its own words:
- ``nvmlComputeMode_t``: PROHIBITED "compute-prohibited mode – no contexts per device"; EXCLUSIVE_PROCESS
  "only one context per device, usable from multiple threads at a time" (so a second process — the training, while
  another holds the GPU — gets none); ``nvidia-smi -i N -c DEFAULT`` sets it back (root).
- ``nvmlDeviceGetRetiredPagesPendingStatus``: "Check if any pages are pending retirement and need a reboot to fully
  retire"; NVIDIA's Dynamic Page Retirement guide: XID 63 "New retired page, reload the driver to activate", XID 64
  "Fatal error, unable to retire page".
- ``nvmlDeviceGetRemappedRows`` (Ampere and newer): "isPending indicates whether or not there are pending
  remappings. A reset will be required to actually remap the row. failureOccurred will be set if a row remapping
  ever failed in the past."
- ``nvmlDeviceGetTotalEccErrors(UNCORRECTED, VOLATILE)``: uncorrectable (double-bit) errors since the driver loaded;
  each one is an XID 48 "An uncorrectable double bit error (DBE) has been detected" that kills the CUDA context.
"""

from __future__ import annotations

from core.environment.facts import EnvironmentFacts, GpuFacts
from core.environment.rules.base import RuleContext, need_gpu, need_nvml
from core.environment.rules.devices import EXCLUSIVE, PROHIBITED, device_fix, good_gpus
from core.findings import Finding
from core.i18n import tr, tr_n


def _label(g: GpuFacts) -> str:
    """nvidia-smi's numbering (NVML's index): the fixes here are nvidia-smi commands."""
    return f"{g.index}: {g.name or '?'}"


def rule_gpu_health(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    need_gpu(f)
    need_nvml(f)
    out: list[Finding] = []
    for g in f.nvml.gpus:
        out += _compute_mode(f, g)
        out += _memory(f, g)
    return out


def _compute_mode(f: EnvironmentFacts, g: GpuFacts) -> list[Finding]:
    reset = f"sudo nvidia-smi -i {g.index} -c DEFAULT"
    others = [o for o in good_gpus(f) if o is not g]
    move = tr("   # or train on another GPU: {fix}", fix=device_fix(f, others[:1])[0]) if others else ""
    evidence = {tr("GPU"): _label(g), tr("compute mode"): str(g.compute_mode)}
    if g.compute_mode == PROHIBITED:
        return [Finding("gpu-compute-mode", "warning" if others else "error",
                        tr("GPU {gpu} is set to 'Compute Prohibited'", gpu=_label(g)),
                        tr("In this compute mode no program may create a CUDA context on the GPU, so PyTorch cannot "
                           "train on it (CUDA: 'all CUDA-capable devices are busy or unavailable'). An administrator "
                           "set it; the default mode lets every program use the GPU."), evidence, reset + move,
                        "command")]
    if g.compute_mode in EXCLUSIVE and g.processes:
        pids = " ".join(str(p.get("pid")) for p in g.processes)
        evidence[tr("compute processes")] = pids
        return [Finding("gpu-compute-mode", "warning" if others else "error",
                        tr("GPU {gpu} is in exclusive mode and another process holds it", gpu=_label(g)),
                        tr("In exclusive-process mode only one process at a time may use the GPU; process {pids} "
                           "holds it, so training cannot start on it until that process ends."), evidence,
                        tr("{reset}   # let several processes share it; or stop process {pids} first",
                           reset=reset, pids=pids) + move, "command")]
    return []


def _memory(f: EnvironmentFacts, g: GpuFacts) -> list[Finding]:
    evidence = {tr("GPU"): _label(g),
                tr("uncorrectable ECC errors (since the driver loaded)"): _count(g.ecc_uncorrected),
                tr("retired pages"): _count(g.retired_pages),
                tr("pages waiting for retirement"): _yes_no(g.retired_pages_pending),
                tr("row remapping pending"): _yes_no(g.remapped_rows_pending),
                tr("row remapping failed"): _yes_no(g.remapping_failed)}
    reset = tr("Reboot (or, with nothing running on it: sudo nvidia-smi -r -i {index}); watch the next runs with "
               "'nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER'.", index=g.index)
    if g.remapping_failed:
        return [Finding("gpu-memory-faulty", "error", tr("GPU {gpu}'s memory has faults it could not remap",
                                                         gpu=_label(g)),
                        tr("A row remapping failed on this GPU: part of its memory is faulty and can no longer be "
                           "taken out of use. Training on it may crash or compute wrong results. Have the board "
                           "checked by its vendor; use another GPU meanwhile."), evidence,
                        tr("Have the GPU serviced; meanwhile train on another GPU or the CPU."), "advice")]
    if g.retired_pages_pending or g.remapped_rows_pending:
        return [Finding("gpu-memory-pending", "warning", tr("GPU {gpu} has faulty memory waiting for a reset",
                                                            gpu=_label(g)),
                        tr("The driver found memory errors on this GPU and marked the pages (or rows) to be taken out "
                           "of use, which happens only when the GPU is reset. Until then the faulty memory can crash "
                           "a training run."), evidence, reset, "advice")]
    if g.ecc_uncorrected:
        return [Finding("gpu-memory-pending", "warning", tr("GPU {gpu} had uncorrectable memory errors",
                                                            gpu=_label(g)),
                        tr_n("{n} uncorrectable ECC error since the driver loaded: it ended the CUDA program that "
                             "hit it. If it recurs after a reset, the board needs service.",
                             "{n} uncorrectable ECC errors since the driver loaded: each one ends the CUDA program "
                             "that hit it. If they recur after a reset, the board needs service.",
                             g.ecc_uncorrected), evidence, reset, "advice")]
    return []


def _count(value: int | None) -> str:
    return "?" if value is None else str(value)


def _yes_no(value: bool | None) -> str:
    return "?" if value is None else tr("yes") if value else tr("no")
