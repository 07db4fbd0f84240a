"""The installers install the app from its wheel (not an editable clone): the wheel must carry every
package the entry points and the worker import, and the resources the app reads at run time."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from core import APP_ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "src"  # a copy of the tracked files: the build never writes into the clone
    shutil.copytree(APP_ROOT, source, ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.egg-info",
                                                                    "build", ".pytest_cache", "workspace"))
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                           "-w", str(tmp / "dist"), str(source)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return zipfile.ZipFile(next((tmp / "dist").glob("*.whl")))


def test_wheel_carries_resources_and_every_package(wheel):
    names = set(wheel.namelist())
    for needed in ("resources/fonts/DejaVuSans.ttf", "resources/fonts/NotoSansCJKsc-subset.otf",
                   "resources/i18n/yolostudio_zh_CN.qm", "resources/i18n/core_zh_CN.ts",
                   "resources/icons/yolo-studio.svg", "resources/icons/yolo-studio.ico", "installer/__main__.py", "core/worker/repair_job.py",
                   "gui/app.py"):
        assert needed in names, needed


def test_entry_points_resolve_inside_the_wheel(wheel):
    names = set(wheel.namelist())
    info = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    parser = configparser.ConfigParser()
    parser.read_string(wheel.read(info).decode())
    scripts = dict(parser["console_scripts"]) | dict(parser["gui_scripts"])
    assert {"yolostudio", "yolostudio-gui"} <= set(scripts)
    for target in scripts.values():
        module = target.split(":")[0].replace(".", "/")
        assert f"{module}.py" in names or f"{module}/__init__.py" in names, target
