"""The install plan: what ``install.sh`` / ``install.ps1`` will do on a machine, decided before anything changes.

A pure function of the facts (this machine's, or a colleague's saved with ``yolostudio doctor
--save-facts``), the options and the layout: the Python that will build the venv, the GPUs and driver,
the wheel index and why (``wheel_choice``), the paths, the disk it needs and has, the pip commands it will
run, and what blocks it or deserves a warning (Python too old, too little disk, Windows long paths or
execution policy). ``--dry-run`` prints it; ``--dry-run --json`` prints ``to_dict()``; the installer then
executes exactly its commands (``installer.steps``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import PurePath
from typing import Any

from core.environment.commands import render_command, torch_index_url, torch_install_argv, torch_requirements
from core.environment.facts import EnvironmentFacts
from core.environment.tables import PINNED, PYTHON_SUPPORTED, driver_platform, version_tuple
from core.i18n import tr
from installer.layout import Layout, inside
from core.install.wheel_choice import WheelChoice, choose_index

# Installed sizes, measured on Linux x86_64 (du -sm of site-packages): torch 2.14.1+cu130 with its
# nvidia-* and triton packages 5,288 MB (torch 1,182 + nvidia 3,209 + triton 897); torch 2.13.0+cpu 700 MB
# (its wheel unpacked); everything else the app installs 1,583 MB. Other cuXXX builds are of the same order.
APP_MB = 1600
TORCH_MB = {"cpu": 700, "cuda": 5300}
#: [design] pip downloads every wheel before installing and keeps them in its cache: the compressed size
#: (a torch wheel packs about 3:1, CUDA libraries less) is budgeted at 60% of the installed size.
DOWNLOAD_SHARE = 0.6
#: The deepest file the app installs, below site-packages (measured: a PySide6 qml file, 152 characters).
DEEPEST_FILE = 152
WINDOWS_MAX_PATH = 260
SITE_PACKAGES_WINDOWS = r"Lib\site-packages" + "\\"
#: PowerShell execution policies that refuse a downloaded .ps1 run directly (install.bat bypasses them).
BLOCKING_POLICIES = ("Restricted", "AllSigned", "Undefined")


@dataclass
class PythonFound:
    executable: str | None
    version: str | None


@dataclass
class InstallPlan:
    choice: WheelChoice
    layout: Layout
    python: PythonFound
    facts_source: str  # "NVML", "nvidia-smi", "facts file <path>"
    source_root: str  # the clone the app is installed from
    torch: list[str]  # the two requirements, with the build's label
    index_url: str
    commands: list[list[str]]  # pip commands, in order
    needed_gb: float
    free_gb: float | None  # None: not checked (a facts file describes another machine)
    errors: list[str] = field(default_factory=list)  # any one blocks the install
    warnings: list[str] = field(default_factory=list)
    desktop_shortcut: bool = False
    nvml_note: str | None = None  # why no GPU was read ("nvidia-smi not found", "DriverNotLoaded: ...")
    index_base: str | None = None  # --torch-index: a mirror holding the same <tag>/ folders
    driver_os: str | None = None  # whose driver numbering counts (Windows under WSL2)

    @property
    def index(self) -> str:
        return self.choice.tag

    def to_dict(self) -> dict[str, Any]:
        os_name = self.layout.os
        return {
            "index": self.index, "reason": self.choice.reason, "code": self.choice.code,
            "ok": not self.errors, "errors": self.errors, "warnings": self.warnings + self.choice.warnings,
            "python": {"executable": self.python.executable, "version": self.python.version},
            "driver": self.choice.driver, "driver_cuda": self.choice.driver_cuda,
            "gpus": self.choice.to_dict()["gpus"], "driver_needed": self.choice.driver_needed,
            "facts_source": self.facts_source, "source": self.source_root,
            "torch": self.torch, "index_url": self.index_url,
            "paths": self.layout.to_dict(), "desktop_shortcut": self.desktop_shortcut,
            "disk": {"needed_gb": self.needed_gb, "free_gb": self.free_gb},
            "commands": [render_command(c, os_name) for c in self.commands],
        }


def disk_needed_gb(tag: str) -> float:
    installed = APP_MB + TORCH_MB["cpu" if tag == "cpu" else "cuda"]
    return round(installed * (1 + DOWNLOAD_SHARE) / 1024, 1)


def _python_problems(python: PythonFound, os_name: str = "Linux") -> tuple[list[str], list[str]]:
    version = version_tuple(python.version)
    low, high = PYTHON_SUPPORTED
    if version is None:
        return [], [tr("The Python version could not be read.")]
    if version[:2] < low:
        return [tr("Python {version} is too old: YOLO Studio needs Python {low} or newer (up to {high}).",
                   version=python.version, low="%d.%d" % low, high="%d.%d" % high)], []
    if version[:2] > high and os_name == "Windows":
        return [tr("Python {version} is newer than the versions PyTorch {torch} publishes wheels for ({low} to "
                   "{high}): no PyTorch wheel exists for it. Install Python {high} from python.org, then run "
                   "install.bat again with it: set PYTHON=C:\\path\\to\\python.exe", version=python.version,
                   torch=PINNED["torch"], low="%d.%d" % low, high="%d.%d" % high)], []
    if version[:2] > high:  # torch_builds' table: no torch wheel exists for it, so pip would fail at step 4
        return [tr("Python {version} is newer than the versions PyTorch {torch} publishes wheels for ({low} to "
                   "{high}): no PyTorch wheel exists for it. Install Python {high} and run the installer with it "
                   "(PYTHON=python{high}).", version=python.version, torch=PINNED["torch"],
                   low="%d.%d" % low, high="%d.%d" % high)], []
    return [], []


def _venv_missing(python: PythonFound, os_name: str) -> str:
    version = ".".join((python.version or "3").split(".")[:2])
    if os_name == "Windows":
        return tr("This Python cannot create virtual environments (no venv/ensurepip module). Install Python from "
                  "python.org (Downloads > Windows) and run install.bat again.")
    return tr("This Python cannot create virtual environments with pip (the ensurepip module is missing). "
              "Debian/Ubuntu: sudo apt install python{version}-venv — Fedora/RHEL: sudo dnf install python3-pip — "
              "then run the installer again.", version=version)


def windows_problems(layout: Layout, long_paths: bool | None, policy: str | None,
                     python_executable: str | None) -> tuple[list[str], list[str]]:
    """(errors, warnings) for the Windows pitfalls: the 260-character path limit, the execution policy and
    the Microsoft Store's Python (its sandbox redirects writes under AppData)."""
    errors: list[str] = []
    warnings: list[str] = []
    deepest = len(str(layout.venv)) + 1 + len(SITE_PACKAGES_WINDOWS) + DEEPEST_FILE
    enable = ('New-ItemProperty -Path "HKLM:\\SYSTEM\\CurrentControlSet\\Control\\FileSystem" '
              '-Name LongPathsEnabled -Value 1 -PropertyType DWORD -Force')
    if long_paths is not True and deepest >= WINDOWS_MAX_PATH:
        errors.append(tr("Windows long paths are off and the deepest installed file would be {length} characters "
                         "long (the limit is {limit}): pip would fail half-way. Either enable long paths (in a "
                         "PowerShell run as administrator: {enable}) and run the installer again, or install to a "
                         "shorter folder: install.bat --prefix C:\\YOLOStudio", length=deepest,
                         limit=WINDOWS_MAX_PATH - 1, enable=enable))
    elif long_paths is not True and deepest >= WINDOWS_MAX_PATH - 30:
        warnings.append(tr("Windows long paths are off; the install fits with {spare} characters to spare. If pip "
                           "reports a missing file or WinError 206, enable long paths ({enable}) or use --prefix "
                           "C:\\YOLOStudio.", spare=WINDOWS_MAX_PATH - 1 - deepest, enable=enable))
    if policy in BLOCKING_POLICIES:
        warnings.append(tr("PowerShell's execution policy is {policy}: a .ps1 script double-clicked or run directly "
                           "is refused. install.bat runs the installer with '-ExecutionPolicy Bypass' for this one "
                           "process and changes nothing. To run scripts yourself: Set-ExecutionPolicy -Scope "
                           "CurrentUser RemoteSigned", policy=policy))
    if python_executable and "WindowsApps" in python_executable:
        warnings.append(tr("This Python comes from the Microsoft Store ({path}); its sandbox redirects files "
                           "written under AppData, so shortcuts may not find the app. Install Python from "
                           "python.org (Downloads > Windows) and run install.bat again.", path=python_executable))
    return errors, warnings


