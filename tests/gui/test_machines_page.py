"""The Machines page against a real sshd on 127.0.0.1: a machine is added only after its host key is accepted in
the dialog; a check where YOLO Studio is missing says so with the commands that install it."""

from __future__ import annotations

import gui.machines.machines_page as machines_page
from core.remote.machines import load_machines
from gui.machines.host_key_dialog import HostKeyDialog
from gui.machines.machines_page import MachinesPage

TIMEOUT_MS = 60_000


def _fill(page, sshd, tmp_path, command):
    page.name.setText("gpu")
    page.ssh.setText(sshd.alias)
    page.ssh_config.setText(str(sshd.ssh_config))
    page.remote_dir.setText(str(tmp_path / "remote-ws"))
    page.remote_command.setText(command)


def test_a_machine_is_added_only_once_its_host_key_is_accepted(sshd, qtbot, tmp_path, monkeypatch):
    sshd.known_hosts.write_text("")
    workspace = tmp_path / "ws"
    page = MachinesPage(workspace)
    qtbot.addWidget(page)
    asked = []

    def refuse(parent, dest, found):
        asked.append([k.fingerprint for k in found.keys])
        return ""

    monkeypatch.setattr(machines_page, "ask_host_key", refuse)
    _fill(page, sshd, tmp_path, "no-such-yolostudio-here")
    page.add_machine()
    qtbot.waitUntil(lambda: page.add_button.isEnabled(), timeout=TIMEOUT_MS)
    assert asked == [[sshd.host_fingerprint()]]
    assert "not accepted" in page.status.text() and load_machines(workspace) == {}
    assert sshd.known_hosts.read_text() == ""

    monkeypatch.setattr(machines_page, "ask_host_key", lambda parent, dest, found: found.keys[0].fingerprint)
    page.add_machine()
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=TIMEOUT_MS)
    assert list(load_machines(workspace)) == ["gpu"] and sshd.host_fingerprint().split(":")[0] == "SHA256"
    assert page.table.item(0, 1).text() == sshd.alias

    page.check_machine()
    qtbot.waitUntil(lambda: page.check_button.isEnabled(), timeout=TIMEOUT_MS)
    assert "not installed on gpu" in page.status.text()
    assert "yolostudio machine install gpu" in page.report.toPlainText()


def test_the_host_key_dialog_shows_the_fingerprint_and_defaults_to_cancel(qtbot):
    from core.remote.contact import Contact  # noqa: PLC0415
    from core.remote.hostkeys import HostKey, Resolved  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    found = Contact(False, True, Resolved("127.0.0.1", 2222, Path("/tmp/kh")),
                    [HostKey("ssh-ed25519 AAAA", "ssh-ed25519", "SHA256:abc")])
    dialog = HostKeyDialog("box", found)
    qtbot.addWidget(dialog)
    assert "SHA256:abc" in dialog.keys.item(0).text() and dialog.chosen() == "SHA256:abc"
    assert not dialog.accept_button.isDefault()


def test_a_machine_without_yolostudio_is_offered_the_installer_which_runs_there(sshd, qtbot, tmp_path, monkeypatch):
    import functools  # noqa: PLC0415

    import gui.machines.operations as machine_operations  # noqa: PLC0415
    from core.remote.install import InstallPlan  # noqa: PLC0415
    from core.remote.machines import DEFAULT_REMOTE_COMMAND  # noqa: PLC0415
    from tests.cli.test_machine_install import _small_app  # noqa: PLC0415

    workspace, remote = tmp_path / "ws", tmp_path / "remote-ws"
    monkeypatch.setattr(machines_page, "ask_host_key", lambda parent, dest, found: found.keys[0].fingerprint)
    page = MachinesPage(workspace)
    qtbot.addWidget(page)
    _fill(page, sshd, tmp_path, DEFAULT_REMOTE_COMMAND)  # 'yolostudio' is not on that machine's PATH
    page.add_machine()
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=TIMEOUT_MS)
    page.check_machine()
    qtbot.waitUntil(lambda: page.check_button.isEnabled(), timeout=TIMEOUT_MS)
    assert not page.install_button.isHidden() and not page.offline.isHidden()

    # the app sent is a small stand-in whose setup_env.sh makes the command (a full install takes minutes)
    app = _small_app(tmp_path / "small", 'cd "$(dirname "$0")/.."\necho "setting up .venv"\nmkdir -p .venv/bin\n'
                                         'touch .venv/bin/yolostudio\n')
    monkeypatch.setattr(machine_operations, "InstallPlan", functools.partial(InstallPlan, app_root=app))
    page.install_button.click()
    qtbot.waitUntil(lambda: page.install_task is None, timeout=TIMEOUT_MS)
    assert "installed on gpu" in page.status.text(), page.status.text()
    assert "setting up .venv" in page.report.toPlainText()
    assert (remote / "app" / ".venv" / "bin" / "yolostudio").is_file()
    assert load_machines(workspace)["gpu"].remote_command == f"{remote}/app/.venv/bin/yolostudio"
