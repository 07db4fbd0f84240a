"""The Machines page's calls into core, one small ``CoreOp`` each (``gui.operations``): every one reads the
workspace or runs ``ssh``, so none runs on the GUI thread."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QCoreApplication, QObject

from core.environment.findings import Evaluation
from core.environment.rules import RuleContext, evaluate
from core.remote.contact import Contact, accept_and_retry, first_contact
from core.remote.doctor import RemoteDoctor, check_remote
from core.remote.facts import remember_facts
from core.remote.install import InstallPlan, install, point_at_installed
from core.remote.machines import Machine, load_machines, save_machine
from gui.operations import CoreOp


def _tr(text: str) -> str:
    return QCoreApplication.translate("MachinesOperations", text)


def list_machines(parent: QObject, workspace: Path) -> CoreOp[list[Machine]]:
    return CoreOp(parent, lambda: list(load_machines(workspace).values()), what=_tr("Reading the machines"))


def contact(parent: QObject, machine: Machine) -> CoreOp[Contact]:
    """``ssh DEST true``; an unknown host key comes back with the server's keys and fingerprints."""
    return CoreOp(parent, lambda: first_contact(machine), what=_tr("Connecting to {dest}").format(dest=machine.ssh))


def accept_key(parent: QObject, machine: Machine, found: Contact, fingerprint: str) -> CoreOp[Contact]:
    """Add the key the user accepted in the dialog to known_hosts, then connect again."""
    return CoreOp(parent, lambda: accept_and_retry(machine, found, fingerprint),
                  what=_tr("Accepting the host key of {dest}").format(dest=machine.ssh))


def save(parent: QObject, workspace: Path, machine: Machine) -> CoreOp[None]:
    return CoreOp(parent, lambda: save_machine(workspace, machine), what=_tr("Saving the machine"))


@dataclass
class Checked:
    doctor: RemoteDoctor
    evaluation: Evaluation | None


def _check(workspace: Path, machine: Machine) -> Checked:
    found = check_remote(machine)
    remember_facts(workspace, machine, found.raw)  # the Train page checks a run bound there on these GPUs
    return Checked(found, evaluate(found.facts, RuleContext(), found.notes) if found.facts is not None else None)


def check(parent: QObject, workspace: Path, machine: Machine) -> CoreOp[Checked]:
    """The doctor there (``yolostudio doctor --json`` over ssh), judged by this app's rules; its facts kept."""
    return CoreOp(parent, lambda: _check(workspace, machine), what=_tr("Checking {name}").format(name=machine.name))


class _CancelFlag:
    """The task's ``cancelled()`` as the ``threading.Event`` the sending checks before each write."""

    def __init__(self, cancelled: Callable[[], bool]) -> None:
        self.is_set = cancelled


def install_there(parent: QObject, workspace: Path, machine: Machine, on_line: Callable[[str], None], *,
                  offline: bool = False) -> CoreOp[Machine]:
    """YOLO Studio installed on ``machine`` (``core.remote.install``: this app sent, its installer run there); bytes
    sent as progress, each line the steps print to ``on_line`` (from the pool thread: a queued signal's emit).
    Returns the machine, its command pointed at the installed app."""
    def call(progress: Callable[[int, int], None], cancelled: Callable[[], bool]) -> Machine:
        command = install(InstallPlan(machine, offline=offline), progress=progress, on_line=on_line,
                          cancel=_CancelFlag(cancelled))  # type: ignore[arg-type]
        return point_at_installed(workspace, machine, command)

    return CoreOp(parent, call, what=_tr("Installing YOLO Studio on {name}").format(name=machine.name))
