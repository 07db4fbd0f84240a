"""What every environment rule shares: the context it judges for, how it says "can't judge", and fact helpers.

A rule that needs a fact that was not read raises ``Unknown``; a check that does not apply to this machine
raises ``NotApplicable``. The helpers read facts the way every rule must (NVML first, torch as fallback), so
two rules never disagree about which GPUs the machine has.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.environment.accelerator import is_rocm, is_tegra, jetson_torch_fix, not_nvidia_desktop, rocm_label
from core.environment.commands import driver_update_command, torch_install_command
from core.environment.facts import EnvironmentFacts, GpuFacts
from core.environment.nvml import error_words
from core.environment.build_fit import no_build_reason
from core.environment.tables import (DRIVER_FLOORS, TOOLKIT_DRIVERS, Wheel, arch_covers, choose_wheel,
                                     cuda_tuple, driver_floor, driver_platform, fitting_wheels, minimum_driver_for,
                                     version_tuple)
from core.environment.torch_builds import release_for
from core.i18n import tr

GB = 1024**3


class Unknown(Exception):
    """A rule cannot judge: a fact it needs was not read (the message says which)."""


class NotApplicable(Exception):
    """The check does not apply to this machine (GPU checks without a GPU); the message says why."""


#: NVML errors that mean "no NVIDIA driver here" rather than "the driver could not be asked".
NO_DRIVER_ERRORS = ("LibraryNotFound", "NotInstalled")


def need_gpu(f: EnvironmentFacts, jetson: bool = False) -> None:
    """Make a GPU-only check ``n/a`` on a machine without an NVIDIA GPU (neither NVML nor torch sees one) —
    but not-checked when NVML failed for another reason: then nobody knows whether a GPU is there. An AMD GPU
    under a ROCm build is no NVIDIA GPU (``accelerator``); a Jetson's is, for the CUDA checks that say
    ``jetson=True`` (architecture, test kernel, cuDNN), and the desktop ones are ``n/a`` there."""
    reason = not_nvidia_desktop(f)
    if reason and not (jetson and is_tegra(f) and not is_rocm(f)):
        raise NotApplicable(reason)
    if not nvml_lists_gpus(f) and not f.torch.cuda_available and not f.torch.device_count:
        if f.nvml.error and f.nvml.error not in NO_DRIVER_ERRORS:
            raise Unknown(nvml_unread(f))
        raise NotApplicable(tr("no NVIDIA GPU"))


def need_nvml(f: EnvironmentFacts) -> None:
    """A check that reads the driver or the GPUs' live state cannot run without NVML: say why (on an AMD GPU or
    a Jetson, that NVIDIA's desktop NVML does not apply)."""
    reason = not_nvidia_desktop(f)
    if reason and not nvml_lists_gpus(f):
        raise NotApplicable(reason)
    if not nvml_lists_gpus(f):
        raise Unknown(nvml_unread(f))


def nvml_error_text(f: EnvironmentFacts) -> str:
    """NVML's error in words, with NVML's own message quoted after it ("no NVIDIA driver library on this
    machine ('NVML Shared Library Not Found')"); "" without an error."""
    if not f.nvml.error:
        return ""
    words = error_words(f.nvml.error)
    return tr("{kind} ('{message}')", kind=words, message=f.nvml.error_message) if f.nvml.error_message else words


def nvml_unread(f: EnvironmentFacts) -> str:
    """Why NVML's facts are missing, for a not-checked note."""
    if f.nvml.error:
        return tr("NVML is not available ({error})", error=nvml_error_text(f))
    if f.nvml.available:
        return tr("NVML lists no GPU")
    return tr("{fact} was not read", fact="NVML")


@dataclass(frozen=True)
class RuleContext:
    """The training options to judge the machine for (shared memory and RAM depend on them)."""

    workers: int = 8
    batch: int = 16
    imgsz: int = 640


#: What ``import torch`` raises when there is no torch at all (Python's ModuleNotFoundError); any other import
#: error — a DLL or shared library that does not load, a damaged file — comes from a torch that is installed.
_NOT_INSTALLED = ("No module named 'torch'", 'No module named "torch"')


def torch_cannot_load(f: EnvironmentFacts) -> bool:
    """torch is installed but its import failed: its metadata was read (``dist_version``), or — in a facts file of
    version 1, which has no ``dist_version`` — the import error is not "No module named 'torch'"."""
    if f.torch.installed is not False:
        return False
    if f.torch.dist_version:
        return True
    error = f.torch.import_error or ""
    return bool(error.strip()) and not any(words in error for words in _NOT_INSTALLED)


def torch_absent(f: EnvironmentFacts) -> str:
    """Why a torch check cannot run: not installed, or installed but not loading (``torch-cannot-load``)."""
    return tr("PyTorch is installed but does not load") if torch_cannot_load(f) else tr("PyTorch is not installed")


def need_fact(value: object, name: str) -> object:
    """The fact, or ``Unknown`` naming it when it was not read (``name`` marked ``N_()`` where it is written)."""
    if value is None:
        raise Unknown(tr("{fact} was not read", fact=tr(name)))
    return value


def gpu_capability(gpu: GpuFacts) -> tuple[int, int] | None:
    """(major, minor) compute capability as NVML reported it, or None."""
    cc = gpu.capability
    return (int(cc[0]), int(cc[1])) if cc and len(cc) >= 2 else None


def capabilities(f: EnvironmentFacts) -> list[tuple[int, int]]:
    """Every GPU's compute capability: NVML's, or torch's when NVML could not be read."""
    caps = [cc for cc in (gpu_capability(g) for g in f.nvml.gpus) if cc is not None]
    if not caps:
        caps = [tuple(d.capability[:2]) for d in f.torch.devices if d.capability]  # type: ignore[misc]
    return caps


