"""Rules about the host around the GPU: shared memory, RAM for the cache, disk speed and space, Windows
data loading. Several depend on the training options in ``RuleContext``.
"""

from __future__ import annotations

from core.environment.facts import EnvironmentFacts
from core.environment.rules.base import GB, NotApplicable, RuleContext, Unknown, need_fact
from core.findings import Finding, changes
from core.environment.tables import (DISK_FREE_ERROR_GB, DISK_FREE_WARN_GB, DISK_SLOW_FILES_S, DISK_SLOW_MB_S,
                                     PREFETCH_FACTOR, RAM_CACHE_MARGIN, SHM_SAFETY)
from core.i18n import N_, tr


#: ``DiskFacts.role`` ids in words ("Slow disk under the dataset").
_ROLE_WORDS = {"workspace": N_("workspace"), "dataset": N_("dataset")}


def shm_needed_gb(ctx: RuleContext) -> float:
    """Shared memory the data loader keeps in flight: workers x prefetch batches of uint8 images, doubled."""
    batch_bytes = ctx.batch * 3 * ctx.imgsz * ctx.imgsz
    return max(ctx.workers, 1) * PREFETCH_FACTOR * batch_bytes * SHM_SAFETY / GB


def rule_shm(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    if f.system.os not in (None, "Linux"):
        raise NotApplicable(tr("no /dev/shm on {os}", os=f.system.os))
    shm = float(need_fact(f.system.shm_total_gb, N_("/dev/shm size")))  # type: ignore[arg-type]
    need = shm_needed_gb(ctx)
    if shm >= need or ctx.workers == 0:
        return []
    per_worker = need / max(ctx.workers, 1)
    fits = max(int(shm // per_worker), 0)
    container = f.system.container
    fix = (tr("mount an emptyDir with medium: Memory (sizeLimit: 16Gi) at /dev/shm in the pod spec")
           if container == "kubernetes" else "docker run --ipc=host …   # or: docker run --shm-size=16g …"
           if container else "sudo mount -o remount,size=16G /dev/shm")
    return [Finding("shm-too-small", "error" if container else "warning",
                    tr("/dev/shm is too small for {workers} data-loader workers", workers=ctx.workers),
                    tr("Data-loader workers hand batches to training through shared memory; when it is full the "
                       "loader dies with 'bus error' or 'No space left on device'. Docker gives containers only "
                       "64 MB unless told otherwise. Until it is fixed, --workers {fits} fits.", fits=fits),
                    {tr("/dev/shm"): f"{shm * 1024:.0f} MB", tr("needed"): f"{need * 1024:.0f} MB",
                     tr("options"): f"workers {ctx.workers}, batch {ctx.batch}, imgsz {ctx.imgsz}",
                     tr("container"): container or tr("no")}, fix, "command", changes({"workers": fits}))]


def rule_ram(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    if f.dataset is None or f.dataset.cache_ram_gb is None:
        raise Unknown(tr("no dataset given"))
    available = float(need_fact(f.system.ram_available_gb, N_("available RAM")))  # type: ignore[arg-type]
    need = f.dataset.cache_ram_gb * RAM_CACHE_MARGIN
    if need <= available:
        return []
    return [Finding("ram-low", "warning", tr("Not enough RAM to cache this dataset"),
                    tr("--cache ram needs about {need:.1f} GB for {images} images at imgsz {imgsz}; yolov5 then "
                       "silently trains without a cache. Use the disk cache instead.", need=need,
                       images=f.dataset.images or "?", imgsz=f.dataset.imgsz or ctx.imgsz),
                    {tr("cache estimate"): f"{f.dataset.cache_ram_gb:.1f} GB",
                     tr("available RAM"): f"{available:.1f} GB"}, "--cache disk", "setting", changes({"cache": "disk"}))]


def rule_disk(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    out: list[Finding] = []
    measured = [d for d in f.disks if d.read_mb_s is not None]
    if not f.disks:
        raise Unknown(tr("{fact} was not read", fact=tr("disk")))
    for d in measured:
        if (d.files_per_s >= DISK_SLOW_FILES_S) if d.files_per_s is not None else (d.read_mb_s >= DISK_SLOW_MB_S):
            continue
        role = tr(_ROLE_WORDS[d.role]) if d.role in _ROLE_WORDS else d.role
        out.append(Finding("disk-slow", "warning", tr("Slow disk under the {role}: {files:.0f} images/s",
                                                       role=role, files=d.files_per_s or 0),
                           tr("Random reads of image files ran at {speed:.0f} MB/s ({files:.0f} files/s); a fast GPU "
                              "consumes images faster than that, so it would wait for the disk.",
                              speed=d.read_mb_s, files=d.files_per_s or 0),
                           {tr("path"): d.path, tr("read speed"): f"{d.read_mb_s:.0f} MB/s",
                            tr("images per second"): f"{d.files_per_s or 0:.0f}",
                            tr("files read"): str(d.files_read) if d.files_read is not None else "?"},
                           tr("Copy the dataset to a local SSD, or train with --cache ram (or --cache disk)."),
                           "setting", changes({"cache": "ram"})))
    for d in f.disks:
        if d.role != "workspace" or d.free_gb is None or d.free_gb >= DISK_FREE_WARN_GB:
            continue
        out.append(Finding("disk-space-low", "error" if d.free_gb < DISK_FREE_ERROR_GB else "warning",
                           tr("Only {free:.1f} GB free for the workspace", free=d.free_gb),
                           tr("Checkpoints, plots and a disk cache are written there; a full disk ends training."),
                           {tr("path"): d.path, tr("free"): f"{d.free_gb:.1f} GB"},
                           tr("Free space, or move the workspace: yolostudio --workspace DIR …"), "advice"))
    return out


def rule_windows(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    if need_fact(f.system.os, N_("OS")) != "Windows":
        raise NotApplicable(tr("not Windows"))
    if any(e.code == "windows-commit-low" for e in earlier):
        return []  # the measured commit limit said it, with the workers that fit
    return [Finding("windows-workers", "info", tr("Windows: keep data-loader workers modest"),
                    tr("Windows starts each data-loader worker as a new process (spawn), which re-imports torch: "
                       "each costs seconds and memory, and many of them can fail with 'WinError 1455: the paging "
                       "file is too small'."), {tr("OS"): f"Windows {f.system.os_release or ''}".strip(),
                                                 tr("workers"): str(ctx.workers)},
                    tr("Use --workers 4; if WinError 1455 appears, enlarge the page file (System → Advanced → "
                       "Performance → Virtual memory)."), "setting", changes({"workers": min(ctx.workers, 4)}))]
