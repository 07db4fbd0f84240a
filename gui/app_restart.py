"""Starting the app again: a new window with the same arguments, then this one closes.

Why one place: the Environment page restarts after a PyTorch repair and the Settings dialog after a
language change; both need the same command line (``--workspace`` kept) and the same polite close (the
window's own close checks — a run training, unsaved edits — still apply). The new process is told it is a
restart (``RESTART_ENV``), so it waits for this window to let go of the workspace (``gui.window_guard``)
instead of reporting it "already open".
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QProcess, QProcessEnvironment
from PySide6.QtWidgets import QApplication

#: Set in the new process's environment; its start waits up to ``RESTART_WAIT_S`` for the old window to close.
RESTART_ENV = "YOLOSTUDIO_RESTARTED"
RESTART_WAIT_S = 60.0


def restart_app() -> bool:
    """Start a new window of the app, then close this one; False when the new one could not start."""
    process = QProcess()
    environment = QProcessEnvironment.systemEnvironment()
    environment.insert(RESTART_ENV, "1")
    process.setProcessEnvironment(environment)
    process.setProgram(sys.executable)
    process.setArguments(["-m", "gui", *sys.argv[1:]])
    started = process.startDetached()
    if started[0] if isinstance(started, tuple) else started:
        QApplication.closeAllWindows()
        return True
    return False
