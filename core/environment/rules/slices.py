"""Rules about the share of a machine training really gets: a MIG slice of a GPU, Windows' commit limit.

Both are facts added in facts version 2 (``facts.ADDED_LATER``); a version-1 file lacks them, so the MIG rule
falls back on torch's device names (a MIG device is named "… MIG 1g.5gb") and the commit rule is not-checked.
"""

from __future__ import annotations

import re

from core.environment.facts import EnvironmentFacts
from core.environment.gather_nvml import mig_profile
from core.environment.rules.base import NotApplicable, RuleContext, need_fact, need_gpu
from core.environment.rules.loader import loader_workers, worker_ram_need_gb
from core.findings import Finding, changes
from core.i18n import N_, tr

#: Compute slices of a whole GPU in MIG mode (NVIDIA MIG User Guide, "Supported MIG Profiles": A100, H100,
#: H200, B200 and GB200 split into 7 GPU slices — their smallest profile is 1g — and A30 into 4).
MIG_SLICES_DEFAULT = 7
MIG_SLICES_BY_NAME: tuple[tuple[str, int], ...] = ((r"\bA30\b", 4),)
_SLICES = re.compile(r"^(?:(\d+)c\.)?(\d+)g\.(\d+)gb")


def mig_share(profile: str, parent: str | None) -> tuple[int, int, int] | None:
    """(compute slices used, slices of the whole GPU, memory GB) of a profile: '1g.5gb' on an A100 -> (1, 7, 5);
    '1c.3g.20gb' (one compute instance of a 3-slice instance) -> (1, 7, 20)."""
    match = _SLICES.match(profile)
    if not match:
        return None
    total = next((n for pattern, n in MIG_SLICES_BY_NAME if re.search(pattern, parent or "")), MIG_SLICES_DEFAULT)
    return int(match.group(1) or match.group(2)), total, int(match.group(3))


def _slices(f: EnvironmentFacts) -> list[tuple[int, str, str | None, float | None]]:
    """(GPU index, profile, parent name, memory GB) of every MIG slice: NVML's, else torch's device names."""
    out = [(g.index, str(m.get("profile")), g.name, m.get("memory_total_gb"))
           for g in f.nvml.gpus if g.mig_mode for m in (g.mig_devices or []) if m.get("profile")]
    if out:
        return out
    for d in f.torch.devices:
        profile = mig_profile(d.name)
        if profile:
            out.append((d.index, profile, (d.name or "").split(" MIG ")[0] or None, d.memory_total_gb))
    return out


def rule_mig(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    need_gpu(f)
    slices = _slices(f)
    if not slices:
        return []
    index, profile, parent, memory = slices[0]
    share = mig_share(profile, parent)
    used, total = (share[0], share[1]) if share else (None, None)
    memory_gb = memory if memory is not None else (share[2] if share else None)
    fraction = tr("{used}/{total} of its compute", used=used, total=total) if used else tr("a part of its compute")
    memory_words = f"{memory_gb:.0f} GB" if memory_gb is not None else "?"
    return [Finding("gpu-mig-slice", "info",
                    tr("Training gets a MIG slice of the {gpu}: {profile}, {fraction} and {memory}",
                       gpu=parent or "GPU", profile=profile, fraction=fraction, memory=memory_words),
                    tr("MIG splits the GPU into isolated instances, and a CUDA process uses one of them, so training "
                       "runs at about {fraction} of the whole GPU's speed with {memory} for its batches. Slices cannot "
                       "be combined for one training (no DataParallel or DDP over MIG instances).",
                       fraction=f"{used}/{total}" if used else tr("a part"), memory=memory_words),
                    {tr("MIG slices"): ", ".join(p for _i, p, _n, _m in slices), tr("GPU"): parent or "?",
                     tr("slice memory"): memory_words},
                    tr("Train on the slice with a batch that fits it (batch -1: yolov5's AutoBatch measures it). "
                       "For the whole GPU, its administrator turns MIG off: sudo nvidia-smi -i {index} -mig 0 (no "
                       "process may use the GPU; a GPU reset follows).", index=index), "advice")]


def rule_windows_commit(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    """Windows starts each loader worker as a new process that imports torch and commits memory against the
    commit limit (RAM + page file); past it, allocation fails with WinError 1455 ("the paging file is too
    small"). The need is the RAM estimate of ``loader.worker_ram_need_gb`` (measured per spawned worker): what
    a process uses it has committed, so this is the least it commits."""
    if need_fact(f.system.os, N_("OS")) != "Windows":
        raise NotApplicable(tr("not Windows"))
    available = float(need_fact(f.system.commit_available_gb, N_("commit limit")))  # type: ignore[arg-type]
    need = worker_ram_need_gb(f, ctx.workers, ctx.batch, ctx.imgsz)
    if need <= available:
        return []
    fits = next((w for w in range(ctx.workers, -1, -1)
                 if worker_ram_need_gb(f, w, ctx.batch, ctx.imgsz) <= available), None)
    train, val = loader_workers(f, ctx.workers, ctx.batch)
    limit = f.system.commit_limit_gb
    page_file = tr("enlarge the page file: System → Advanced system settings → Performance → Settings → Advanced "
                   "→ Virtual memory → 'System managed size' or a larger custom size, then restart")
    evidence = {tr("commit limit (RAM + page file)"): f"{limit:.1f} GB" if limit is not None else "?",
                tr("commit available"): f"{available:.1f} GB", tr("needed at least"): f"{need:.1f} GB",
                tr("yolov5 workers"): tr("{train} train + {val} val", train=train, val=val)}
    detail = tr("On Windows every data-loader worker is a new process that imports torch, and each commits memory "
                "against the commit limit (RAM plus page file). The training process and its {train} training and "
                "{val} validation workers need at least {need:.1f} GB and {available:.1f} GB can still be "
                "committed; past the limit a worker fails with 'WinError 1455: The paging file is too small for "
                "this operation to complete'.", train=train, val=val, need=need, available=available)
    if fits is None:
        return [Finding("windows-commit-low", "warning", tr("Windows cannot commit the memory this training needs"),
                        detail, evidence, tr("Close other programs, and {page_file}.", page_file=page_file),
                        "advice")]
    return [Finding("windows-commit-low", "warning",
                    tr("Windows may refuse memory to {count} data-loader workers (WinError 1455)", count=train + val),
                    detail, evidence, tr("--workers {fits}   # or {page_file}", fits=fits, page_file=page_file),
                    "setting", changes({"workers": fits}))]
