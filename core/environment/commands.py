"""The exact commands a finding's fix names: pip installs of the right PyTorch wheel, a driver update.

Pure functions of the facts (OS, the Python that runs the app, the versions the app pins), so a fix can
be copied into a terminal as it is — on the machine the facts came from, not necessarily this one.
"""

from __future__ import annotations

import shlex
import subprocess

from core.environment.facts import EnvironmentFacts, SystemFacts
from core.environment.tables import CPU_WHEEL, PINNED, PYTORCH_INDEX, Wheel
from core.environment.torch_builds import in_table
from core.i18n import tr


def render_command(argv: list[str], os_name: str | None) -> str:
    """An argv as the user would type it: cmd.exe quoting on Windows, POSIX shell quoting elsewhere."""
    return subprocess.list2cmdline(argv) if os_name == "Windows" else shlex.join(argv)


def torch_index_url(tag: str, base: str | None = None) -> str:
    """PyTorch's index for a wheel tag; ``base`` names a mirror holding the same ``<tag>/`` folders."""
    return f"{base.rstrip('/')}/{tag}" if base else PYTORCH_INDEX.format(tag=tag)


def torch_requirements(tag: str, torch: str, vision: str, os_name: str | None) -> list[str]:
    """``torch==X+cu126 torchvision==Y+cu126``: pinned with the build's local label, so pip replaces a
    build of the same version with another (``2.14.1+cpu`` does not satisfy ``==2.14.1+cu126``) without
    ``--force-reinstall``, which would also reinstall every dependency from PyTorch's index (a newer
    setuptools there breaks yolov5's ``pkg_resources``). macOS wheels carry no label."""
    label = "" if os_name == "Darwin" else f"+{tag}"
    return [f"torch=={torch}{label}", f"torchvision=={vision}{label}"]


def torch_install_argv(python: str, tag: str, torch: str, vision: str, os_name: str | None,
                       index_base: str | None = None, force: bool = False) -> list[str]:
    """``force``: reinstall even the same build (a damaged install, e.g. cuDNN's files missing)."""
    return [python, "-m", "pip", "install", *(["--force-reinstall"] if force else []),
            *torch_requirements(tag, torch, vision, os_name), "--index-url", torch_index_url(tag, index_base)]


def _python(facts: EnvironmentFacts) -> str:
    exe = facts.system.python_executable
    if not exe:
        return "python" if facts.system.os == "Windows" else "python3"
    if facts.system.os == "Windows":
        return f'"{exe}"' if " " in exe else exe
    return shlex.quote(exe)


def _pins(facts: EnvironmentFacts) -> tuple[str, str]:
    """torch / torchvision versions to install: the ones present (without their +cuXXX tag) when their release
    is in ``torch_builds``' table (so the build named exists for it), else the pins."""
    if not in_table(facts.torch.version):
        return PINNED["torch"], PINNED["torchvision"]
    torch = (facts.torch.version or "").split("+")[0] or PINNED["torch"]
    vision = (facts.torch.torchvision or "").split("+")[0] or PINNED["torchvision"]
    return torch, vision


def torch_install_command(facts: EnvironmentFacts, wheel: Wheel, force: bool = False) -> str:
    """``python -m pip install torch==X+cu126 torchvision==Y+cu126 --index-url .../cu126``."""
    torch, vision = _pins(facts)
    tag = wheel.tag if wheel is not CPU_WHEEL else "cpu"
    argv = torch_install_argv(facts.system.python_executable or _python(facts), tag, torch, vision, facts.system.os,
                              force=force)
    return render_command(argv, facts.system.os)


def yolov5_install_command(facts: EnvironmentFacts) -> str:
    return f"{_python(facts)} -m pip install yolov5=={PINNED['yolov5']}"


def driver_update_command(system: SystemFacts, driver: str) -> str:
    """How to get driver ``driver`` (in the numbering of ``tables.driver_platform``) on the machine that owns
    the driver. WSL2: the Windows driver, never a Linux driver inside WSL (NVIDIA's "CUDA on WSL User Guide":
    the Windows driver is the only one, and a Linux driver installed inside WSL breaks the mapped libcuda).
    A container: the host's driver (NVIDIA Container Toolkit: the runtime mounts the host's driver libraries;
    nothing installed in the image changes them)."""
    if system.wsl:
        return tr("On Windows (not inside WSL), install NVIDIA's Windows driver {driver} or newer from "
                  "https://www.nvidia.com/Download/index.aspx, then run 'wsl --shutdown' and reopen WSL. Never "
                  "install a Linux NVIDIA driver inside WSL: WSL uses the Windows driver.", driver=driver)
    if system.container:
        return tr("Update the NVIDIA driver on the host to {driver} or newer (this {container} container uses the "
                  "host's driver; nothing installed inside it changes that), then restart the container.",
                  driver=driver, container=system.container)
    if system.os == "Windows":
        return tr("Install NVIDIA driver {driver} or newer from https://www.nvidia.com/Download/index.aspx",
                  driver=driver)
    return tr("sudo ubuntu-drivers install   # or your distribution's NVIDIA driver package, version {driver} "
              "or newer", driver=driver)
