"""Process start → first paint of the main window, against a minimal PySide6 window in the same run.

Each sample is a fresh ``python`` process (offscreen Qt platform, an empty workspace and config folder,
so the first-run guide and an empty runs list are what a newcomer gets). The child installs an event
filter on its ``QApplication`` before the app builds its window; at the first ``Paint`` event of a
top-level ``QMainWindow`` it lets that paint pass finish (one posted call) and leaves with ``os._exit``.
The parent times ``Popen`` → exit. Bytecode is written and warmed first, as an installed app has
its ``.pyc`` files (``PYTHONDONTWRITEBYTECODE`` would charge every run for compiling the app). The app and the bare window alternate, so machine noise hits both
alike; the medians and their ratio are printed (issue 15's target: ratio ≤ 1.5).

Not a test (a wall-clock figure on a shared machine): run it by hand,
``.venv/bin/python bench/startup.py [--runs 10]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_EXIT_AT_FIRST_PAINT = """
import os
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

class ExitAtFirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and isinstance(obj, QMainWindow) and obj.isWindow():
            QTimer.singleShot(0, lambda: os._exit(0))  # after this paint pass (children included)
        return False

app = QApplication.instance() or QApplication(["startup-bench"])
_filter = ExitAtFirstPaint()
app.installEventFilter(_filter)
"""

APP = _EXIT_AT_FIRST_PAINT + """
from gui.app import main
main([])
"""

BARE = _EXIT_AT_FIRST_PAINT + """
from PySide6.QtWidgets import QLabel
window = QMainWindow()
window.setCentralWidget(QLabel("YOLO Studio"))
window.resize(1360, 860)
window.show()
app.exec()
"""


def time_to_first_paint(code: str, home: Path) -> float:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT),
               YOLOSTUDIO_WORKSPACE=str(home / "workspace"), YOLOSTUDIO_CONFIG_DIR=str(home / "config"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed app has its .pyc files: so do the timed runs
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, timeout=120)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"the window did not paint (exit {proc.returncode}):\n{proc.stderr[-2000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="samples of each (default 10)")
    args = parser.parse_args()
    times: dict[str, list[float]] = {"app": [], "bare": []}
    with tempfile.TemporaryDirectory() as tmp:
        time_to_first_paint(BARE, Path(tmp) / "warm")  # warm the OS file cache
        time_to_first_paint(APP, Path(tmp) / "warm")
        for run in range(args.runs):
            for name, code in (("app", APP), ("bare", BARE)):
                # A fresh config and workspace every time: what a newcomer's first launch does.
                times[name].append(time_to_first_paint(code, Path(tmp) / f"{name}{run}"))
            print(f"run {run + 1:2d}: app {times['app'][-1]:.3f} s, bare window {times['bare'][-1]:.3f} s", flush=True)
    app, bare = statistics.median(times["app"]), statistics.median(times["bare"])
    print(f"\nprocess start -> first paint, offscreen, {args.runs} runs each, alternating; medians:")
    print(f"  YOLO Studio main window: {app:.3f} s")
    print(f"  minimal PySide6 window:  {bare:.3f} s")
    print(f"  ratio: {app / bare:.2f} (target <= 1.5)")


if __name__ == "__main__":
    main()
