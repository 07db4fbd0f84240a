"""App settings: one versioned JSON file in the OS config directory, with defaults and migrations.

Settings are declared once (``Settings``) with their defaults; ``settings_version`` lets a newer app
migrate an older file instead of silently dropping what the user chose. Window geometry is the GUI's
business (QSettings); everything else a user sets lives here, so the CLI sees the same workspace.
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

APP_NAME = "YOLO Studio"
SETTINGS_VERSION = 1


@dataclass
class Settings:
    settings_version: int = SETTINGS_VERSION
    #: Workspace folder (runs, demo dataset); empty means the platform's user-data folder.
    workspace: str = ""
    #: Last data.yaml used on the Train page; empty means the demo dataset.
    last_data: str = ""
    last_model: str = "yolov5n.yaml"


def config_dir() -> Path:
    override = os.environ.get("YOLOSTUDIO_CONFIG_DIR")
    return Path(override) if override else Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def settings_path() -> Path:
    return config_dir() / "settings.json"


def _migrate(raw: dict[str, Any]) -> dict[str, Any]:
    """Bring an older settings dict up to ``SETTINGS_VERSION`` (no older versions exist yet)."""
    raw = dict(raw)
    raw["settings_version"] = SETTINGS_VERSION
    return raw


def load_settings(path: Path | None = None) -> Settings:
    """Read settings; a missing or unreadable file gives defaults (the broken file is left for the user)."""
    path = path or settings_path()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Settings()
    if not isinstance(raw, dict):
        return Settings()
    raw = _migrate(raw)
    known = {f.name for f in fields(Settings)}
    values = {k: v for k, v in raw.items() if k in known and isinstance(v, type(getattr(Settings(), k)))}
    return Settings(**values)


def save_settings(settings: Settings, path: Path | None = None) -> None:
    atomic_write_text(path or settings_path(), json.dumps(asdict(settings), indent=2) + "\n")
