"""Which PyTorch wheel index a machine should install from — one of the pinned release's builds (cu132, cu130,
cu126 for torch 2.14) or cpu — and why.

The rules are the environment checker's (``core.environment.tables``: driver floors, the driver each
toolkit shipped with, ``choose_wheel``; ``core.environment.torch_builds``: the builds each torch release
ships, with their architectures and Python range); this module only explains the outcome for a person and
handles what a checker never has to: no wheel at all for the driver (CPU, and which driver to install), GPUs
no single wheel can serve (mixed generations), and user overrides.
Facts (``docs/facts/gpu-environment.md`` section 1, encoded in those tables with their sources):
- only the driver matters for a pip-installed torch; the wheel brings its own CUDA runtime;
- a CUDA 12.x wheel needs driver >= 525.60.13 (Linux) / 528.33 (Windows), 13.x >= 580.65.06 / 580, and any
  13.x wheel runs on a 580 driver (minor-version compatibility);
- torch 2.14: cu126 carries sm_50–sm_90 (the only build for Maxwell, Pascal, Volta), cu130 and cu132 carry
  sm_75–sm_120 (the only builds for Blackwell) — so Blackwell on a 12.x driver needs a driver update;
- under WSL2 the driver is the Windows one (Windows numbering and floors: ``tables.driver_platform``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from core.environment.facts import EnvironmentFacts
from core.environment.build_fit import no_build_reason
from core.environment.commands import driver_update_command
from core.environment.tables import (CPU_WHEEL, TOOLKIT_DRIVERS, WHEELS, Wheel, arch_covers, architecture_name,
                                     choose_wheel, cuda_tuple, driver_floor, driver_meets, driver_platform,
                                     fitting_wheels, minimum_driver_for)
from core.i18n import tr

#: Index tags a user may ask for with ``--cuda``.
CUDA_TAGS: tuple[str, ...] = tuple(w.tag for w in WHEELS)
#: NVML/nvidia-smi errors that mean "there is no NVIDIA driver here" rather than "the driver is broken".
NO_DRIVER_ERRORS = ("LibraryNotFound", "NotInstalled", "NotFound")


@dataclass
class GpuSeen:
    index: int
    name: str
    capability: tuple[int, int] | None
    usable: bool = True  # has kernels in the chosen wheel

    def words(self) -> str:
        if self.capability is None:
            return tr("{name} (architecture unknown)", name=self.name)
        cc = self.capability
        return tr("{name} ({family}, sm_{major}{minor})", name=self.name, family=architecture_name(cc),
                  major=cc[0], minor=cc[1])


@dataclass
class WheelChoice:
    """The chosen index (``tag``), one sentence saying why (``reason``), and what it rests on."""

    tag: str  # a build of the pinned release ("cu132" | "cu130" | "cu126") or "cpu"
    reason: str
    code: str  # stable: fits-all, mixed-gpus, driver-too-old, no-gpu, driver-error, not-cuda-os, override-*
    driver: str | None = None
    driver_cuda: str | None = None  # "12.8": the newest CUDA the driver runs
    gpus: list[GpuSeen] = field(default_factory=list)
    driver_needed: str | None = None  # to use the GPU (CPU chosen because the driver is too old)
    warnings: list[str] = field(default_factory=list)

    @property
    def wheel(self) -> Wheel:
        return next((w for w in WHEELS if w.tag == self.tag), CPU_WHEEL)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["gpus"] = [dict(g, capability=list(g["capability"]) if g["capability"] else None) for g in out["gpus"]]
        return out


def gpus_of(facts: EnvironmentFacts) -> list[GpuSeen]:
    """The NVIDIA GPUs in the facts: NVML's list, else torch's (a facts file whose NVML failed)."""
    out = []
    for g in facts.nvml.gpus if facts.nvml.available else []:
        cc = tuple(g.capability[:2]) if g.capability and len(g.capability) >= 2 else None
        out.append(GpuSeen(g.index, g.name or "?", cc))  # type: ignore[arg-type]
    if not out:
        for d in facts.torch.devices:
            cc = tuple(d.capability[:2]) if d.capability and len(d.capability) >= 2 else None
            out.append(GpuSeen(d.index, d.name or "?", cc))  # type: ignore[arg-type]
    return out


def driver_cuda_of(facts: EnvironmentFacts) -> tuple[int, int] | None:
    """The newest CUDA the driver runs: NVML's own answer, else the newest toolkit whose shipped driver it
    reaches (conservative: a driver between two toolkits counts as the older one)."""
    reported = cuda_tuple(facts.nvml.cuda_driver_version)
    if reported is not None or not facts.nvml.driver_version:
        return reported
    windows = driver_platform(facts.system.os, facts.system.wsl) == "Windows"
    reached = [cuda_tuple(toolkit) for toolkit, drivers in TOOLKIT_DRIVERS.items()
               if driver_meets(facts.nvml.driver_version, drivers[1 if windows else 0])]
    return max((c for c in reached if c is not None), default=None)


def _cuda_text(cuda: tuple[int, int] | None) -> str | None:
    return None if cuda is None else f"{cuda[0]}.{cuda[1]}"


def _recommended_driver(wheel: Wheel, os_name: str | None) -> str | None:
    """The driver the wheel's toolkit shipped with (runs it fully, PTX JIT included)."""
    if wheel.cuda is None:
        return None
    row = TOOLKIT_DRIVERS.get(f"{wheel.cuda[0]}.{wheel.cuda[1]}")
    if row is None:
        return driver_floor(wheel.cuda[0], os_name)
    return row[1] if os_name == "Windows" else row[0]


