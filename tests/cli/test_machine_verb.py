"""``yolostudio machine add|list|check`` against a real sshd on 127.0.0.1 (tests/fixtures/sshd.py)."""

from __future__ import annotations

import json
import stat

import pytest

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
    assert "yolostudio machine install gpu" in err and "rsync -a" in err and "app/installer/setup_env.sh" in err


def _tree_hashes(folder):
    import hashlib  # noqa: PLC0415

    return {p.relative_to(folder).as_posix(): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_sync_sends_only_changed_files_verified_and_never_touches_the_local_dataset(sshd, remote_command, tmp_path,
                                                                                    capsys):
    from core.demo.dataset import ensure_demo_dataset  # noqa: PLC0415

    workspace = _accepted(sshd, tmp_path, remote_command, capsys)
    data = ensure_demo_dataset(tmp_path / "local")
    root = data.parent
    before = _tree_hashes(root)
    assert main(["--workspace", str(workspace), "machine", "sync", "gpu", str(data), "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["sent"] == first["files"] == len(before) and first["deleted"] == 0
    remote = tmp_path / "remote-ws" / "datasets"
    (folder,) = remote.iterdir()
    assert first["folder"] == str(folder) and first["data_yaml"] == str(folder / ".yolostudio-data.yaml")
    assert {rel: h for rel, (h, _) in _tree_hashes(folder).items() if not rel.startswith(".yolostudio")} == {
        rel: h for rel, (h, _) in before.items()}

    # nothing changed: nothing sent
    assert main(["--workspace", str(workspace), "machine", "sync", "gpu", str(data), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["sent"] == 0
    # one label changed here, one remote file damaged, one file only there: two sent, one deleted
    label = next(root.glob("labels/train/*.txt"))
    label.write_text(label.read_text() + "0 0.5 0.5 0.1 0.1\n")
    damaged = folder / next(iter(sorted(before)))
    damaged.write_bytes(b"not the same")
    (folder / "images" / "stale.jpg").write_bytes(b"x")
    before = _tree_hashes(root)
    assert main(["--workspace", str(workspace), "machine", "sync", "gpu", str(data), "--json"]) == 0
    third = json.loads(capsys.readouterr().out)
    assert (third["sent"], third["deleted"]) == (2, 1)
    assert _tree_hashes(root) == before  # the local dataset: same bytes, same times
    assert (folder / label.relative_to(root)).read_text() == label.read_text()
    import yaml  # noqa: PLC0415

    assert yaml.safe_load((folder / ".yolostudio-data.yaml").read_text())["path"] == str(folder)


def test_a_cancelled_sync_stops_sending_and_says_so(sshd, remote_command, tmp_path, capsys):
    import threading  # noqa: PLC0415

    from core.demo.dataset import ensure_demo_dataset  # noqa: PLC0415
    from core.remote.sync import SyncCancelled, sync_dataset  # noqa: PLC0415

    workspace = _accepted(sshd, tmp_path, remote_command, capsys)
    data = ensure_demo_dataset(tmp_path / "local")
    cancel, seen = threading.Event(), []

    def progress(sent, total):
        seen.append((sent, total))
        cancel.set()  # the user presses Cancel at the first progress report

    with pytest.raises(SyncCancelled):
        sync_dataset(load_machines(workspace)["gpu"], data, progress=progress, cancel=cancel)
    assert seen and seen[0][0] < seen[0][1]


def test_options_the_remote_refuses_are_shown_here_and_nothing_trains(sshd, remote_command, tmp_path, capsys):
    from core.demo.dataset import DemoSpec, generate_demo_dataset  # noqa: PLC0415

    workspace = _accepted(sshd, tmp_path, remote_command, capsys)
    data = generate_demo_dataset(tmp_path / "local" / "tiny", DemoSpec(n_train=8, n_val=4, image_size=64, seed=1))
    code = main(["--workspace", str(workspace), "train", str(data), "--machine", "gpu", "--epochs", "0",
                 "--model", "yolov5n.yaml", "--device", "cpu"])
    err = capsys.readouterr().err
    assert code == 1 and "did not start" in err and "epochs" in err.lower()
    assert not list((tmp_path / "remote-ws" / "runs").glob("*/events.jsonl"))