def nvml_lists_gpus(f: EnvironmentFacts) -> bool:
    """NVML answered and listed at least one GPU."""
    return f.nvml.available and len(f.nvml.gpus) > 0


def cuda_text(cuda: tuple[int, int] | None) -> str:
    return "—" if cuda is None else f"{cuda[0]}.{cuda[1]}"


def driver_os(f: EnvironmentFacts) -> str | None:
    """The OS whose driver numbering and floors apply: Windows under WSL2 (``tables.driver_platform``)."""
    return driver_platform(f.system.os, f.system.wsl)


def python_without_wheels(f: EnvironmentFacts) -> bool:
    """The Python running the app is outside the range torch's release table has wheels for: every
    ``pip install torch`` would fail, so the first fix is a venv on a supported Python."""
    version = version_tuple(f.system.python_version)
    return version is not None and len(version) >= 2 and not release_for(f.torch.version).has_python(version)


def venv_fix(f: EnvironmentFacts) -> str:
    """The one first fix for a Python with no torch wheel: the app's environment on a supported Python."""
    release = release_for(f.torch.version)
    high = "%d.%d" % release.python[1]
    if f.system.os == "Windows":
        return tr("Install Python {high} from python.org (PyTorch {release} has wheels for Python {range}), then run "
                  "installer\\windows\\install.bat again with it: set PYTHON=C:\\path\\to\\python.exe",
                  high=high, release="%d.%d" % release.release, range=release.python_words())
    return tr("Create the app's environment with a Python PyTorch {release} has wheels for ({range}): "
              "python{high} -m venv .venv, then run installer/launch.sh again.", release="%d.%d" % release.release,
              range=release.python_words(), high=high)


def right_wheel_fix(f: EnvironmentFacts, force: bool = False) -> tuple[str, str]:
    """(fix, fix_kind): the install command for the wheel that fits this driver and GPU, or a driver update.
    ``force``: reinstall even when that build is installed (its files are damaged). On a Python with no torch
    wheel the fix is the venv on a supported Python, never a pip line that cannot succeed. On a Jetson it is
    NVIDIA's build for its JetPack; on a ROCm build, that same ROCm build again — never a CUDA wheel."""
    if python_without_wheels(f):
        return venv_fix(f), "command"
    if is_rocm(f):
        label = rocm_label(f)
        if force and label:
            return torch_install_command(f, Wheel(label, None, ()), force=True), "command"
        return tr("Keep this ROCm build of PyTorch; if it is damaged, reinstall the same ROCm build from "
                  "https://pytorch.org/get-started/locally/ (ROCm)."), "advice"
    if is_tegra(f):
        return jetson_torch_fix(f), "advice"
    caps = capabilities(f)
    platform = driver_os(f)
    wheel = choose_wheel(f.nvml.driver_version, cuda_tuple(f.nvml.cuda_driver_version), caps, platform)
    if wheel is None:  # two steps, said as such: the driver, then the wheel that fits it
        needed = minimum_driver_for(caps, platform) or driver_floor(max(DRIVER_FLOORS), platform) or "?"
        update = driver_update_command(f.system, needed)
        after = choose_wheel(needed, None, caps, platform)
        why = no_build_reason(f.nvml.driver_version, caps, platform) if caps and fitting_wheels(caps) else ""
        if after is None or after.cuda is None:
            return (tr("{why}\n{update}", why=why, update=update) if why else update), "command"
        steps = tr("{update}\nthen: {install}", update=update, install=torch_install_command(f, after, force=force))
        return (tr("{why}\n{steps}", why=why, steps=steps) if why else steps), "command"
    return torch_install_command(f, wheel, force=force), "command"


def wanted_driver(cuda: tuple[int, int], os_name: str | None) -> str | None:
    """The driver to name for a wheel of this CUDA: the one its toolkit shipped with (full support, no PTX
    caveat), else its family's floor — either way at or above the floor, so the wheel runs. ``os_name``: the
    driver's platform (``driver_os``)."""
    toolkit = TOOLKIT_DRIVERS.get(f"{cuda[0]}.{cuda[1]}")
    if toolkit:
        return toolkit[1] if os_name == "Windows" else toolkit[0]
    return driver_floor(cuda[0], os_name)


def driver_too_old_fix(f: EnvironmentFacts, wheel_cuda: tuple[int, int]) -> tuple[str, str, str | None]:
    """(fix, fix_kind, driver to name) for a driver too old for the installed wheel, reaching a working state in
    one step: the wheel that fits this driver and GPU if there is one; else a driver new enough for the
    *installed* wheel (never the floor of another CUDA family, which would still not run it) when that wheel
    has kernels for the GPU; else the driver update and the wheel to install after it."""
    caps = capabilities(f)
    platform = driver_os(f)
    wanted = wanted_driver(wheel_cuda, platform)
    if python_without_wheels(f):
        return venv_fix(f), "command", wanted
    wheel = choose_wheel(f.nvml.driver_version, cuda_tuple(f.nvml.cuda_driver_version), caps, platform)
    if wheel is not None and wheel.cuda is not None:
        return torch_install_command(f, wheel), "command", wanted
    archs = f.torch.arch_list or []
    if wanted and (not archs or all(arch_covers(archs, cc) for cc in caps)):
        return driver_update_command(f.system, wanted), "command", wanted
    fix, kind = right_wheel_fix(f)
    return fix, kind, wanted


def gpu_words(f: EnvironmentFacts) -> str:
    """The GPUs' names for evidence lines (NVML's, else torch's)."""
    names = [g.name or "?" for g in f.nvml.gpus] or [d.name or "?" for d in f.torch.devices]
    return ", ".join(names)
