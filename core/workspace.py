"""The workspace folder: where runs and the demo dataset live on the user's machine.

Resolution order: an explicit ``--workspace``/argument, then ``YOLOSTUDIO_WORKSPACE``, then the
setting, then the platform's user-data folder (platformdirs), so the GUI and the CLI over SSH find the
same runs.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from core.settings import APP_NAME, load_settings, read_settings


def default_workspace() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def resolve_workspace(explicit: str | Path | None = None) -> Path:
    if explicit:
        return Path(explicit).expanduser().resolve()
    env = os.environ.get("YOLOSTUDIO_WORKSPACE")
    if env:
        return Path(env).expanduser().resolve()
    configured = load_settings().workspace
    if configured:
        return Path(configured).expanduser().resolve()
    return default_workspace()


#: Where the workspace a window runs with came from (``workspace_origin``), for the Settings dialog to say.
COMMAND_LINE, ENVIRONMENT, SETTING, DEFAULT = "command-line", "environment", "setting", "default"


def workspace_origin(running: str | Path) -> str:
    """Where ``running`` (the workspace a window uses) came from. ``resolve_workspace`` without an argument
    is what the environment, the setting and the default give; a window on another folder was started with
    ``--workspace`` (the GUI's argument, or a CLI caller's)."""
    if Path(running).expanduser().resolve() != resolve_workspace(None):
        return COMMAND_LINE
    if os.environ.get("YOLOSTUDIO_WORKSPACE"):
        return ENVIRONMENT
    return SETTING if load_settings().workspace else DEFAULT


def settings_notes(explicit: str | Path | None = None) -> list[str]:
    """What the settings file held that could not be used (a workspace path with a NUL in it), when the
    settings are what ``resolve_workspace`` consults — for the CLI and the window to say once at start."""
    if explicit or os.environ.get("YOLOSTUDIO_WORKSPACE"):
        return []
    return read_settings()[1]


def runs_dir(workspace: Path) -> Path:
    return workspace / "runs"


def weights_dir(workspace: Path) -> Path:
    """The pretrained-weights store (``core.weights.store``): checkpoints fetched or imported on request."""
    return workspace / "weights"


def window_lock_path(workspace: Path) -> Path:
    """Held (a kernel lock, ``core.kernel_lock``) by the one window open on this workspace while it is open."""
    return workspace / ".cache" / "window.lock"


def last_facts_path(workspace: Path) -> Path:
    """The facts of the last environment check (the About box's versions: the GUI never imports torch)."""
    return workspace / ".cache" / "environment" / "last-facts.json"


def app_cache_dir(workspace: Path) -> Path:
    """Private folder for the training stack's own config (fonts, Ultralytics/matplotlib settings)."""
    return workspace / ".cache"
