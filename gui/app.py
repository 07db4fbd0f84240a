"""The GUI entry point: application set-up, the main window, and a clean (or detached) exit.

Owns process-wide Qt choices: names used by QSettings, the Fusion style with the theme and the
interface language of the settings (``gui/theme.py``, ``gui/i18n.py``), garbage collection in the GUI
thread only, the workspace from ``--workspace`` / ``YOLOSTUDIO_WORKSPACE`` / settings, the log file and
the handler of unexpected exceptions (``gui/app_log.py``), what happens at exit when a run was left
training, and — before Qt loads its platform plugin — the missing X11 libraries said in words with the one
command that installs them (``core.install.qt_libraries``), instead of Qt's "Could not load the Qt platform
plugin xcb"; one window per workspace (``gui/window_guard.py``: a second start brings the open one forward).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QGuiApplication, QIcon
from PySide6.QtWidgets import QApplication

from core import RESOURCES_DIR
from core.install.qt_libraries import start_check
from core.settings import load_settings
from core.workspace import resolve_workspace, settings_notes
from gui.app_log import install_excepthook, setup_logging
from gui.background import shutdown_background
from gui.gui_gc import MainThreadCollector
from gui.i18n import install_language
from gui.main_window import MainWindow
from gui import window_guard
from gui.app_restart import RESTART_ENV, RESTART_WAIT_S
from gui.theme import apply_theme
from gui.window_guard import WindowGuard, bring_forward
from gui.worker_process import detached_processes


def _parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="yolostudio-gui", description="YOLO Studio")
    parser.add_argument("--workspace", help="workspace folder (runs, demo dataset)")
    args, _qt_args = parser.parse_known_args(argv)
    return args


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = _parse_args(argv)
    if QApplication.instance() is None:  # before Qt loads its platform plugin: our words, not Qt's abort
        start = start_check()
        if start.message:
            print(start.message, file=sys.stderr)
        if start.blocking:
            return 1
    QCoreApplication.setApplicationName("YOLO Studio")
    QCoreApplication.setOrganizationName("YOLO Studio")
    app = QApplication.instance() or QApplication([sys.argv[0], *argv])
    app.setStyle("Fusion")  # Fusion takes the platform's palette, so light/dark follows the system
    settings = load_settings()
    apply_theme(app, settings.theme)
    install_language(app, settings.language)  # before any widget: widgets translate when built
    app.setWindowIcon(QIcon(str(RESOURCES_DIR / "icons" / "yolo-studio.svg")))
    QGuiApplication.setDesktopFileName("yolo-studio")  # Wayland docks match the installed menu entry's icon
    collector = MainThreadCollector()  # cyclic GC in the GUI thread only (gui/gui_gc.py)
    workspace = resolve_workspace(args.workspace)
    guard = WindowGuard(workspace)  # one window per workspace: a second start brings the first forward
    if not guard.claim(wait_s=RESTART_WAIT_S if os.environ.pop(RESTART_ENV, "") else 0.0):
        window_guard.tell_already_open(workspace, guard.holder_pid)
        return 0
    # A crash after a double-click launch leaves a trace; the log rotates from the first paint on.
    install_excepthook(setup_logging(workspace, rotating=False))
    window = MainWindow(workspace)
    guard.raise_requested.connect(lambda: bring_forward(window))
    window.when_painted(lambda: setup_logging(workspace))
    window.show()
    for note in settings_notes(args.workspace):  # an unusable setting was set aside: say which, once
        logging.getLogger(__name__).warning("%s", note)
        window.machine_bar.showMessage(note, 60000)
    code = app.exec()
    guard.release()
    collector.stop()
    shutdown_background()
    if detached_processes():
        # A run was left training in the background. Qt's QProcess kills (and waits for) a running child
        # when it is destroyed, which normal interpreter shutdown would do; on Linux a child otherwise
        # survives its parent's exit. So leave without destructors, once everything is saved: the window
        # synced its QSettings in closeEvent, and we flush our own streams here.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code
