"""Starting the app again: a new window with the same arguments, then this one closes.

Why one place: the Environment page restarts after a PyTorch repair and the Settings dialog after a
language change; both need the same command line (``--workspace`` kept) and the same polite close (the
window's own close checks — a run training, unsaved edits — still apply).
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QProcess
from PySide6.QtWidgets import QApplication


def restart_app() -> bool:
    """Start a new window of the app, then close this one; False when the new one could not start."""
    if QProcess.startDetached(sys.executable, ["-m", "gui", *sys.argv[1:]]):
        QApplication.closeAllWindows()
        return True
    return False
