"""The host-key question: a server this app has never seen offers a key; the user compares its fingerprint with
the server's own and accepts it, or not. Nothing is accepted by default (Cancel is the default button)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QListWidget, QVBoxLayout, QWidget

from core.remote.contact import Contact


class HostKeyDialog(QDialog):
    def __init__(self, dest: str, found: Contact, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Unknown host key"))
        where = found.where
        text = QLabel(self.tr("{dest} ({host}, port {port}) is not known yet. Compare the fingerprint below with the "
                              "server's own (on the server: ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub) "
                              "and accept it only if they are the same.").format(
            dest=dest, host=where.hostname if where else dest, port=where.port if where else 22), self)
        text.setWordWrap(True)
        self.keys = QListWidget(self)
        for key in found.keys:
            self.keys.addItem(f"{key.key_type}   {key.fingerprint}")
        self.keys.setCurrentRow(0)
        self.fingerprints = [k.fingerprint for k in found.keys]
        buttons = QDialogButtonBox(self)
        self.accept_button = buttons.addButton(self.tr("Accept this key"), QDialogButtonBox.ButtonRole.AcceptRole)
        cancel = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        cancel.setDefault(True)
        self.accept_button.setAutoDefault(False)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(self.keys)
        layout.addWidget(buttons)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        self.setMinimumWidth(640)  # the whole fingerprint on one line, to compare it character by character

    def chosen(self) -> str:
        row = self.keys.currentRow()
        return self.fingerprints[row] if 0 <= row < len(self.fingerprints) else ""