def _by_driver(driver: str | None, driver_cuda: tuple[int, int] | None, os_name: str | None) -> Wheel | None:
    """GPUs of unknown architecture: the newest wheel the driver runs outright."""
    for wheel in WHEELS:
        assert wheel.cuda is not None
        if driver_meets(driver, driver_floor(wheel.cuda[0], os_name)) is not False and (
                driver_cuda is None or driver_cuda >= wheel.cuda):
            return wheel
    return None


def _gpu_list(gpus: list[GpuSeen]) -> str:
    return ", ".join(tr("GPU {index}: {what}", index=g.index, what=g.words()) for g in gpus)


def choose_index(facts: EnvironmentFacts, override: str | None = None) -> WheelChoice:
    """The wheel index for the machine the facts describe. ``override``: "cpu" or a CUDA tag (cu126...)."""
    if facts.system.os not in ("Linux", "Windows") and not override:
        return WheelChoice("cpu", tr("PyTorch publishes CUDA wheels for Linux and Windows only; on {os} the CPU "
                                     "build is installed.", os=facts.system.os or "?"), "not-cuda-os",
                           driver=facts.nvml.driver_version, driver_cuda=_cuda_text(driver_cuda_of(facts)),
                           gpus=gpus_of(facts))
    os_name = driver_platform(facts.system.os, facts.system.wsl)  # whose driver numbering and floors count
    gpus = gpus_of(facts)
    driver = facts.nvml.driver_version
    driver_cuda = driver_cuda_of(facts)
    base = {"driver": driver, "driver_cuda": _cuda_text(driver_cuda), "gpus": gpus}
    if override:
        return _overridden(override, facts, gpus, driver, driver_cuda, base)
    if not gpus:
        return _no_gpu(facts, base)
    known = [g for g in gpus if g.capability is not None]
    caps = sorted({g.capability for g in known})  # type: ignore[misc]
    warnings = ([tr("The architecture of {gpus} could not be read; the wheel was chosen for the driver alone.",
                    gpus=_gpu_list([g for g in gpus if g.capability is None]))] if len(known) < len(gpus) else [])
    wheel = choose_wheel(driver, driver_cuda, caps, os_name) if caps else _by_driver(driver, driver_cuda, os_name)
    if wheel is not None and wheel is not CPU_WHEEL:
        return WheelChoice(wheel.tag, _fits_reason(wheel, driver, driver_cuda, gpus), "fits-all",
                           warnings=warnings, **base)
    if caps and not fitting_wheels(caps):
        return _mixed(facts, gpus, caps, driver, driver_cuda, base, warnings)
    oldest = WHEELS[-1].cuda[0]  # type: ignore[index]
    needed = minimum_driver_for(caps, os_name) if caps else driver_floor(oldest, os_name)
    best = (fitting_wheels(caps) or list(WHEELS))[0]
    how = tr(" How: {how}", how=driver_update_command(facts.system, needed or "?"))  # WSL: Windows; container: host
    if caps and fitting_wheels(caps) and driver_meets(driver, driver_floor(oldest, os_name)):
        # the driver runs some build, just none with kernels for these GPUs (Blackwell on a 12.x driver)
        return WheelChoice("cpu", tr("{why} Until then the CPU build is installed and training will not use the "
                                     "GPU; after the update, run the installer again: it switches PyTorch in place.",
                                     why=no_build_reason(driver, caps, os_name)) + how,
                           "driver-too-old", driver_needed=needed, warnings=warnings, **base)
    return WheelChoice("cpu", tr("The NVIDIA driver {driver} is older than {needed}, the oldest driver any PyTorch "
                                 "CUDA wheel for {gpus} runs with, so the CPU build is installed and training will "
                                 "not use the GPU. Update the driver to {needed} or newer ({recommended} or newer "
                                 "for the {tag} wheel), then run the installer again: it switches PyTorch in place.",
                                 driver=driver or "?", needed=needed or "?", gpus=_gpu_list(gpus),
                                 recommended=_recommended_driver(best, os_name) or "?", tag=best.tag) + how,
                       "driver-too-old", driver_needed=needed, warnings=warnings, **base)


