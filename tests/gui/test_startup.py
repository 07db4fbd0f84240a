"""Start-up pays only for the first screen (issue 15): the window paints before anything slow is imported.

A fresh interpreter runs the real entry point (``gui.app.main``) offscreen with an empty workspace and
lists ``sys.modules`` once the main window's first paint is over. pyqtgraph (and numpy with it) comes with
the first plot, the dataset scanner with the Dataset page, the demo images in a background job after the
paint, torch / cv2 / onnx never in the GUI process. The wall-clock figure is ``bench/startup.py``'s job, not a test's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_PROGRAM = """
import json, os, sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

class AfterFirstPaint(QObject):
    painted = False

    def eventFilter(self, obj, event):
        if not self.painted and event.type() == QEvent.Type.Paint and isinstance(obj, QMainWindow):
            self.painted = True
            QTimer.singleShot(0, report)  # once this paint pass is over
        return False

def report():
    sys.stdout.write(json.dumps(sorted(sys.modules)) + "\\n")
    sys.stdout.flush()
    os._exit(0)

app = QApplication(["startup-test"])
watcher = AfterFirstPaint()
app.installEventFilter(watcher)
from gui.app import main
main([])
"""

NOT_AT_START = ("pyqtgraph", "numpy", "torch", "cv2", "onnx", "yolov5", "core.dataset.scan", "core.dataset.validate",
                "core.demo.images", "core.environment.rules", "gui.about_dialog", "gui.settings.settings_dialog",
                "logging.handlers")  # the rotating log: after the paint. psutil comes before it: the one-window
# lock (gui/window_guard.py, core.kernel_lock) records its holder's start time, decided before any window exists


def test_the_window_paints_without_importing_anything_slow(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT),
               YOLOSTUDIO_WORKSPACE=str(tmp_path / "ws"), YOLOSTUDIO_CONFIG_DIR=str(tmp_path / "cfg"))
    proc = subprocess.run([sys.executable, "-c", _PROGRAM], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    loaded = set(json.loads(proc.stdout.strip().splitlines()[-1]))
    assert "gui.main_window" in loaded and "gui.pages.catalog" in loaded  # the check is real
    assert sorted(name for name in NOT_AT_START if name in loaded) == []


def test_the_plots_load_no_gpu_library_into_the_gui_process():
    program = ("import sys, json; import gui.plotting; "
               "print(json.dumps([m for m in sys.modules if m.split('.')[0] in ('cuda', 'torch')]))")
    proc = subprocess.run([sys.executable, "-c", program], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == []
