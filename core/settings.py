"""App settings: one versioned JSON file in the OS config directory, with defaults and migrations.

Settings are declared once (``Settings``) with their defaults; ``settings_version`` lets a newer app
migrate an older file instead of silently dropping what the user chose: each step of ``_MIGRATIONS``
takes a version-N dict to N+1, and a file is walked up the chain when it is read. A value of the wrong
type or outside its choices falls back to the default (a hand-edited file never breaks the start).
Window geometry is the GUI's business (QSettings); everything else a user sets lives here, so the CLI
sees the same workspace.
Tests point ``YOLOSTUDIO_CONFIG_DIR`` at a temp folder so they never touch a developer's real config.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import platformdirs

from core.atomic import atomic_write_text
from core.file_values import FileValueError, path_text
from core.model_catalog import DEFAULT_MODEL

APP_NAME = "YOLO Studio"
SETTINGS_VERSION = 2
LANGUAGES = ("system", "en", "zh_CN")  # "system" follows the OS locale (LANG / LC_ALL, QLocale)
THEMES = ("system", "light", "dark")
CLOSE_WITH_RUN = ("ask", "stop", "keep")  # closing the window while a run trains: ask, stop it, or keep it


@dataclass
class Settings:
    settings_version: int = SETTINGS_VERSION
    #: Workspace folder (runs, demo dataset); empty means the platform's user-data folder.
    workspace: str = ""
    #: Last data.yaml used on the Train page; empty means the demo dataset.
    last_data: str = ""
    last_model: str = DEFAULT_MODEL
    #: Interface language: one of ``LANGUAGES``; read at start (a change applies after a restart).
    language: str = "system"
    #: Colours: one of ``THEMES``.
    theme: str = "system"
    #: The Train form's device for a new run ("" = the first GPU, else the CPU; "cpu"; "0"; "0,1").
    default_device: str = ""
    #: What closing the window does while a run trains: one of ``CLOSE_WITH_RUN``.
    close_with_run: str = "ask"
    #: The first-run guide was finished or dismissed; the Help menu still opens it.
    guide_done: bool = False


_CHOICES = {"language": LANGUAGES, "theme": THEMES, "close_with_run": CLOSE_WITH_RUN}


def config_dir() -> Path:
    override = os.environ.get("YOLOSTUDIO_CONFIG_DIR")
    return Path(override) if override else Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def settings_path() -> Path:
    return config_dir() / "settings.json"


def _v1_to_v2(raw: dict[str, Any]) -> dict[str, Any]:
    """Version 2 added language, theme, device, close behaviour and the first-run guide. A version-1 file
    means the app was used before: its user needs no first-run guide (the Help menu still has it)."""
    return {**raw, "guide_done": True}


_MIGRATIONS = {1: _v1_to_v2}  # version N -> N + 1


def _migrate(raw: dict[str, Any]) -> dict[str, Any]:
    """Bring an older settings dict up to ``SETTINGS_VERSION``, one step at a time."""
    raw = dict(raw)
    version = raw.get("settings_version")
    version = version if isinstance(version, int) and 1 <= version <= SETTINGS_VERSION else SETTINGS_VERSION
    while version < SETTINGS_VERSION:
        raw = _MIGRATIONS[version](raw)
        version += 1
    raw["settings_version"] = SETTINGS_VERSION
    return raw


#: Settings that hold a path: a NUL in one made every ``os`` call raise and stopped the app from starting.
_PATHS = ("workspace", "last_data", "last_model")


def read_settings(path: Path | None = None) -> tuple[Settings, list[str]]:
    """Settings, and a message (naming the file and key) for each value set aside as unusable — a path
    holding a NUL or another control character falls back to its default, so the app still starts."""
    path = path or settings_path()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Settings(), []
    if not isinstance(raw, dict):
        return Settings(), []
    raw = _migrate(raw)
    known = {f.name for f in fields(Settings)}
    defaults = Settings()
    values = {k: v for k, v in raw.items() if k in known and isinstance(v, type(getattr(defaults, k)))
              and v in _CHOICES.get(k, (v,))}
    problems: list[str] = []
    for key in _PATHS:
        if key in values:
            try:
                path_text(values[key], file=path, key=key)
            except FileValueError as exc:
                problems.append(str(exc))
                del values[key]
    return Settings(**values), problems


def load_settings(path: Path | None = None) -> Settings:
    """Read settings; a missing or unreadable file, or an unusable value, gives defaults (the broken file is
    left for the user; ``read_settings`` says what was set aside)."""
    return read_settings(path)[0]


def save_settings(settings: Settings, path: Path | None = None) -> None:
    atomic_write_text(path or settings_path(), json.dumps(asdict(settings), indent=2) + "\n")
