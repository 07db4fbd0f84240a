"""The exact commands a finding's fix names: pip installs of the right PyTorch wheel, torchrun, docker.

Pure functions of the facts (OS, the Python that runs the app, the versions the app pins), so a fix can
be copied into a terminal as it is — on the machine the facts came from, not necessarily this one.
"""

from __future__ import annotations

import shlex

from core.environment.facts import EnvironmentFacts
from core.environment.tables import CPU_WHEEL, PINNED, PYTORCH_INDEX, Wheel
from core.i18n import tr


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


def torch_install_command(facts: EnvironmentFacts, wheel: Wheel) -> str:
    """``python -m pip install --force-reinstall torch==X torchvision==Y --index-url .../cu128``."""
    torch, vision = _pins(facts)
    index = PYTORCH_INDEX.format(tag=wheel.tag if wheel is not CPU_WHEEL else "cpu")
    return (f"{_python(facts)} -m pip install --force-reinstall torch=={torch} torchvision=={vision} "
            f"--index-url {index}")


def yolov5_install_command(facts: EnvironmentFacts) -> str:
    return f"{_python(facts)} -m pip install yolov5=={PINNED['yolov5']}"


def torchrun_command(gpus: int) -> str:
    """One node, every GPU, DDP (never DataParallel): the total batch is split across the GPUs."""
    devices = ",".join(str(i) for i in range(gpus))
    return (f"python -m torch.distributed.run --nproc_per_node {gpus} -m yolov5.train --data DATA.yaml "
            f"--batch-size {16 * gpus} --device {devices}")


def driver_update_command(os_name: str | None, driver: str) -> str:
    if os_name == "Windows":
        return tr("Install NVIDIA driver {driver} or newer from https://www.nvidia.com/Download/index.aspx",
                  driver=driver)
    return tr("sudo ubuntu-drivers install   # or your distribution's NVIDIA driver package, version {driver} "
              "or newer", driver=driver)
