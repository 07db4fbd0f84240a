"""The exact commands a finding's fix names: pip installs of the right PyTorch wheel, a driver update.

Pure functions of the facts (OS, the Python that runs the app, the versions the app pins), so a fix can
be copied into a terminal as it is — on the machine the facts came from, not necessarily this one.
"""

from __future__ import annotations

import shlex
import subprocess

from core.environment.facts import EnvironmentFacts
from core.environment.tables import CPU_WHEEL, PINNED, PYTORCH_INDEX, Wheel
from core.i18n import tr


def render_command(argv: list[str], os_name: str | None) -> str:
    """An argv as the user would type it: cmd.exe quoting on Windows, POSIX shell quoting elsewhere."""
    return subprocess.list2cmdline(argv) if os_name == "Windows" else shlex.join(argv)


def torch_index_url(tag: str, base: str | None = None) -> str:
    """PyTorch's index for a wheel tag; ``base`` names a mirror holding the same ``<tag>/`` folders."""
    return f"{base.rstrip('/')}/{tag}" if base else PYTORCH_INDEX.format(tag=tag)


def torch_requirements(tag: str, torch: str, vision: str, os_name: str | None) -> list[str]:
    """``torch==X+cu128 torchvision==Y+cu128``: pinned with the build's local label, so pip replaces a
    build of the same version with another (``2.14.1+cpu`` does not satisfy ``==2.14.1+cu128``) without
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
    """torch / torchvision versions to install: the ones present (without their +cuXXX tag), else the pins."""
    torch = (facts.torch.version or "").split("+")[0] or PINNED["torch"]
    vision = (facts.torch.torchvision or "").split("+")[0] or PINNED["torchvision"]
    return torch, vision


def torch_install_command(facts: EnvironmentFacts, wheel: Wheel, force: bool = False) -> str:
    """``python -m pip install torch==X+cu128 torchvision==Y+cu128 --index-url .../cu128``."""
    torch, vision = _pins(facts)
    tag = wheel.tag if wheel is not CPU_WHEEL else "cpu"
    argv = torch_install_argv(facts.system.python_executable or _python(facts), tag, torch, vision, facts.system.os,
                              force=force)
    return render_command(argv, facts.system.os)


def yolov5_install_command(facts: EnvironmentFacts) -> str:
    return f"{_python(facts)} -m pip install yolov5=={PINNED['yolov5']}"


def driver_update_command(os_name: str | None, driver: str) -> str:
    if os_name == "Windows":
        return tr("Install NVIDIA driver {driver} or newer from https://www.nvidia.com/Download/index.aspx",
                  driver=driver)
    return tr("sudo ubuntu-drivers install   # or your distribution's NVIDIA driver package, version {driver} "
              "or newer", driver=driver)
