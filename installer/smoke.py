"""The installed app's smoke test: it must pass before any shortcut to it is written.

Three checks, each in the installed venv: the CLI answers ``--help``; PyTorch imports and is the build the
plan chose (``2.14.1+cu130``: the label proves which index it came from); the GUI's modules import and a
``QApplication`` starts under Qt's offscreen platform (no display needed, e.g. over SSH), which catches the
missing system libraries that would otherwise make a double-click do nothing. A missing library is named
with the Debian/Ubuntu package that provides it.
"""

from __future__ import annotations

import re
from typing import Callable

from core.i18n import tr
from installer.failure import StepFailed
from installer.layout import Layout

#: Shared libraries Qt's wheels need from the system, and the Debian/Ubuntu package providing each.
SYSTEM_LIBRARIES = {
    "libGL.so.1": "libgl1", "libEGL.so.1": "libegl1", "libxkbcommon.so.0": "libxkbcommon0",
    "libfontconfig.so.1": "libfontconfig1", "libfreetype.so.6": "libfreetype6", "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0", "libxcb-cursor.so.0": "libxcb-cursor0", "libX11-xcb.so.1": "libx11-xcb1",
    "libOpenGL.so.0": "libopengl0",
}

GUI_CHECK = ("import sys; from PySide6.QtWidgets import QApplication; app = QApplication(sys.argv[:1]); "
             "import gui.main_window; print('gui ok')")
TORCH_CHECK = "import torch, torchvision; print(torch.__version__); print(torch.cuda.is_available())"

#: Runs one command of the step, raising ``StepFailed`` with its error lines on a non-zero exit.
Run = Callable[..., list[str]]


def missing_library_hint(output: str) -> str | None:
    match = re.search(r"(lib[\w.+-]+\.so(?:\.\d+)*): cannot open shared object file", output)
    if not match:
        return None
    library = match.group(1)
    package = SYSTEM_LIBRARIES.get(library)
    if package:
        return tr("The system library {library} is missing: sudo apt install {package} (Debian/Ubuntu), then run "
                  "the installer again.", library=library, package=package)
    return tr("The system library {library} is missing: install the package that provides it, then run the "
              "installer again.", library=library)


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
    try:
        run([str(layout.python), "-c", GUI_CHECK], env={"QT_QPA_PLATFORM": "offscreen"})
    except StepFailed as failed:
        hint = missing_library_hint(failed.reason)
        raise StepFailed(failed.step, failed.reason + ("\n" + hint if hint else "")) from None
    return notes
