"""The window shell's calls into core, one small ``CoreOp`` each (``gui.operations``).

The shell is everything outside the feature packages: the main window, the status bar, the runs store,
the first-run guide's router and the About box. Whatever of theirs reads or writes a file (the settings,
the runs folder, the last environment facts) or starts a slow library (NVML) goes through a function
here, so none of it runs on the GUI thread and each failure has the default path (logged, said in the
status bar) unless the caller gives its own.

Start-up's reads before the event loop runs (``gui.app``: the settings decide the language every widget
is built in) are not operations: there is no window yet to stay responsive.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QCoreApplication, QObject

from gui.operations import CoreOp

if TYPE_CHECKING:
    from core.runs.index import RunIndex
    from core.runs.store import RunInfo
    from core.settings import Settings


def _tr(text: str) -> str:
    return QCoreApplication.translate("ShellOperations", text)


def read_settings(parent: QObject) -> CoreOp[Settings]:
    """The settings file, read again (another window or the Settings dialog may have changed it)."""
    from core.settings import load_settings  # noqa: PLC0415 - in the pool thread, not at start-up

    return CoreOp(parent, load_settings, what=_tr("Reading the settings"))


def update_settings(parent: QObject, change: Callable[[Settings], bool]) -> CoreOp[bool]:
    """Read the settings, let ``change`` edit them (True: something changed), and save them atomically."""
    from core.settings import load_settings, save_settings  # noqa: PLC0415

    def call() -> bool:
        settings = load_settings()
        if not change(settings):
            return False
        save_settings(settings)
        return True

    return CoreOp(parent, call, what=_tr("Saving the settings"))


def list_runs(parent: QObject, workspace: Path,
              index: RunIndex | None) -> CoreOp[tuple[RunIndex, list[RunInfo]]]:
    """The workspace's runs, newest first, through the caller's ``RunIndex`` (it folds only what was appended
    since; None: a new one, made in the pool thread — core.runs and its readers load there, not before the
    window's first paint). The caller keeps the index for the next listing and never lists twice at once."""
    def call() -> tuple[RunIndex, list[RunInfo]]:
        from core.runs.index import RunIndex  # noqa: PLC0415

        held = index or RunIndex()
        return held, held.list_runs(workspace)

    return CoreOp(parent, call, what=_tr("Listing the runs"))


def open_gpu_readings(parent: QObject, init: Callable[[], bool]) -> CoreOp[bool]:
    """NVML's start (seconds on a GPU without persistence mode); True when a GPU can be read."""
    return CoreOp(parent, init, what=_tr("Reading this machine's GPUs"))


def read_probed_versions(parent: QObject, workspace: Path) -> CoreOp[dict[str, str] | None]:
    """torch, CUDA, yolov5 and driver versions from the last environment check's facts file; None before one."""
    return CoreOp(parent, lambda: probed_versions(workspace), what=_tr("Reading the last environment check"))


def probed_versions(workspace: Path) -> dict[str, Any] | None:
    """{"torch": ..., "cuda": ..., "yolov5": ..., "driver": ...} from the last check; None before one (or when
    its file cannot be read: the About box then says it was not checked)."""
    from core.environment.facts import load_facts  # noqa: PLC0415
    from core.workspace import last_facts_path  # noqa: PLC0415

    path = last_facts_path(workspace)
    if not path.is_file():
        return None
    try:
        facts, _problems = load_facts(path)
    except (OSError, ValueError):
        return None
    return {"torch": facts.torch.version or "", "cuda": facts.torch.cuda or "",
            "yolov5": str(facts.packages.get("yolov5") or ""), "driver": facts.nvml.driver_version or ""}