def _fits_reason(wheel: Wheel, driver: str | None, driver_cuda: tuple[int, int] | None, gpus: list[GpuSeen]) -> str:
    cuda = f"{wheel.cuda[0]}.{wheel.cuda[1]}"  # type: ignore[index]
    if driver_cuda is not None and driver_cuda < wheel.cuda:  # type: ignore[operator]
        return tr("{tag}: the newest wheel driver {driver} (CUDA {have}) runs, through CUDA {major}.x minor-version "
                  "compatibility, and compiled for {gpus}.", tag=wheel.tag, driver=driver or "?",
                  have=_cuda_text(driver_cuda), major=wheel.cuda[0], gpus=_gpu_list(gpus))  # type: ignore[index]
    newer = [w.tag for w in WHEELS[:WHEELS.index(wheel)]
             if driver_cuda is None or driver_cuda >= w.cuda]  # type: ignore[operator]
    why_not = (tr(" Newer wheels ({tags}) have no kernels for this architecture.", tags=", ".join(newer))
               if newer else "")
    return tr("{tag}: the newest wheel (CUDA {cuda}) that driver {driver} (CUDA {have}) runs and that is compiled "
              "for {gpus}.{why_not}", tag=wheel.tag, cuda=cuda, driver=driver or "?",
              have=_cuda_text(driver_cuda) or "?", gpus=_gpu_list(gpus), why_not=why_not)


def _no_gpu(facts: EnvironmentFacts, base: dict[str, Any]) -> WheelChoice:
    error = facts.nvml.error
    if error and error not in NO_DRIVER_ERRORS:
        return WheelChoice("cpu", tr("The NVIDIA driver did not answer ({error}: {message}), so no GPU could be "
                                     "checked and the CPU build is installed. Fix the driver (nvidia-smi must list "
                                     "the GPU), then run the installer again: it switches PyTorch in place.",
                                     error=error, message=facts.nvml.error_message or ""), "driver-error", **base)
    return WheelChoice("cpu", tr("No NVIDIA GPU was found, so the CPU build of PyTorch is installed (it is also "
                                 "much smaller)."), "no-gpu", **base)