def make_plan(facts: EnvironmentFacts, facts_source: str, layout: Layout, source_root: str, *,
              override: str | None = None, free_gb: float | None = None, index_base: str | None = None,
              long_paths: bool | None = None, policy: str | None = None, desktop_shortcut: bool = False,
              clone_root: PurePath | None = None, venv_module: bool | None = None) -> InstallPlan:
    """The plan for the machine in ``facts`` (``free_gb``: free space where the venv goes; ``venv_module``:
    whether its Python can make a venv with pip; None: not known)."""
    choice = choose_index(facts, override)
    os_name = layout.os
    python = PythonFound(facts.system.python_executable, facts.system.python_version)
    errors, warnings = _python_problems(python, os_name)
    if venv_module is False:
        errors.append(_venv_missing(python, os_name))
    torch = torch_requirements(choice.tag, PINNED["torch"], PINNED["torchvision"], os_name)
    venv_python = str(layout.python)
    commands = [
        [python.executable or ("python" if os_name == "Windows" else "python3"), "-m", "venv", str(layout.venv)],
        [venv_python, "-m", "pip", "install", "--upgrade", "pip", "nvidia-ml-py"],
        torch_install_argv(venv_python, choice.tag, PINNED["torch"], PINNED["torchvision"], os_name, index_base),
        [venv_python, "-m", "pip", "install", "--upgrade", source_root],
    ]
    needed = disk_needed_gb(choice.tag)
    if free_gb is not None and free_gb < needed:
        errors.append(tr("Not enough disk space: the install needs about {needed:.1f} GB, {free:.1f} GB are free "
                         "under {path}. Free some space, or install elsewhere with --prefix DIR.",
                         needed=needed, free=free_gb, path=layout.prefix))
    if clone_root is not None and inside(layout.venv, clone_root):
        errors.append(tr("The app would be installed inside the source folder {clone}; choose a --prefix outside "
                         "it (the default is per user).", clone=clone_root))
    if os_name == "Windows":
        win_errors, win_warnings = windows_problems(layout, long_paths, policy, python.executable)
        errors += win_errors
        warnings += win_warnings
    nvml_note = (tr("none found ({error}: {message})", error=facts.nvml.error, message=facts.nvml.error_message or "")
                 if facts.nvml.error else None)
    index_url = torch_index_url(choice.tag, index_base)
    return InstallPlan(choice, layout, python, facts_source, source_root, torch, index_url, commands, needed,
                       free_gb, errors, warnings, desktop_shortcut, nvml_note, index_base,
                       driver_platform(facts.system.os, facts.system.wsl))


