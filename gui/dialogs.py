"""The few questions the app asks in a modal box, each one a function so tests can answer it.

Callers use ``dialogs.confirm_kill(...)`` (module attribute, looked up at call time), so a test
monkeypatches the function instead of clicking a real modal box.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

CLOSE_STOP, CLOSE_KEEP, CLOSE_CANCEL = "stop", "keep", "cancel"


def _tr(text: str) -> str:
    return QCoreApplication.translate("Dialogs", text)


def ask_yes(parent: QWidget | None, title: str, text: str, *, warning: bool = False, cancel: bool = True,
            default_yes: bool = False) -> bool:
    """One yes/no question in a message box; True only for an explicit yes (Escape and closing say no).

    The one shape every confirmation in the app takes: ``warning`` for a risk (a question otherwise),
    ``cancel`` names the other button Cancel (else No), and the default button is the safe answer unless
    ``default_yes``."""
    other = QMessageBox.StandardButton.Cancel if cancel else QMessageBox.StandardButton.No
    ask = QMessageBox.warning if warning else QMessageBox.question
    answer = ask(parent, title, text, QMessageBox.StandardButton.Yes | other,
                 QMessageBox.StandardButton.Yes if default_yes else other)
    return answer == QMessageBox.StandardButton.Yes


def confirm_untrusted_weights(parent: QWidget | None, path: Path) -> bool:
    """A .pt file is a pickle: loading it can run code. Only an explicit yes trusts it."""
    return ask_yes(parent, _tr("Use this weights file?"),
                   _tr("{name} is a PyTorch checkpoint (.pt). Such a file is a Python pickle: loading it can run "
                       "any code it contains.\n\nOnly use it if you trust where it came from.\n\n{path}").format(
                       name=path.name, path=path), warning=True)


def confirm_untrusted_model(parent: QWidget | None, path: Path, reason: str) -> bool:
    """A model YAML is code to yolov5 (``parse_model`` evals its strings). Only an explicit yes trusts it."""
    return ask_yes(parent, _tr("Use this model definition?"),
                   _tr("{name} has text that yolov5 would run as Python code when it builds the model:\n\n{reason}"
                       "\n\nOnly use it if you trust where it came from.\n\n{path}").format(
                       name=path.name, reason=reason, path=path), warning=True)


def confirm_endpoint(parent: QWidget | None, endpoint: str, source: str) -> bool:
    """A meeting point read from a document: this machine would connect there and PyTorch's rendezvous unpickles
    what it serves (``core.training.distributed.unconfirmed_endpoints``). Only an explicit yes keeps it."""
    return ask_yes(parent, _tr("Connect to {endpoint}?").format(endpoint=endpoint),
                   _tr("{source} names {endpoint} as the meeting point of a run on several machines.\n\nStarting "
                       "the run connects this machine there, and PyTorch's rendezvous runs what that address "
                       "serves: a hostile one can run code here. Keep it only if you know that machine and it is "
                       "on a network you trust; otherwise the settings are used without it.").format(
                       source=source, endpoint=endpoint), warning=True)


def confirm_download(parent: QWidget | None, file_name: str, size: str, url: str) -> bool:
    """Downloading is the app's only network use: it happens after an explicit yes."""
    return ask_yes(parent, _tr("Download {name}?").format(name=file_name),
                   _tr("Download {name} ({size}) from the official YOLOv5 release?\n\n{url}\n\nThis is the only "
                       "time YOLO Studio uses the network, and only when you ask. Proxy settings come from the "
                       "environment (https_proxy). The file is checked before it is used.").format(
                       name=file_name, size=size, url=url), default_yes=True)


def confirm_kill(parent: QWidget | None) -> bool:
    return ask_yes(parent, _tr("Kill the training process?"),
                   _tr("Killing loses the work since the last checkpoint; a graceful stop saves it. "
                       "Kill the training process now?"), cancel=False)


def ask_close_while_training(parent: QWidget | None, run_name: str) -> str:
    """``CLOSE_STOP``, ``CLOSE_KEEP`` or ``CLOSE_CANCEL``."""
    box = QMessageBox(QMessageBox.Icon.Question, _tr("A run is training"),
                      _tr("Run {name} is still training. Stop it, or keep it training in the background? "
                          "YOLO Studio re-attaches to it the next time it starts.").format(name=run_name),
                      QMessageBox.StandardButton.NoButton, parent)
    stop = box.addButton(_tr("Stop the run"), QMessageBox.ButtonRole.DestructiveRole)
    keep = box.addButton(_tr("Keep training in the background"), QMessageBox.ButtonRole.AcceptRole)
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(keep)
    box.setEscapeButton(cancel)
    box.exec()
    clicked = box.clickedButton()
    return CLOSE_STOP if clicked is stop else CLOSE_KEEP if clicked is keep else CLOSE_CANCEL


def ask_kill_after_timeout(parent: QWidget | None, seconds: int) -> bool:
    """The worker did not stop in time: True to kill it, False to keep waiting."""
    return ask_yes(parent, _tr("The run has not stopped yet"),
                   _tr("The training process has not stopped after {seconds} s. Kill it now (work since the last "
                       "checkpoint is lost), or keep waiting?").format(seconds=seconds), cancel=False)
