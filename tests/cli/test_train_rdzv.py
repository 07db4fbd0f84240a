"""``yolostudio train`` and the rendezvous: a meeting point from a ``--config`` file is refused until the user gives
it on the command line, and machine 0 prints the other machines' commands with its unguessable run id."""

from __future__ import annotations

import json
import re
import socket

import pytest

from cli.main import main
from tests.cli.test_trust_verbs import NoWorker
from tests.core.test_dataset_validate import build


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize(("field", "flag"), [("rdzv_endpoint", "--rdzv-endpoint"), ("master_addr", "--master-addr")])
def test_a_meeting_point_from_a_config_file_is_refused_naming_it(tmp_path, monkeypatch, capsys, field, flag):
    monkeypatch.setattr("cli.verbs.train.render_job", NoWorker)
    started = len(NoWorker.started)
    with socket.socket() as trap:  # where the file points: a connection made would wait in its backlog
        trap.bind(("127.0.0.1", 0))
        trap.listen(8)
        trap.setblocking(False)
        port = trap.getsockname()[1]
        value = f"127.0.0.1:{port}" if field == "rdzv_endpoint" else "127.0.0.1"
        saved = tmp_path / "wizard.json"  # the wizard's document shape: {"config": {...}}; machine 1 would connect
        saved.write_text(json.dumps({"config": {"data": str(build(tmp_path / "d")), "device": "cpu", "nnodes": 2,
                                                "node_rank": 1, "master_port": port, field: value}}))
        assert main(["--workspace", str(tmp_path / "ws"), "train", "--config", str(saved)]) == 2
        with pytest.raises(BlockingIOError):
            trap.accept()  # nothing connected
    err = capsys.readouterr().err
    assert str(saved) in err and value in err and f"{flag} {value}" in err, err  # the file, the value, the way out
    assert "Traceback" not in err and len(NoWorker.started) == started
    assert not (tmp_path / "ws" / "runs").exists()


def test_the_same_meeting_point_typed_on_the_command_line_is_the_users_own(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("cli.verbs.train.render_job", NoWorker)
    endpoint = f"127.0.0.1:{_free_port()}"  # machine 0 checks that the port is free on this machine
    saved = tmp_path / "c.json"
    saved.write_text(json.dumps({"data": str(build(tmp_path / "d")), "device": "cpu", "nnodes": 2, "batch": 4,
                                 "nproc_per_node": 1, "rdzv_endpoint": endpoint}))
    started = len(NoWorker.started)
    assert main(["--workspace", str(tmp_path / "ws"), "train", "--config", str(saved), "--rdzv-endpoint",
                 endpoint]) == 0
    assert len(NoWorker.started) == started + 1
    out = capsys.readouterr().out
    command = next(line for line in out.splitlines() if "On machine 1, run:" in line)
    run_id = re.search(r"--rdzv-id (\S+)", command).group(1)
    assert re.fullmatch(r"[0-9a-f]{32}", run_id) and "--node-rank 1" in command  # random, not the run name
    launched = NoWorker.started[-1]
    assert launched[launched.index("--rdzv_id") + 1] == run_id  # machine 0 meets under the id it printed


def test_a_joining_machine_without_machine_0s_run_id_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("cli.verbs.train.render_job", NoWorker)
    data = build(tmp_path / "d")
    assert main(["--workspace", str(tmp_path / "ws"), "train", str(data), "--device", "cpu", "--nnodes", "2",
                 "--node-rank", "1", "--rdzv-endpoint", "127.0.0.1:29400"]) == 2
    err = capsys.readouterr().err
    assert "run id of machine 0" in err and "--rdzv-id" in err, err
