"""A training on a machine reached by SSH (issue 35), with real parts: sshd on 127.0.0.1, the remote being another
workspace on this machine that runs this checkout's ``yolostudio``. The ssh client that follows the run is
killed mid-training: the run completes there, the follower reconnects and shows every event exactly once, and
a re-attach replays them all once more."""

from __future__ import annotations

import json
import os
import shlex
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from cli.main import main
from core.demo.dataset import DemoSpec, generate_demo_dataset
from core.run.provenance import verified
from core.runs.store import read_run
from core.trust import needs_trust
from tests.fixtures.sshd import event_texts, ssh_clients

pytestmark = pytest.mark.e2e


def _shown(out: str) -> list[str]:
    return [json.dumps(json.loads(line), sort_keys=True) for line in out.splitlines() if line.startswith("{")]


def test_a_run_survives_a_killed_ssh_client_and_every_event_arrives_once(sshd, tmp_path, capsys):
    remote_ws, home = tmp_path / "remote-ws", tmp_path / "home"
    home.mkdir()
    command = shlex.join(["env", "OMP_NUM_THREADS=1", "YOLOSTUDIO_LANG=en", "CUDA_VISIBLE_DEVICES=", f"HOME={home}",
                          f"YOLOSTUDIO_CONFIG_DIR={tmp_path / 'remote-config'}",
                          str(Path(sys.executable).with_name("yolostudio"))])
    workspace = tmp_path / "ws"
    assert main(["--workspace", str(workspace), "machine", "add", "gpu", "--ssh", sshd.alias, "--ssh-config",
                 str(sshd.ssh_config), "--remote-dir", str(remote_ws), "--remote-command", command,
                 "--accept-host-key", sshd.host_fingerprint()]) == 0
    data = generate_demo_dataset(tmp_path / "local" / "tiny", DemoSpec(n_train=32, n_val=8, image_size=64, seed=3))
    capsys.readouterr()

    killed: dict = {}

    def kill_the_link_mid_training() -> None:
        deadline = time.monotonic() + 400
        while time.monotonic() < deadline and not killed:
            for events in remote_ws.glob("runs/*/events.jsonl"):
                text = events.read_text()
                if '"type":"batch"' in text.replace(" ", ""):
                    pids = ssh_clients("events")
                    if pids:
                        os.kill(pids[0], signal.SIGKILL)
                        killed.update(pid=pids[0], done_before='"type":"done"' in text.replace(" ", ""))
                        return
            time.sleep(0.2)

    killer = threading.Thread(target=kill_the_link_mid_training, daemon=True)
    killer.start()
    code = main(["--workspace", str(workspace), "train", str(data), "--machine", "gpu", "--model", "yolov5n.yaml",
                 "--epochs", "1", "--imgsz", "64", "--batch", "4", "--workers", "1", "--device", "cpu", "--noplots",
                 "--json"])
    killer.join(5)
    out, err = capsys.readouterr()
    assert code == 0, err
    assert killed and not killed["done_before"], "the ssh client was killed while the run trained"
    assert "dropped" in err
    (run_dir,) = (remote_ws / "runs").iterdir()
    assert read_run(run_dir).status == "completed"
    shown = _shown(out)
    assert shown == event_texts(run_dir / "events.jsonl")  # each event once, in order, none lost
    assert sum('"type": "done"' in e for e in shown) == 1 and len(shown) > 20

    assert main(["--workspace", str(workspace), "attach", run_dir.name, "--machine", "gpu", "--json"]) == 0
    assert _shown(capsys.readouterr().out) == shown

    # Stop goes to the remote's own 'yolostudio stop': a finished run is not running there
    assert main(["--workspace", str(workspace), "stop", run_dir.name, "--machine", "gpu"]) == 2
    assert f"Run {run_dir.name} is not running." in capsys.readouterr().err

    # the runs there, each with its machine
    assert main(["--workspace", str(workspace), "runs", "--machine", "gpu", "--json"]) == 0
    (listed,) = json.loads(capsys.readouterr().out)
    assert (listed["name"], listed["machine"], listed["status"]) == (run_dir.name, "gpu", "completed")

    # results back: each file verified by hash; a checkpoint its machine's provenance check verified is adopted
    # here, one that check refuses stays foreign
    best = run_dir / "weights" / "best.pt"
    best.write_bytes(best.read_bytes() + b"x")  # changed there after its worker wrote it: not the run's own any more
    assert main(["--workspace", str(workspace), "fetch", run_dir.name, "--machine", "gpu", "--json"]) == 0
    fetched = json.loads(capsys.readouterr().out)
    folder = Path(fetched["folder"])
    assert folder == workspace / "runs" / f"{run_dir.name}@gpu"
    assert fetched["verified"] == ["weights/last.pt"] and fetched["foreign"] == ["weights/best.pt"]
    assert (folder / "weights" / "best.pt").read_bytes() == best.read_bytes()
    assert not (folder / "weights" / "provenance.json").read_text().count("best.pt")
    assert verified(workspace, folder / "weights" / "last.pt")
    assert not verified(workspace, folder / "weights" / "best.pt")
    assert needs_trust(folder / "weights" / "best.pt", workspace) and not needs_trust(folder / "weights" / "last.pt",
                                                                                       workspace)
