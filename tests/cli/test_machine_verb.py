"""``yolostudio machine add|list|check`` against a real sshd on 127.0.0.1 (tests/fixtures/sshd.py)."""

from __future__ import annotations

import json
import stat

from cli.main import main
from core.remote.machines import load_machines, machines_path
from core.remote.ssh import ssh_argv
from core.remote.machines import Machine


def _add(workspace, sshd, remote_command, *extra):
    return main(["--workspace", str(workspace), "machine", "add", "gpu", "--ssh", sshd.alias, "--ssh-config",
                 str(sshd.ssh_config), "--remote-dir", str(workspace.parent / "remote-ws"), "--remote-command",
                 remote_command, *extra])


def test_an_unknown_host_key_is_refused_until_its_fingerprint_is_accepted(sshd, remote_command, tmp_path, capsys):
    sshd.known_hosts.write_text("")
    workspace = tmp_path / "ws"
    assert _add(workspace, sshd, remote_command) == 2   # stdin is no terminal: nobody accepted it
    err = capsys.readouterr().err
    fingerprint = sshd.host_fingerprint()
    assert fingerprint in err and f"--accept-host-key {fingerprint}" in err
    assert sshd.known_hosts.read_text() == "" and load_machines(workspace) == {}

    assert _add(workspace, sshd, remote_command, "--accept-host-key", "SHA256:" + "A" * 43) == 2  # a wrong one
    assert "nothing was accepted" in capsys.readouterr().err and sshd.known_hosts.read_text() == ""

    assert _add(workspace, sshd, remote_command, "--accept-host-key", fingerprint) == 0
    assert f"[127.0.0.1]:{sshd.port} ssh-ed25519 " in sshd.known_hosts.read_text()
    saved = load_machines(workspace)["gpu"]
    assert saved.ssh == sshd.alias and saved.ssh_config == str(sshd.ssh_config)
    text = machines_path(workspace).read_text()
    assert "password" not in text.lower() and "PRIVATE KEY" not in text  # no secret written
    assert not stat.S_IMODE(machines_path(workspace).stat().st_mode) & 0o002
    assert "Accepted " + fingerprint in capsys.readouterr().err

    assert main(["--workspace", str(workspace), "machine", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["machines"]
    assert [m["name"] for m in listed] == ["gpu"]


def test_the_ssh_command_is_an_argv_with_the_remote_words_quoted_and_strict_host_keys():
    machine = Machine("m", "host", "it's here", "", "yolostudio")
    argv = ssh_argv(machine, ["echo", "a b; rm -rf /"])
    assert argv[:1] == ["ssh"] and "BatchMode=yes" in argv and "StrictHostKeyChecking=yes" in argv
    assert argv[-2:] == ["host", "echo 'a b; rm -rf /'"]


def test_sshd_listens_on_loopback_only(sshd):
    # /proc/net/tcp writes 127.0.0.1 as 0100007F (little-endian)
    assert sshd.listening_addresses() == [f"0100007F:{sshd.port:04X}"]


def _accepted(sshd, tmp_path, remote_command, capsys):
    workspace = tmp_path / "ws"
    assert _add(workspace, sshd, remote_command, "--accept-host-key", sshd.host_fingerprint()) == 0
    capsys.readouterr()
    return workspace


def test_check_runs_the_doctor_there_and_shows_its_findings_as_here(sshd, remote_command, tmp_path, capsys):
    workspace = _accepted(sshd, tmp_path, remote_command, capsys)
    code = main(["--workspace", str(workspace), "machine", "check", "gpu", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code in (0, 1) and report["machine"] == "gpu"
    assert report["facts"]["probe"]["completed"] is True and report["checks"]
    main(["--workspace", str(workspace), "machine", "check", "gpu"])
    out = capsys.readouterr().out
    assert out.startswith(f"Machine gpu ({sshd.alias}):") and "OK " in out


def test_check_says_where_yolostudio_is_missing_and_how_to_install_it(sshd, tmp_path, capsys):
    workspace = _accepted(sshd, tmp_path, "no-such-yolostudio-here", capsys)
    assert main(["--workspace", str(workspace), "machine", "check", "gpu"]) == 1
    err = capsys.readouterr().err
    assert "YOLO Studio is not installed on gpu" in err
    assert "rsync -a" in err and "installer/linux/install.sh" in err
