"""The Machines page: the machines runs can go to, reached with the user's own ssh (issue 35).

Lists the workspace's machines (``core.remote.machines``), adds one — ``ssh DEST true`` first; an unknown host key
is shown with its fingerprint in ``HostKeyDialog`` and added to known_hosts only when the user accepts it there —
and checks one: the doctor runs there (``yolostudio doctor --json`` over ssh) and its findings are listed with
the words of the Environment page. Every ssh call is a ``CoreOp`` (``gui/machines/operations.py``): the window
never waits on the network. No password is asked or stored: ssh runs in batch mode with the user's keys/agent.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QFormLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel,
                               QLineEdit, QPlainTextEdit, QProgressBar, QPushButton, QSplitter, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from core.environment.report import summarize
from core.export.render import size_text
from core.findings import by_severity
from core.remote.contact import Contact
from core.remote.doctor import install_commands
from core.remote.machines import DEFAULT_REMOTE_COMMAND, DEFAULT_REMOTE_DIR, Machine, MachineError
from gui.machines import operations
from gui.machines.host_key_dialog import HostKeyDialog
from gui.pages.page import Page
from gui.widgets.levels import level_word
from gui.widgets.page_header import PageHeader
from gui.widgets.scrolled import FORM_HEIGHT, scrolled


def _tr(text: str) -> str:
    return QCoreApplication.translate("MachinesPage", text)


def ask_host_key(parent: QWidget, dest: str, found: Contact) -> str:
    """The fingerprint the user accepted, or '' (module attribute: tests answer it instead of a modal dialog)."""
    dialog = HostKeyDialog(dest, found, parent)
    return dialog.chosen() if dialog.exec() == HostKeyDialog.DialogCode.Accepted else ""


class MachinesPage(Page):
    install_line = Signal(str)  # a line the installation printed (emitted from its pool thread: queued here)

    def __init__(self, workspace: Path, parent: QWidget | None = None) -> None:
        super().__init__(workspace, parent)
        self.machines: list[Machine] = []
        self.install_task = None
        self.header = PageHeader(_tr("Machines"), _tr("Servers reached by SSH with your own keys: add one, check it "
                                                      "with the doctor there, then train on it."), (), self)
        self.name, self.ssh = QLineEdit(self), QLineEdit(self)
        self.ssh.setPlaceholderText(_tr("host, user@host or an alias of ~/.ssh/config"))
        self.remote_dir, self.ssh_config = QLineEdit(DEFAULT_REMOTE_DIR, self), QLineEdit(self)
        self.ssh_config.setPlaceholderText(_tr("optional: another ssh config file (ssh -F)"))
        self.remote_command = QLineEdit(DEFAULT_REMOTE_COMMAND, self)
        self.add_button = QPushButton(_tr("Add machine"), self, clicked=self.add_machine)
        form_box = QGroupBox(_tr("Add a machine"), self)
        form = QFormLayout(form_box)
        form.addRow(_tr("Name"), self.name)
        form.addRow(_tr("SSH destination"), self.ssh)
        form.addRow(_tr("Workspace there"), self.remote_dir)
        form.addRow(_tr("SSH config file"), self.ssh_config)
        form.addRow(_tr("YOLO Studio there"), self.remote_command)
        form.addRow("", self.add_button)
        self.table = QTableWidget(0, 3, self)
        self.table.setHorizontalHeaderLabels([_tr("Name"), _tr("SSH destination"), _tr("Workspace there")])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setStretchLastSection(True)
        for column in (0, 1):  # names and destinations whole: they are what the user compares
            self.table.horizontalHeader().setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.check_button = QPushButton(_tr("Check the selected machine"), self, clicked=self.check_machine)
        # Offered when the doctor there finds no YOLO Studio: this app sent over ssh, its installer run there
        self.install_button = QPushButton(_tr("Install YOLO Studio there"), self, clicked=self.install_machine,
                                          visible=False)
        self.offline = QCheckBox(_tr("It has no internet: send a wheel set from this computer"), self, visible=False)
        self.cancel_install = QPushButton(_tr("Cancel"), self, visible=False)
        self.cancel_install.clicked.connect(lambda: self.install_task.cancel() if self.install_task else None)
        self.install_progress = QProgressBar(self, visible=False)
        self.install_line.connect(self._install_said)
        self.status = QLabel(_tr("No machines yet: add one above."), self)
        self.status.setWordWrap(True)
        self.report = QPlainTextEdit(self)
        self.report.setReadOnly(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.check_button)
        buttons.addWidget(self.install_button)
        buttons.addWidget(self.offline)
        buttons.addWidget(self.cancel_install)
        buttons.addWidget(self.install_progress, 1)
        buttons.addStretch(1)
        machines = QWidget(self)  # the list and the check's report side by side: the page fits 1280×720
        listed = QVBoxLayout(machines)
        listed.setContentsMargins(0, 0, 0, 0)
        listed.addWidget(self.table, 1)
        listed.addLayout(buttons)
        listed.addWidget(self.status)
        below = QSplitter(Qt.Orientation.Horizontal, self, childrenCollapsible=False)
        below.addWidget(machines)
        below.addWidget(self.report)
        layout = QVBoxLayout(self)
        layout.addWidget(self.header)
        layout.addWidget(scrolled(form_box, self, least=FORM_HEIGHT))  # scrolls at a small height, not cut off
        layout.addWidget(below, 1)
        self.refresh()

    # -- listing ---------------------------------------------------------------------------------------
    def refresh(self) -> None:
        operations.list_machines(self, self.workspace).success(self._show_machines).run()

    def _show_machines(self, machines: list[Machine]) -> None:
        self.machines = machines
        self.table.setRowCount(len(machines))
        for row, machine in enumerate(machines):
            for col, text in enumerate((machine.name, machine.ssh, machine.remote_dir)):
                self.table.setItem(row, col, QTableWidgetItem(text))
        if machines and self.table.currentRow() < 0:
            self.table.selectRow(0)
        self.check_button.setEnabled(bool(machines))
        if self.status.text() in ("", _tr("No machines yet: add one above.")) and machines:
            self.status.setText(_tr("Select a machine and check it: the doctor runs there."))

    # -- adding ----------------------------------------------------------------------------------------
    def _machine_from_form(self) -> Machine | None:
        config = self.ssh_config.text().strip()
        machine = Machine(self.name.text().strip(), self.ssh.text().strip(), self.remote_dir.text().strip(),
                          str(Path(config).expanduser()) if config else "", self.remote_command.text().strip())
        try:
            machine.check()
        except MachineError as exc:
            self.status.setText(str(exc))
            return None
        return machine

    def add_machine(self) -> None:
        machine = self._machine_from_form()
        if machine is None:
            return
        self.add_button.setEnabled(False)
        self.status.setText(_tr("Connecting to {dest} …").format(dest=machine.ssh))
        operations.contact(self, machine).success(lambda found: self._contacted(machine, found)).failure(
            self._failed).run()

    def _contacted(self, machine: Machine, found: Contact) -> None:
        if found.unknown_key:
            fingerprint = ask_host_key(self, machine.ssh, found)
            if not fingerprint:
                self.add_button.setEnabled(True)
                self.status.setText(_tr("The host key was not accepted; nothing was saved."))
                return
            operations.accept_key(self, machine, found, fingerprint).success(
                lambda again: self._contacted(machine, again)).failure(self._failed).run()
            return
        if not found.ok:
            self.add_button.setEnabled(True)
            self.status.setText(" ".join(p for p in (found.message, found.hint) if p))
            return
        operations.save(self, self.workspace, machine).success(lambda _: self._added(machine)).failure(
            self._failed).run()

    def _added(self, machine: Machine) -> None:
        self.add_button.setEnabled(True)
        self.status.setText(_tr("Added {name}. Check it to see what the doctor finds there.").format(name=machine.name))
        self.refresh()

    def _failed(self, exc: BaseException) -> None:
        self.add_button.setEnabled(True)
        self.check_button.setEnabled(bool(self.machines))
        self.status.setText(str(exc))

    # -- checking --------------------------------------------------------------------------------------
    def selected(self) -> Machine | None:
        row = self.table.currentRow()
        return self.machines[row] if 0 <= row < len(self.machines) else None

    def check_machine(self) -> None:
        machine = self.selected()
        if machine is None:
            return
        self.check_button.setEnabled(False)
        self.install_button.setVisible(False)
        self.offline.setVisible(False)
        self.status.setText(_tr("Running the doctor on {name} …").format(name=machine.name))
        self.report.clear()
        operations.check(self, self.workspace, machine).success(lambda found: self._checked(machine, found)).failure(
            self._failed).run()

    def _checked(self, machine: Machine, found: operations.Checked) -> None:
        self.check_button.setEnabled(True)
        doctor = found.doctor
        if doctor.facts is None or found.evaluation is None:
            message, hint = doctor.problem or ("", "")
            self.status.setText(" ".join(p for p in (message, hint) if p))
            if doctor.missing:
                self.report.setPlainText(_tr("Install it with the button above, or by hand:") + "\n"
                                         + "\n".join(shlex.join(c) for c in install_commands(machine)))
                self.install_button.setVisible(True)
                self.offline.setVisible(True)
            return
        level, sentence = summarize(doctor.facts, found.evaluation)
        self.status.setText(_tr("{name}: {summary}").format(name=machine.name, summary=sentence))
        lines = []
        for finding in by_severity(found.evaluation.findings):
            lines += [f"{level_word(finding.severity)}: {finding.message}", f"    {finding.fix}"]
        for item in found.evaluation.checks:
            if item.status == "ok":
                lines.append(f"{level_word('ok')}: {item.title}" + (f" — {item.measured}" if item.measured else ""))
        self.report.setPlainText("\n".join(lines))

    # -- installing ------------------------------------------------------------------------------------
    def install_machine(self) -> None:
        machine = self.selected()
        if machine is None or self.install_task is not None:
            return
        for widget in (self.install_button, self.check_button, self.offline):
            widget.setEnabled(False)
        self.cancel_install.setVisible(True)
        self.install_progress.setVisible(True)
        self.install_progress.setRange(0, 0)
        self.report.clear()
        self.status.setText(_tr("Installing YOLO Studio on {name} …").format(name=machine.name))
        self.install_task = operations.install_there(self, self.workspace, machine, self.install_line.emit,
                                                     offline=self.offline.isChecked()) \
            .progress(self._install_progress).success(self._installed).failure(self._install_failed).run()

    def _install_progress(self, sent: int, total: int) -> None:
        self.install_progress.setRange(0, 1000)
        self.install_progress.setValue(int(1000 * min(sent, total) / max(total, 1)))
        self.install_progress.setFormat(_tr("Sending {sent} of {total}").format(sent=size_text(min(sent, total)),
                                                                              total=size_text(total)))

    def _install_said(self, line: str) -> None:
        self.report.appendPlainText(line)
        if self.install_progress.maximum() and self.install_progress.value() >= self.install_progress.maximum():
            self.install_progress.setRange(0, 0)  # the installer runs there: busy, no figure

    def _install_done(self) -> None:
        self.install_task = None
        for widget in (self.install_button, self.check_button, self.offline):
            widget.setEnabled(True)
        self.cancel_install.setVisible(False)
        self.install_progress.setVisible(False)

    def _installed(self, machine: Machine) -> None:
        self._install_done()
        self.install_button.setVisible(False)
        self.offline.setVisible(False)
        self.status.setText(_tr("YOLO Studio is installed on {name} ({command}). Check it again to see what the doctor "
                                "finds there.").format(name=machine.name, command=machine.remote_command))
        self.refresh()

    def _install_failed(self, exc: BaseException) -> None:
        self._install_done()
        first, *rest = str(exc).splitlines() or [""]
        self.status.setText(first)
        if rest:
            self.report.appendPlainText("\n".join(rest))
