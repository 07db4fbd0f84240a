"""The Runs page's "Runs on machines" against a real sshd on 127.0.0.1: the runs there are listed on request, each
with its machine; one opens on the Train page (followed over ssh) and one comes back verified by Fetch."""

from __future__ import annotations

import json
from pathlib import Path

from cli.main import main
from gui.runs.machine_runs import MachineRunsBox, RemoteRun
from tests.waits import TIMEOUT_MS

SSH_TIMEOUT_MS = max(TIMEOUT_MS, 90_000)
RECORDED = Path(__file__).parents[1] / "fixtures" / "recorded_train_events.jsonl"


def test_the_runs_there_are_listed_with_their_machine_opened_and_fetched(sshd, remote_command, qtbot, tmp_path,
                                                                         capsys):
    workspace, remote = tmp_path / "ws", tmp_path / "remote-ws"
    assert main(["--workspace", str(workspace), "machine", "add", "gpu", "--ssh", sshd.alias, "--ssh-config",
                 str(sshd.ssh_config), "--remote-dir", str(remote), "--remote-command", remote_command,
                 "--accept-host-key", sshd.host_fingerprint()]) == 0
    capsys.readouterr()
    run = remote / "runs" / "r1"
    run.mkdir(parents=True)
    (run / "config.json").write_text(json.dumps({"created": 1.0, "spec": {"config": {
        "data": "data.yaml", "model": "yolov5n.yaml", "epochs": 3}}}))
    (run / "events.jsonl").write_text(RECORDED.read_text())  # a finished run (its done event)
    (run / "results.csv").write_text("epoch\n0\n")

    box = MachineRunsBox(workspace)
    qtbot.addWidget(box)
    assert box.table.rowCount() == 0 and not box.follow_button.isEnabled()
    box.list_button.click()
    qtbot.waitUntil(lambda: box.table.rowCount() == 1, timeout=SSH_TIMEOUT_MS)
    assert [box.table.item(0, c).text() for c in (0, 1)] == ["gpu", "r1"]
    assert "1 runs on the machines" in box.status.text()

    box.table.selectRow(0)
    opened: list = []
    box.open_requested.connect(opened.append)
    box.follow_button.click()
    assert opened and isinstance(opened[0], RemoteRun) and (opened[0].machine.name, opened[0].name) == ("gpu", "r1")

    box.fetch_button.click()
    qtbot.waitUntil(lambda: "files in" in box.status.text() or "failed" in box.status.text(), timeout=SSH_TIMEOUT_MS)
    assert (workspace / "runs" / "r1@gpu" / "results.csv").read_text() == "epoch\n0\n"
    assert (workspace / "runs" / "r1@gpu" / "events.jsonl").read_text() == RECORDED.read_text()
