"""In-app repair of the app's PyTorch: which findings it fixes, the exact command, and when it must refuse.

The Environment page's "Repair" and ``yolostudio doctor --repair`` call ``plan_repair`` with the checker's
findings, the facts they came from and ``runtime_facts()`` (the Python running the app). It repairs what a
different torch *build* fixes — ``torch-cpu-build``, ``driver-too-old`` when a wheel fits the driver,
``gpu-arch-unsupported`` — choosing the wheel exactly as the installer does (``wheel_choice``), and installs
it into the app's own venv with ``torch_install_argv`` (the build pinned by its label: no dependency is
touched), after asking the index whether it serves that build (``index_check``: the ``repair`` job falls
back to another build that fits, saying why, or stops before anything changed). It refuses, with the reason
and the command to run by hand, when the app runs from a system Python (changing its torch could break
other programs), when the venv is not writable, when no CUDA build runs on this driver (the driver must be
updated), or while a training run uses this PyTorch.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from dataclasses import dataclass, field
from typing import Any

from core.environment.commands import render_command, torch_install_argv, torch_requirements
from core.environment.facts import EnvironmentFacts
from core.environment.tables import PINNED, driver_platform
from core.install.index_check import check_argv, fallback_tags
from core.i18n import tr
from core.install.pip_progress import pip_supports_raw
from core.install.wheel_choice import WheelChoice, choose_index

REPAIRABLE = ("torch-cpu-build", "driver-too-old", "gpu-arch-unsupported")


@dataclass(frozen=True)
class RuntimeFacts:
    """The interpreter that runs the app: is it a venv, may we write to it, which pip does it carry."""

    python: str
    os: str | None
    in_venv: bool
    site_packages: str
    writable: bool
    pip_version: str | None = None  # "26.3"


def runtime_facts() -> RuntimeFacts:
    purelib = sysconfig.get_paths()["purelib"]
    try:
        from importlib.metadata import version  # noqa: PLC0415

        pip = version("pip")
    except Exception:  # noqa: BLE001 - PackageNotFoundError, or a broken distribution
        pip = None
    import platform  # noqa: PLC0415

    return RuntimeFacts(python=sys.executable, os=platform.system(), in_venv=sys.prefix != sys.base_prefix,
                        site_packages=purelib, writable=os.access(purelib, os.W_OK), pip_version=pip)


@dataclass
class RepairPlan:
    findings: list[str]  # the repairable finding ids present
    choice: WheelChoice | None = None
    argv: list[str] = field(default_factory=list)  # exactly what runs
    command: str = ""  # the same, as typed in a terminal
    refusal: str | None = None  # why not (then ``command`` is what the user may run by hand, if any)
    #: the builds to ask the index for, in order: the choice first, then the others that fit (``index_check``)
    builds: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.refusal is None and bool(self.argv)

    def job_spec(self, run_dir: str) -> dict[str, Any]:
        """The ``repair`` worker job's spec: the command shown, and the builds it checks the index for first."""
        return {"argv": self.argv, "run_dir": run_dir, "builds": self.builds}


def installed_build(facts: EnvironmentFacts) -> str | None:
    """'2.14.1+cu130' -> 'cu130'; None when torch is missing or carries no label."""
    version = facts.torch.version or ""
    return version.split("+", 1)[1] if "+" in version else None


def _install_argv(runtime: RuntimeFacts, tag: str, raw: bool) -> list[str]:
    argv = torch_install_argv(runtime.python, tag, PINNED["torch"], PINNED["torchvision"], runtime.os)
    if raw:
        argv.insert(4, "--progress-bar=raw")  # progress the app can show; a terminal ignores nothing else
    return argv


def plan_repair(facts: EnvironmentFacts, finding_ids: list[str], runtime: RuntimeFacts,
                busy_runs: list[str] | None = None) -> RepairPlan:
    """What "Repair" would do for these findings (ids from ``evaluate``) on the machine the app runs on."""
    present = [f for f in REPAIRABLE if f in finding_ids]
    if not present:
        return RepairPlan([], refusal=tr("Nothing to repair: none of the findings is fixed by another PyTorch build."))
    choice = choose_index(facts)
    raw = bool(runtime.pip_version and pip_supports_raw(f"pip {runtime.pip_version}"))
    argv = _install_argv(runtime, choice.tag, raw)
    builds = [{"tag": tag, "argv": _install_argv(runtime, tag, raw),
               "command": render_command(_install_argv(runtime, tag, raw), runtime.os),
               "check": check_argv(runtime.python, tag, PINNED["torch"], PINNED["torchvision"], runtime.os)}
              for tag in [choice.tag, *fallback_tags(choice, driver_platform(facts.system.os, facts.system.wsl))]]
    plan = RepairPlan(present, choice, argv, render_command(argv, runtime.os), builds=builds)
    if choice.tag == "cpu":
        plan.argv, plan.command, plan.builds = [], "", []
        plan.refusal = tr("No PyTorch CUDA build runs here: {reason}", reason=choice.reason)
    elif installed_build(facts) == choice.tag and facts.torch.version == torch_requirements(
            choice.tag, PINNED["torch"], PINNED["torchvision"], runtime.os)[0].split("==", 1)[1]:
        plan.refusal = tr("PyTorch {version} is already the build this machine needs ({tag}); reinstalling it would "
                          "not change anything. See the finding's details.", version=facts.torch.version,
                          tag=choice.tag)
    elif not runtime.in_venv:
        plan.refusal = tr("YOLO Studio runs from the system's Python ({python}), not from its own environment: "
                          "replacing PyTorch there could break other programs. Install the app with its "
                          "installer (it makes its own environment), or run the command yourself if this Python "
                          "is only for YOLO Studio.", python=runtime.python)
    elif not runtime.writable:
        plan.refusal = tr("The app's environment ({path}) is not writable by you — it was installed by another user "
                          "or is read-only. Ask its owner to run the command below.", path=runtime.site_packages)
    elif busy_runs:
        plan.refusal = tr("Training is running ({runs}) with this PyTorch; replacing it now would break the run. "
                          "Stop it (or let it finish), then repair.", runs=", ".join(busy_runs))
    return plan
