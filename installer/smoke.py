"""The installed app's smoke test: it must pass before any shortcut to it is written.

The checks, each in the installed venv: the CLI answers ``--help``; PyTorch imports and is the build the
plan chose (``2.14.1+cu130``: the label proves which index it came from); the GUI's modules import and a
``QApplication`` starts under Qt's offscreen platform (no display needed, e.g. over SSH); on Linux, ``ldd`` on
the X11 plugin finds the system libraries the window needs (``core.install.qt_libraries``), which the offscreen
start cannot see and which would otherwise make a double-click do nothing. A missing library is named with the
one apt (Debian/Ubuntu) or dnf (Fedora/RHEL) command that installs it.
"""

from __future__ import annotations

import re
from typing import Callable

from core.i18n import tr
from core.install.qt_libraries import install_command, package_manager, read_os_release
from installer.failure import StepFailed
from installer.layout import Layout


#: The window's X11 libraries, asked of the installed app's own PySide6 (``core.install.qt_libraries``).
XCB_CHECK = ("-m", "core.install.qt_libraries", "--installer")
GUI_CHECK = ("import sys; from PySide6.QtWidgets import QApplication; app = QApplication(sys.argv[:1]); "
             "import gui.main_window; print('gui ok')")
TORCH_CHECK = "import torch, torchvision; print(torch.__version__); print(torch.cuda.is_available())"

#: Runs one command of the step, raising ``StepFailed`` with its error lines on a non-zero exit.
Run = Callable[..., list[str]]


def missing_library_hint(output: str, manager: str | None = None) -> str | None:
    """The library a failed import names, and the command that installs it (``core.install.qt_libraries``'s
    table, for this distribution's package manager)."""
    match = re.search(r"(lib[\w.+-]+\.so(?:\.\d+)*): cannot open shared object file", output)
    if not match:
        return None
    library = match.group(1)
    return tr("The system library {library} is missing: {command}, then run the installer again.", library=library,
              command=install_command([library], manager))


def torch_build_problem(version_line: str, index: str, os_name: str) -> str | None:
    """None when the installed torch carries the chosen build's label (macOS wheels carry none)."""
    if os_name == "Darwin" or version_line.endswith(f"+{index}"):
        return None
    return tr("PyTorch {found} is installed, but the plan chose the {index} build.", found=version_line or "?",
              index=index)


def smoke_test(layout: Layout, index: str, run: Run) -> list[str]:
    """Raises ``StepFailed`` (through ``run``) on a failing check; returns notes worth showing."""
    notes: list[str] = []
    run([str(layout.cli), "--help"])
    lines = run([str(layout.python), "-c", TORCH_CHECK])
    values = [ln.strip() for ln in lines if ln.strip()]
    version, available = (values[-2], values[-1]) if len(values) >= 2 else ("", "")
    problem = torch_build_problem(version, index, layout.os)
    if problem:
        raise StepFailed(tr("Checking the installed app"), problem)
    if index != "cpu" and available != "True":
        notes.append(tr("PyTorch {version} cannot use the GPU yet (a reboot after a driver update is often needed); "
                        "open the Environment page or run 'yolostudio doctor' to see why.", version=version))
    manager = package_manager(read_os_release()) if layout.os == "Linux" else None
    try:
        run([str(layout.python), "-c", GUI_CHECK], env={"QT_QPA_PLATFORM": "offscreen"})
    except StepFailed as failed:
        hint = missing_library_hint(failed.reason, manager)
        raise StepFailed(failed.step, failed.reason + ("\n" + hint if hint else "")) from None
    if layout.os == "Linux":  # the offscreen check cannot see what the window's X11 plugin lacks: ldd can
        run([str(layout.python), *XCB_CHECK])
    return notes
