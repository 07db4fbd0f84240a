"""The Train page's machine choice against a real sshd on 127.0.0.1 (tests/fixtures/sshd.py), the remote being
another workspace on this machine running this checkout's ``yolostudio``.

A run there (the fake worker replaying a recorded run, holding its run folder as a worker does) is followed into
the page's live view; the ssh client is killed mid-run: the page says the link dropped, reconnects, and shows every
event exactly once; Stop goes to ``yolostudio stop`` there and the run ends stopped. Start with a machine chosen
sends the dataset and launches there through the door ``train --machine`` uses; Cancel while sending starts
nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

from cli.main import main
from core.remote.machines import load_machines
from core.training.config import MachineFacts
from gui.train.train_page import TrainPage
from tests.core.test_dataset_validate import build
from tests.waits import TIMEOUT_MS
from tests.fixtures.sshd import event_texts, ssh_clients

SSH_TIMEOUT_MS = max(TIMEOUT_MS, 90_000)


@pytest.fixture
def workspace(sshd, remote_command, tmp_path, capsys) -> Path:
    workspace = tmp_path / "ws"
    assert main(["--workspace", str(workspace), "machine", "add", "gpu", "--ssh", sshd.alias, "--ssh-config",
                 str(sshd.ssh_config), "--remote-dir", str(tmp_path / "remote-ws"), "--remote-command", remote_command,
                 "--accept-host-key", sshd.host_fingerprint()]) == 0
    capsys.readouterr()
    return workspace


@pytest.fixture
def page(qtbot, workspace, tmp_path):
    page = TrainPage(workspace, prepare_demo=False, machine_facts=MachineFacts(gpu_count=0))
    qtbot.addWidget(page)
    page.refresh_machines()
    qtbot.waitUntil(lambda: page.machine_choice.count() == 2, timeout=TIMEOUT_MS)
    yield page
    if page.active:
        page.session.detach()


def test_the_machine_choice_offers_this_computer_and_the_workspaces_machines(page):
    assert page.machine_choice.itemData(0) == "" and page.machine_choice.itemData(1) == "gpu"
    assert "yolotest" in page.machine_choice.itemText(1)
    assert page.choose_machine("gpu") and page.control.machine_name == "gpu"
    assert page.choose_machine("") and page.control.machine_name == ""
    assert not page.choose_machine("nope")


def test_a_run_there_streams_into_the_page_survives_a_dropped_link_and_stops_remotely(qtbot, page, fake_worker,
                                                                                         tmp_path):
    run_dir = tmp_path / "remote-ws" / "runs" / "r1"
    run_dir.mkdir(parents=True)
    (run_dir / "config.json").write_text(json.dumps({"created": 1.0, "spec": {"config": {
        "data": "data.yaml", "model": "yolov5n.yaml", "epochs": 3}}}))  # as the door writes it there
    events = run_dir / "events.jsonl"
    worker = subprocess.Popen(fake_worker("--events-out", str(events), "--pause-after", "40"),
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        shown: list[str] = []
        notes: list[str] = []
        machine = load_machines(page.workspace)["gpu"]
        assert page.control.attach_machine(machine, "r1")
        page.session.event.connect(lambda e: shown.append(json.dumps(e, sort_keys=True)))
        follower = page.session.remote
        follower.note.connect(notes.append)
        follower.restored.connect(lambda offset: notes.append(f"restored {offset}"))
        qtbot.waitUntil(lambda: len(shown) >= 30, timeout=SSH_TIMEOUT_MS)
        assert page.active and page.stop_button.isEnabled() and not page.machine_choice.isEnabled()
        assert page.session.run_dir == page.workspace / "runs" / "r1@gpu"  # where fetch brings it back

        clients = ssh_clients("events")
        assert clients
        os.kill(clients[0], signal.SIGKILL)  # the link drops mid-run
        qtbot.waitUntil(lambda: any("dropped" in n for n in notes), timeout=SSH_TIMEOUT_MS)
        assert "dropped" in page.banner.text

        with qtbot.waitSignal(page.run_ended, timeout=SSH_TIMEOUT_MS):
            page.stop_button.click()  # Stop goes to 'yolostudio stop r1' there
        worker.wait(30)
        assert page.session.outcome.status == "stopped"
        assert shown == event_texts(events)  # every event once, in order, none lost across the reconnection
        assert sum('"type": "done"' in e for e in shown) == 1
        assert any(n.startswith("restored ") for n in notes)  # the page said the link was back
        assert "yolostudio fetch r1 --machine gpu" in page.banner.text
        assert page.status_panel.open_button.isHidden() and page.status_panel.evaluate_button.isHidden()  # there
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()


def test_cancel_while_sending_starts_nothing_there(qtbot, page, tmp_path):
    data = build(tmp_path / "data")
    page.form.set_data_path(str(data))
    page.revalidate()
    qtbot.waitUntil(page.start_button.isEnabled, timeout=TIMEOUT_MS)
    assert page.choose_machine("gpu")
    assert page.control.start_run()
    assert not page.cancel_button.isHidden() and not page.start_button.isEnabled()
    page.cancel_button.click()
    qtbot.waitUntil(lambda: not page.control.starting, timeout=SSH_TIMEOUT_MS)
    assert not page.active and page.session is None
    assert not (tmp_path / "remote-ws" / "runs").exists()
    assert page.start_button.isEnabled() and page.cancel_button.isHidden()


def test_start_there_sends_the_dataset_launches_and_says_why_the_run_did_not_begin(qtbot, page, tmp_path):
    data = build(tmp_path / "data")
    page.form.set_data_path(str(data))
    page.revalidate()
    qtbot.waitUntil(page.start_button.isEnabled, timeout=TIMEOUT_MS)
    remote = tmp_path / "remote-ws"
    remote.mkdir()
    (remote / "runs").write_text("not a folder")  # the run cannot create its folder there: it never begins
    assert page.choose_machine("gpu")
    texts: list[str] = []
    page.control.copy_progress.connect(texts.append)
    assert page.control.start_run()
    qtbot.waitUntil(lambda: page.session is not None, timeout=SSH_TIMEOUT_MS)  # sent and launched there
    assert any("gpu" in t for t in texts)
    (synced,) = (remote / "datasets").iterdir()
    assert (synced / ".yolostudio-data.yaml").is_file()
    name = page.session.remote.run
    assert (remote / ".cache" / "remote" / f"{name}.config.json").is_file()  # launched through 'machine launch'
    qtbot.waitUntil(lambda: not page.active, timeout=SSH_TIMEOUT_MS)
    assert page.session.outcome.failed


def test_the_options_are_checked_on_the_chosen_machines_gpus(qtbot, page, tmp_path):
    from core.remote.facts import remember_facts  # noqa: PLC0415
    from tests.core.test_remote_facts import gpu_server_report  # noqa: PLC0415

    data = build(tmp_path / "data")
    page.form.set_data_path(str(data))
    page.form.apply_values({"device": "0,1"})
    page.revalidate()
    qtbot.waitUntil(lambda: page.last_checked is not None and not page.last_checked.ok, timeout=TIMEOUT_MS)
    assert any(p.field == "device" for p in page.last_checked.errors)  # this computer has no GPU

    assert page.choose_machine("gpu")  # never checked: said, and checked on this computer's GPUs still
    qtbot.waitUntil(lambda: "has not been checked yet" in page.banner.text, timeout=TIMEOUT_MS)
    assert any(p.field == "device" for p in page.revalidate().errors)

    remember_facts(page.workspace, load_machines(page.workspace)["gpu"], gpu_server_report())  # as machine check does
    assert page.choose_machine("") and page.choose_machine("gpu")
    qtbot.waitUntil(lambda: page.options.facts.gpu_count == 2, timeout=TIMEOUT_MS)
    assert not [p for p in page.revalidate().errors if p.field == "device"]
    assert page.choose_machine("")  # back to this computer: its own GPUs again
    assert any(p.field == "device" for p in page.revalidate().errors)
