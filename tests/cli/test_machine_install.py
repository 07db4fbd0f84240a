"""``yolostudio machine install NAME`` against a real sshd on 127.0.0.1 (tests/fixtures/sshd.py): this app's folder
arrives in the machine's workspace folder there (no .venv, no .git), a wheel set with ``--offline``, and the installer
runs there with its output handed on; a failing installer is a clear message with its last lines. A full install
(torch and all) is too slow for the suite: the installer run here is a stand-in ``setup_env.sh`` of a small app."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.main import main
from core.remote.install import InstallError, InstallPlan, install, installer_words
from core.remote.machines import load_machines


def _add(workspace: Path, sshd, name: str, remote_dir: Path, *extra: str) -> None:
    assert main(["--workspace", str(workspace), "machine", "add", name, "--ssh", sshd.alias, "--ssh-config",
                 str(sshd.ssh_config), "--remote-dir", str(remote_dir), "--accept-host-key", sshd.host_fingerprint(),
                 *extra]) == 0


def _small_app(root: Path, installer: str) -> Path:
    (root / "installer").mkdir(parents=True)
    (root / "installer" / "setup_env.sh").write_text(installer)
    (root / "pyproject.toml").write_text("[project]\nname = 'small'\n")
    for left in (".venv/bin", ".git", "core/__pycache__"):
        (root / left).mkdir(parents=True)
        (root / left / "x").write_text("never sent")
    (root / "core" / "a.py").write_text("A = 1\n")
    return root


def test_install_sends_the_app_and_points_the_machine_at_it(sshd, tmp_path, capsys):
    workspace, remote = tmp_path / "ws", tmp_path / "remote-ws"
    _add(workspace, sshd, "bare", remote)
    capsys.readouterr()
    assert main(["--workspace", str(workspace), "machine", "install", "bare", "--no-run"]) == 0
    out, err = capsys.readouterr()
    app = remote / "app"
    assert (app / "installer" / "setup_env.sh").is_file() and (app / "core" / "remote" / "install.py").is_file()
    assert not (app / ".venv").exists() and not (app / ".git").exists()
    assert f"bash {app}/installer/setup_env.sh" in out
    assert load_machines(workspace)["bare"].remote_command == f"{app}/.venv/bin/yolostudio"


def test_the_installer_runs_there_with_its_output_and_offline_from_the_wheels_sent(sshd, tmp_path, capsys):
    workspace, remote = tmp_path / "ws", tmp_path / "remote-ws"
    _add(workspace, sshd, "gpu", remote)
    machine = load_machines(workspace)["gpu"]
    app = _small_app(tmp_path / "small", "\n".join([
        "set -e", 'cd "$(dirname "$0")/.."', 'echo "installing with PIP_NO_INDEX=${PIP_NO_INDEX:-} from '
        '${PIP_FIND_LINKS:-the index}"', 'ls "$PIP_FIND_LINKS"', "mkdir -p .venv/bin",
        "printf '#!/bin/sh\\necho yolostudio\\n' > .venv/bin/yolostudio", "chmod +x .venv/bin/yolostudio", ""]))
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    (wheels / "small-1.0-py3-none-any.whl").write_bytes(b"PK wheel")
    lines, sent = [], []
    command = install(InstallPlan(machine, app_root=app, offline=True, wheels=wheels), on_line=lines.append,
                      progress=lambda done, total: sent.append((done, total)))
    assert command == f"{remote}/app/.venv/bin/yolostudio" and (remote / "app" / ".venv" / "bin" / "yolostudio").is_file()
    assert (remote / "wheels" / "small-1.0-py3-none-any.whl").read_bytes() == b"PK wheel"
    assert f"installing with PIP_NO_INDEX=1 from {remote}/wheels" in lines and "small-1.0-py3-none-any.whl" in lines
    assert not (remote / "app" / ".git").exists() and (remote / "app" / "core" / "a.py").is_file()
    assert sent and sent[-1][0] >= sent[-1][1]  # progress in bytes (a tar stream: headers on top of the files)
    assert installer_words(machine, True)[:3] == ["env", "PIP_NO_INDEX=1", f"PIP_FIND_LINKS={remote}/wheels"]


def test_a_failing_installer_is_a_clear_message_with_its_last_lines(sshd, tmp_path):
    workspace, remote = tmp_path / "ws", tmp_path / "remote-ws"
    _add(workspace, sshd, "gpu", remote)
    app = _small_app(tmp_path / "small", "echo 'Could not create a venv: install python3-venv' >&2\nexit 3\n")
    with pytest.raises(InstallError) as failed:
        install(InstallPlan(load_machines(workspace)["gpu"], app_root=app))
    text = str(failed.value)
    assert "The installer on gpu failed (exit code 3)" in text and "install python3-venv" in text
    assert f"bash {remote}/app/installer/setup_env.sh" in text


def test_wheels_need_offline_and_a_folder(sshd, tmp_path, capsys):
    workspace = tmp_path / "ws"
    _add(workspace, sshd, "gpu", tmp_path / "remote-ws")
    capsys.readouterr()
    assert main(["--workspace", str(workspace), "machine", "install", "gpu", "--wheels", str(tmp_path)]) == 2
    assert "give a folder of wheels, with --offline" in capsys.readouterr().err
    assert not (tmp_path / "remote-ws").exists()  # nothing sent
