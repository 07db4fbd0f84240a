"""Settings and atomic writes: defaults, round trip, a backup before the first overwrite, no torn files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.atomic import atomic_write_text
from core.settings import SETTINGS_VERSION, Settings, load_settings, save_settings
from core.workspace import resolve_workspace


def test_missing_or_broken_settings_give_defaults(tmp_path):
    assert load_settings(tmp_path / "none.json") == Settings()
    broken = tmp_path / "s.json"
    broken.write_text("{not json")
    assert load_settings(broken) == Settings()
    assert broken.read_text() == "{not json"  # the user's file is left alone


def test_round_trip_and_unknown_keys(tmp_path):
    path = tmp_path / "s.json"
    save_settings(Settings(workspace="/w", last_model="yolov5s.yaml"), path)
    raw = json.loads(path.read_text())
    assert raw["settings_version"] == SETTINGS_VERSION
    raw["from_the_future"] = 1
    raw["workspace"] = 42  # wrong type: ignored, default kept
    path.write_text(json.dumps(raw))
    loaded = load_settings(path)
    assert loaded.last_model == "yolov5s.yaml" and loaded.workspace == ""


def test_atomic_write_keeps_one_backup_of_the_original(tmp_path):
    path = tmp_path / "data.yaml"
    path.write_text("original")
    atomic_write_text(path, "first edit")
    atomic_write_text(path, "second edit")
    assert path.read_text() == "second edit"
    assert (tmp_path / "data.yaml.bak").read_text() == "original"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data.yaml", "data.yaml.bak"]  # no temp files left


def test_failed_write_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "f.txt"
    path.write_text("safe")

    def boom(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", boom)
    with pytest.raises(OSError):
        atomic_write_text(path, "new", backup=False)
    assert path.read_text() == "safe" and not list(tmp_path.glob("*.tmp"))


def test_workspace_resolution_order(tmp_path, monkeypatch):
    monkeypatch.setenv("YOLOSTUDIO_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.delenv("YOLOSTUDIO_WORKSPACE", raising=False)
    save_settings(Settings(workspace=str(tmp_path / "from-settings")), tmp_path / "cfg" / "settings.json")
    assert resolve_workspace() == tmp_path / "from-settings"
    monkeypatch.setenv("YOLOSTUDIO_WORKSPACE", str(tmp_path / "from-env"))
    assert resolve_workspace() == tmp_path / "from-env"
    assert resolve_workspace(tmp_path / "explicit") == tmp_path / "explicit"


def test_atomic_write_keeps_the_file_mode(tmp_path):
    import os
    import stat

    path = tmp_path / "shared.yaml"
    path.write_text("x")
    os.chmod(path, 0o664)
    atomic_write_text(path, "y")
    assert stat.S_IMODE(path.stat().st_mode) == 0o664
    fresh = tmp_path / "new.json"
    atomic_write_text(fresh, "{}")
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~_current_umask()


def _current_umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_version_1_file_is_migrated_keeping_what_the_user_chose(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"settings_version": 1, "workspace": "/w", "last_model": "yolov5s.yaml"}))
    loaded = load_settings(path)
    assert (loaded.workspace, loaded.last_model, loaded.settings_version) == ("/w", "yolov5s.yaml", SETTINGS_VERSION)
    assert loaded.guide_done  # the app was used before: no first-run guide
    assert (loaded.language, loaded.theme, loaded.close_with_run) == ("system", "system", "ask")
    assert not load_settings(tmp_path / "none.json").guide_done  # a first start gets the guide


def test_a_choice_outside_its_list_falls_back_to_the_default(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"settings_version": SETTINGS_VERSION, "language": "klingon", "theme": "dark",
                                "close_with_run": "explode"}))
    loaded = load_settings(path)
    assert (loaded.language, loaded.theme, loaded.close_with_run) == ("system", "dark", "ask")
