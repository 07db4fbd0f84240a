"""The architecture's two import rules, checked in fresh interpreters (the way napari enforces its own).

1. ``core`` never imports Qt, and nothing outside ``core/worker`` imports torch, yolov5 or cv2.
2. The GUI process never imports torch, yolov5 or cv2 (start-up time, crash isolation, cv2's Qt plugins).
3. The CLI (``cli/``, a front end like ``gui/``) imports neither Qt nor the training stack; ``core``
   imports neither front end.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("torch", "yolov5", "cv2", "ultralytics", "torchvision", "cleanlab", "sklearn", "ray", "optuna", "nncf")
QT = ("PySide6", "shiboken6", "pyqtgraph")


def modules_under(package: str) -> list[str]:
    names = []
    for path in sorted((ROOT / package).rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts[-1] != "__main__":  # entry points run their program when imported
            names.append(".".join(parts))
    return names


def imported_after(modules: list[str]) -> set[str]:
    code = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_core_imports_neither_qt_nor_training_stack():
    loaded = imported_after([m for m in modules_under("core") if not m.startswith("core.worker")])
    assert not loaded & set(QT), loaded & set(QT)
    assert not loaded & set(HEAVY), loaded & set(HEAVY)
    assert not loaded & {"gui", "cli"}, loaded & {"gui", "cli"}


def test_cli_imports_neither_qt_nor_training_stack():
    """Every verb module included: ``yolostudio gui`` loads the GUI only when that verb runs."""
    loaded = imported_after([*modules_under("cli"), "cli.main"])
    assert "cli" in loaded  # the check is real
    assert not loaded & set(QT), loaded & set(QT)
    assert not loaded & set(HEAVY), loaded & set(HEAVY)
    assert "gui" not in loaded


def test_core_names_no_front_end():
    """Not even a lazy import: core is the library both front ends use, never the other way round."""
    pattern = re.compile(r"^\s*(from|import)\s+(gui|cli)\b|import_module\([\"'](gui|cli)\b", re.M)
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "core").rglob("*.py")
                 if pattern.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_worker_modules_import_no_qt():
    loaded = imported_after(modules_under("core/worker"))
    assert not loaded & set(QT)


@pytest.mark.skipif(not (ROOT / "gui").is_dir(), reason="no gui package")
def test_gui_process_never_imports_training_stack():
    loaded = imported_after(modules_under("gui"))
    assert "PySide6" in loaded  # the check is real: the GUI was imported
    assert not loaded & set(HEAVY), loaded & set(HEAVY)


def test_gui_does_not_import_worker_code():
    pattern = re.compile(r"^\s*(from|import)\s+core\.worker|import_module\([\"']core\.worker", re.M)
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "gui").rglob("*.py")
                 if pattern.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
