"""The ``probe`` worker job: gather this machine's environment facts and report them as events.

Runs in a worker subprocess because it imports torch (seconds, hundreds of MB, and a CUDA fault must
never take the GUI down). Each step is announced with ``probe_step`` *before* it starts and followed by
a ``facts`` event with everything read so far, so a launcher that has to kill a hung probe (a wedged
driver) still has the facts gathered before the hang and knows the step it hung in. Spec fields:
``workspace``, optional ``data`` (a data.yaml: its disk is timed and its RAM cache estimated), ``imgsz``,
``read_budget_s`` (per timed disk), ``kernels`` (run the CUDA test kernel, default true).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from core import __version__
from core.environment.facts import EnvironmentFacts, NvmlFacts, ProbeInfo
from core.environment.gather_disk import gather_dataset, gather_disk, list_images
from core.environment.gather_nvml import gather_nvml
from core.environment.gather_platform import gather_platform
from core.environment.gather_system import gather_system, package_versions
from core.worker.job import JobContext
from core.worker.probe_torch import gather_torch

STEPS = ("system", "nvml", "disks", "torch")
#: NVML's words for "no NVIDIA driver here": no GPU can be used, so there is no CUDA to test.
NO_DRIVER = frozenset({"LibraryNotFound", "DriverNotLoaded", "NotInstalled"})


def gpu_to_test(nvml: NvmlFacts) -> bool:
    """Whether CUDA gets a step of its own ("Testing CUDA on each GPU…"): NVML listed a GPU, or could not
    tell (no permission, a lost GPU). ``gather_torch`` asks only on a CUDA build of torch. Elsewhere torch's
    CUDA query is instant and stays inside the torch step, so a machine without a GPU is never told it is
    testing one."""
    return bool(nvml.gpus) or (not nvml.available and nvml.error not in NO_DRIVER)


def run_probe(ctx: JobContext) -> str:
    """Every step's facts, published as read; a step that raises still publishes what came before it."""
    spec, writer = ctx.spec, ctx.writer
    start = time.time()
    facts = EnvironmentFacts(created=start, app_version=__version__, probe=ProbeInfo(completed=False))

    def step(name: str) -> None:
        if name == "cuda":  # a phase of the torch step, announced so a hang there is reported as CUDA's
            if gpu_to_test(facts.nvml):
                writer.emit("probe_step", step=name, index=STEPS.index("torch"), count=len(STEPS))
            return
        writer.emit("probe_step", step=name, index=STEPS.index(name), count=len(STEPS))

    def publish(final: bool = False) -> None:
        facts.probe.elapsed_s = time.time() - start
        writer.emit("facts", facts=facts.to_dict(), final=final)

    try:
        step("system")
        facts.system = gather_system()
        facts.packages = package_versions()
        publish()
        step("nvml")
        facts.nvml = gather_nvml()
        gather_platform(facts.system, facts.nvml)  # the kind of machine, and the driver's versions from its files
        publish()
        step("disks")
        _gather_disks(facts, spec)
        publish()
        step("torch")
        facts.torch = gather_torch(facts.nvml.gpus, run_kernels=spec.get("kernels", True), step=step)
        facts.probe.completed = True
        publish(final=True)
    except Exception as exc:  # noqa: BLE001 - report what was gathered, and why the rest is missing
        facts.probe.error = f"{type(exc).__name__}: {exc}"
        publish(final=True)
        raise  # the worker entry reports it (error, then done: failed)
    return "completed"


def _gather_disks(facts: EnvironmentFacts, spec: dict[str, Any]) -> None:
    budget = float(spec.get("read_budget_s", 2.0))
    workspace = Path(spec.get("workspace") or ".")
    data = spec.get("data")
    if data:
        facts.dataset, root, images = gather_dataset(Path(data), int(spec.get("imgsz", 640)))
        facts.disks.append(gather_disk("dataset", root or Path(data).parent, images, budget))
    demo = workspace / "demo"
    facts.disks.append(gather_disk("workspace", workspace, list_images(demo, 2000) if demo.is_dir() else [], budget))
