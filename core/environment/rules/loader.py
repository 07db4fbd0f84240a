"""Rules about yolov5's data-loader workers on this host: the CPUs they may really use, and the RAM they take.

Both start from what yolov5 itself will do (``tables.yolov5_loader_workers``: it sizes its training and
validation loaders from ``os.cpu_count()``, the host's logical CPUs, and keeps both sets of workers alive for
the whole run) and say how many workers fit instead, as a setting the Train form can apply.
"""

from __future__ import annotations

import math

from core.environment.facts import EnvironmentFacts
from core.environment.rules.base import RuleContext, need_fact, nvml_lists_gpus
from core.findings import Finding, changes
from core.environment.tables import (TRAIN_PROCESS_RAM_GB, worker_ram_gb, worker_start_method,
                                     yolov5_loader_workers)
from core.i18n import N_, tr


def _gpus(f: EnvironmentFacts) -> int:
    """``torch.cuda.device_count()`` in the training process (yolov5's ``nd``)."""
    if f.torch.device_count is not None:
        return f.torch.device_count
    return len(f.nvml.gpus) if nvml_lists_gpus(f) else 0


def loader_workers(f: EnvironmentFacts, workers: int, batch: int) -> tuple[int, int]:
    """(training, validation) workers yolov5 starts with ``--workers`` and ``--batch`` on this machine."""
    cpus = int(need_fact(f.system.logical_cores, N_("logical CPU count")))  # type: ignore[arg-type]
    gpus = _gpus(f)
    return (yolov5_loader_workers(workers, batch, cpus, gpus),
            yolov5_loader_workers(workers * 2, batch * 2, cpus, gpus))


def rule_cpu_limited(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    logical = int(need_fact(f.system.logical_cores, N_("logical CPU count")))  # type: ignore[arg-type]
    usable = int(need_fact(f.system.usable_cores, N_("usable CPU count")))  # type: ignore[arg-type]
    if usable >= logical:
        return []
    train, val = loader_workers(f, ctx.workers, ctx.batch)
    fits = max(usable - 1, 1)  # [design] one CPU stays with the training process
    if train <= fits:
        return []
    quota = f.system.cgroup_cpu_quota
    limit = (tr("the container's CPU quota ({quota:g} CPUs)", quota=quota) if quota is not None and
             math.ceil(quota) <= usable else tr("the CPU affinity mask ({usable} CPUs)", usable=usable))
    fix = _cpu_fix(f.system.container, fits, train + 1)
    return [Finding("cpu-limited", "warning",
                    tr("Only {usable} of {logical} CPUs are usable, but yolov5 will start {train} data-loader workers",
                       usable=usable, logical=logical, train=train),
                    tr("yolov5 sizes its data loaders from os.cpu_count() = {logical}, the machine's logical CPUs, "
                       "not from {limit}. With --workers {workers} and batch {batch} it starts {train} training and "
                       "{val} validation workers, which take turns on {usable} CPUs with the training process: each "
                       "batch takes longer to prepare and the GPU waits. Use at most {fits} workers, or allow the "
                       "container more CPUs.", logical=logical, limit=limit, workers=ctx.workers, batch=ctx.batch,
                       train=train, val=val, usable=usable, fits=fits),
                    {tr("logical CPUs (os.cpu_count)"): str(logical), tr("usable CPUs"): str(usable),
                     tr("cgroup quota"): f"{quota:g} CPUs" if quota is not None else tr("none"),
                     tr("yolov5 workers"): tr("{train} train + {val} val", train=train, val=val),
                     tr("container"): f.system.container or tr("no")},
                    fix, "setting", changes({"workers": fits}))]


def _cpu_fix(container: str | None, fits: int, wanted: int) -> str:
    """Fewer workers, or more CPUs where they are granted: a Kubernetes pod's CPU quota is its container's
    ``resources.limits.cpu`` (Kubernetes docs, "Resource Management for Pods and Containers": the limit becomes
    the cgroup CPU quota), which ``docker run --cpus`` cannot change; a plain container's is ``--cpus``."""
    if container == "kubernetes":
        return tr("--workers {fits}   # or raise the pod's CPU limit: resources: limits: cpu: \"{cpus}\" (in the "
                  "container spec; the pod is then recreated)", fits=fits, cpus=wanted)
    if container:
        return tr("--workers {fits}   # or give the container more CPUs: docker run {cpus} …", fits=fits,
                  cpus=f"--cpus {wanted}")
    return tr("--workers {fits}", fits=fits)


def worker_ram_need_gb(f: EnvironmentFacts, workers: int, batch: int, imgsz: int) -> float:
    """RAM the training process and all its loader workers need (``tables``: measured per-worker cost)."""
    method = worker_start_method(f.system.os, f.system.python_version)
    train, val = loader_workers(f, workers, batch)
    return (TRAIN_PROCESS_RAM_GB + train * worker_ram_gb(method, batch, imgsz)
            + val * worker_ram_gb(method, batch * 2, imgsz))


def rule_worker_ram(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    available = float(need_fact(f.system.ram_available_gb, N_("available RAM")))  # type: ignore[arg-type]
    need = worker_ram_need_gb(f, ctx.workers, ctx.batch, ctx.imgsz)
    if need <= available:
        return []
    fits = next((w for w in range(ctx.workers, -1, -1)
                 if worker_ram_need_gb(f, w, ctx.batch, ctx.imgsz) <= available), None)
    method = worker_start_method(f.system.os, f.system.python_version)
    train, val = loader_workers(f, ctx.workers, ctx.batch)
    swap = f.system.swap_total_gb
    risk = (tr("There is no swap, so the kernel's out-of-memory killer ends the training (or another program) "
               "when memory runs out.") if not swap else
            tr("The machine will swap ({swap:.1f} GB of swap), which slows every step.", swap=swap))
    per_worker = worker_ram_gb(method, ctx.batch, ctx.imgsz)
    evidence = {tr("available RAM"): f"{available:.1f} GB", tr("swap"): f"{swap:.1f} GB" if swap is not None else "?",
                tr("estimate"): tr("{need:.1f} GB: training process {main:.1f} GB + {train} train and {val} val "
                                  "workers × ~{per:.2f} GB", need=need, main=TRAIN_PROCESS_RAM_GB, train=train,
                                  val=val, per=per_worker),
                tr("workers start by"): method, tr("options"): f"workers {ctx.workers}, batch {ctx.batch}, "
                                                              f"imgsz {ctx.imgsz}"}
    if fits is None:
        return [Finding("ram-low-workers", "warning", tr("Too little free RAM to train at batch {batch}, imgsz {imgsz}",
                                                         batch=ctx.batch, imgsz=ctx.imgsz),
                        tr("Even without data-loader workers, training needs about {main:.1f} GB and {available:.1f} "
                           "GB is free. {risk}", main=worker_ram_need_gb(f, 0, ctx.batch, ctx.imgsz),
                           available=available, risk=risk), evidence,
                        tr("Close other programs, or train with a smaller batch and --workers 0."), "advice")]
    return [Finding("ram-low-workers", "warning",
                    tr("Not enough free RAM for {train} data-loader workers", train=train + val),
                    tr("yolov5 keeps {train} training and {val} validation workers alive for the whole run; with the "
                       "training process they need about {need:.1f} GB, and {available:.1f} GB is free. {risk} "
                       "--workers {fits} fits.", train=train, val=val, need=need, available=available, risk=risk,
                       fits=fits), evidence, tr("--workers {fits}", fits=fits), "setting", changes({"workers": fits}))]