def _mixed(facts: EnvironmentFacts, gpus: list[GpuSeen], caps: list[tuple[int, int]], driver: str | None,
           driver_cuda: tuple[int, int] | None, base: dict[str, Any], warnings: list[str]) -> WheelChoice:
    """No wheel has kernels for every GPU (e.g. a GTX 1080 beside an RTX 5090): serve as many GPUs as one
    wheel can, the newest architecture first (one current card usually outruns several old ones), then the
    most GPUs, and name the GPUs left out."""
    os_name = driver_platform(facts.system.os, facts.system.wsl)
    options = []
    for wheel in WHEELS:
        served = [cc for cc in caps if arch_covers(wheel.archs, cc)]
        chosen = choose_wheel(driver, driver_cuda, served, os_name) if served else None
        if chosen is not None and chosen is not CPU_WHEEL:
            options.append((len([g for g in gpus if g.capability in served]), max(served), chosen, served))
    if not options:
        return WheelChoice("cpu", tr("No PyTorch CUDA wheel runs on driver {driver} for {gpus}; the CPU build is "
                                     "installed. Update the driver, then run the installer again.",
                                     driver=driver or "?", gpus=_gpu_list(gpus)), "driver-too-old",
                           warnings=warnings, **base)
    _, _, wheel, served = max(options, key=lambda o: (o[1], o[0]))
    for g in gpus:
        g.usable = g.capability is None or g.capability in served
    left_out = [g for g in gpus if not g.usable]
    usable = [g for g in gpus if g.usable]
    reason = tr("No single PyTorch wheel has kernels for every GPU here ({all}): sm_50–sm_70 need cu126 and "
                "Blackwell needs cu130 or cu132. {tag} serves {usable}; {left_out} cannot be used for training "
                "(choose the other GPUs with --device {devices}).", all=_gpu_list(gpus), tag=wheel.tag,
                usable=_gpu_list(usable), left_out=_gpu_list(left_out),
                devices=",".join(str(g.index) for g in usable))
    left_caps = sorted({g.capability for g in left_out if g.capability is not None})  # type: ignore[misc]
    needed = minimum_driver_for(left_caps, os_name) if left_caps else None
    if needed and driver_meets(driver, needed) is False:  # the driver, not the wheel, keeps them out
        reason += " " + tr("With driver {needed} or newer, a build for {left_out} would run (then run the installer "
                           "again).", needed=needed, left_out=_gpu_list(left_out))
    return WheelChoice(wheel.tag, reason, "mixed-gpus", warnings=warnings, **base)


def _overridden(override: str, facts: EnvironmentFacts, gpus: list[GpuSeen], driver: str | None,
                driver_cuda: tuple[int, int] | None, base: dict[str, Any]) -> WheelChoice:
    if override == "cpu":
        note = tr(" This machine has {gpus}; training will not use them.", gpus=_gpu_list(gpus)) if gpus else ""
        return WheelChoice("cpu", tr("CPU build, as asked (--cpu).{note}", note=note), "override-cpu", **base)
    wheel = next((w for w in WHEELS if w.tag == override), None)
    if wheel is None:
        raise ValueError(tr("Unknown CUDA build {tag!r}: choose one of {tags}, or --cpu.", tag=override,
                            tags=", ".join(CUDA_TAGS)))
    warnings = []
    floor = driver_floor(wheel.cuda[0], driver_platform(facts.system.os, facts.system.wsl))  # type: ignore[index]
    if driver and driver_meets(driver, floor) is False:
        warnings.append(tr("Driver {driver} is older than {floor}, the minimum for {tag}: CUDA will not start "
                           "until the driver is updated.", driver=driver, floor=floor, tag=wheel.tag))
    for g in gpus:
        if g.capability is not None and not arch_covers(wheel.archs, g.capability):
            g.usable = False
            warnings.append(tr("{tag} has no kernels for GPU {index} ({what}).", tag=wheel.tag, index=g.index,
                               what=g.words()))
    if not gpus:
        warnings.append(tr("No NVIDIA GPU was found on this machine; {tag} will run on the CPU only.", tag=wheel.tag))
    return WheelChoice(wheel.tag, tr("{tag}, as asked (--cuda {tag}).", tag=wheel.tag), "override-cuda",
                       warnings=warnings, **base)