def with_build(plan: InstallPlan, tag: str, reason: str, code: str) -> InstallPlan:
    """The same plan installing build ``tag`` instead (the index does not serve the first choice)."""
    os_name = plan.layout.os
    choice = replace(plan.choice, tag=tag, reason=reason, code=code)
    commands = list(plan.commands)
    commands[2] = torch_install_argv(str(plan.layout.python), tag, PINNED["torch"], PINNED["torchvision"], os_name,
                                     plan.index_base)
    return replace(plan, choice=choice, commands=commands, index_url=torch_index_url(tag, plan.index_base),
                   torch=torch_requirements(tag, PINNED["torch"], PINNED["torchvision"], os_name),
                   needed_gb=disk_needed_gb(tag))


def render_plan(plan: InstallPlan, dry_run: bool) -> str:
    """The plan as a person reads it in a terminal."""
    c, lay = plan.choice, plan.layout
    gpus = "; ".join(g.words() + ("" if g.usable else tr(" — not usable with this wheel")) for g in c.gpus)
    lines = [tr("YOLO Studio install plan{note}", note=tr(" (dry run: nothing was changed)") if dry_run else ""),
             tr("  Python     {exe} ({version})", exe=plan.python.executable or "?",
                version=plan.python.version or "?"),
             tr("  GPUs       {gpus}   [read with {source}]", gpus=gpus or plan.nvml_note or tr("none found"),
                source=plan.facts_source),
             tr("  Driver     {driver} (CUDA {cuda})", driver=c.driver or "—", cuda=c.driver_cuda or "—"),
             tr("  PyTorch    {index}: {torch} from {url}", index=plan.index, torch=" ".join(plan.torch),
                url=plan.index_url),
             tr("  Why        {reason}", reason=c.reason),
             tr("  App        {prefix}", prefix=lay.prefix),
             tr("  Shortcuts  {menu}{desktop}", menu=lay.menu_entry,
                desktop=(tr(" and {path}", path=lay.desktop_entry) if plan.desktop_shortcut else "")),
             ]
    if lay.launcher is not None:
        lines.append(tr("  Command    {launcher}", launcher=lay.launcher))
    free = tr("{free:.1f} GB free", free=plan.free_gb) if plan.free_gb is not None else tr("free space not checked")
    lines.append(tr("  Disk       needs about {needed:.1f} GB; {free}", needed=plan.needed_gb, free=free))
    lines.append(tr("  Commands"))
    lines += [f"    {render_command(cmd, lay.os)}" for cmd in plan.commands]
    lines += [tr("  Warning: {text}", text=w) for w in plan.warnings + c.warnings]
    lines += [tr("  Cannot install: {text}", text=e) for e in plan.errors]
    return "\n".join(lines)
