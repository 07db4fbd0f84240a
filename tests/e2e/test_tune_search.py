"""A real hyperparameter search on a local Ray instance (CPU, two slots), offline: tiny yolov5n trials on the tiny
demo data (``YOLOSTUDIO_SLOW_TESTS=1``). One search for the whole module (Ray's start-up is slow): it completes, ASHA stops some trials early,
a failing trial ends alone with its reason, every trial is an ordinary run, the results are yolov5's files, and
``yolostudio train --config best_config.json`` starts from the best trial's settings. What a local Ray listens
on is measured from its processes' sockets."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil
import pytest
import yaml

pytest.importorskip("ray")

from core.runs.store import load_run_config, read_run  # noqa: E402
from core.training.options import load_config_file  # noqa: E402
from tests.e2e.conftest import ROOT, Cli, by_type  # noqa: E402

LOOKUP_AUDIT = Path(__file__).resolve().parent / "lookupaudit"

# Minutes of CPU (a 4-trial search, a training, a stopped and resumed search): beyond the suite's budget on CI's two
# cores, so run on request; the confinement of a local Ray is checked on every run by tests/e2e/test_tune_ray.py.
pytestmark = [pytest.mark.e2e, pytest.mark.slow,
              pytest.mark.skipif(os.environ.get("YOLOSTUDIO_SLOW_TESTS") != "1",
                                 reason="slow: real Ray Tune searches (3 to 7 min); set YOLOSTUDIO_SLOW_TESTS=1")]

EPOCHS = 2
TRIALS = 4


@pytest.fixture(scope="module")
def search(tiny_data, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tune")
    env = _env(tmp)
    audit = tmp / "lookups.log"
    # Every Python process of the search (the worker, Ray's own, the trials') records its name lookups.
    env["PYTHONPATH"] = os.pathsep.join([str(LOOKUP_AUDIT), env["PYTHONPATH"]])
    env["YOLOSTUDIO_LOOKUP_AUDIT"] = str(audit)
    space = tmp / "space.yaml"
    # lr0 over yolov5's range, and a model choice one of whose values does not exist: that trial must fail alone.
    space.write_text("lr0: [0.00001, 0.1]\nmosaic: [0.0, 1.0]\nmodel: [yolov5n.yaml, missing-model.yaml]\n")
    args = ["tune", str(tiny_data), "--model", "yolov5n.yaml", "--epochs", str(EPOCHS), "--imgsz", "32", "--batch",
            "8", "--workers", "0", "--device", "cpu", "--time-budget", "8m", "--trials", str(TRIALS),
            "--space", str(space), "--json"]
    # The raw lines, as a program driving the CLI reads them (the app's own readers go through the typed boundary,
    # where a done's ``best`` is a path: they read ``best_trial`` from the search's events.jsonl).
    proc = subprocess.Popen([sys.executable, "-m", "cli", *args], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    events, sockets = [], None
    try:
        for line in proc.stdout:
            if line.startswith("{"):
                events.append(json.loads(line))
                ev = events[-1]
                if sockets is None and ev["type"] == "trial" and ev["state"] == "running" and ev["epochs"] >= 1:
                    sockets = search_sockets(proc.pid)  # Ray and a trial at work: every server is up
        stderr = proc.stderr.read() if proc.stderr else ""
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    done = events[-1] if events else {}
    return {"events": events, "code": code, "stderr": stderr, "env": env, "tmp": tmp, "done": done,
            "sockets": sockets, "audit": audit}


def search_sockets(cli_pid: int) -> dict[str, Any]:
    """Every listening TCP socket of the search's processes, as their own namespace shows it (``/proc/PID/net``)
    and whether this test's namespace (the computer's network) shows it too, with each namespace's interfaces."""
    found: dict[str, Any] = {"listeners": [], "host_listening": host_listening_inodes(), "interfaces": {}}
    for proc in psutil.Process(cli_pid).children(recursive=True):
        try:
            inodes = {os.readlink(f"/proc/{proc.pid}/fd/{fd}")[8:-1] for fd in os.listdir(f"/proc/{proc.pid}/fd")
                      if os.readlink(f"/proc/{proc.pid}/fd/{fd}").startswith("socket:[")}
            own = listening(f"/proc/{proc.pid}/net")
            found["interfaces"][proc.pid] = sorted(
                line.split(":")[0].strip() for line in Path(f"/proc/{proc.pid}/net/dev").read_text().splitlines()[2:])
            name = proc.name()
        except (OSError, psutil.Error):
            continue  # a process that ended meanwhile
        found["listeners"] += [(proc.pid, name, ip, port, inode) for inode, (ip, port) in own.items() if inode in inodes]
    return found


def listening(net: str) -> dict[str, tuple[str, int]]:
    """``{inode: (address, port)}`` of the LISTEN sockets in ``net``/tcp and tcp6 (the kernel's own table)."""
    out = {}
    for name in ("tcp", "tcp6"):
        for line in Path(net, name).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A":
                address, port = fields[1].split(":")
                out[fields[9]] = (_address(address), int(port, 16))
    return out


def host_listening_inodes() -> set[str]:
    return set(listening("/proc/self/net"))


def _address(hex_address: str) -> str:
    import ipaddress

    raw = bytes.fromhex(hex_address)
    words = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))  # /proc prints 32-bit words host-order
    ip = ipaddress.ip_address(words)
    return str(ip.ipv4_mapped or ip) if ip.version == 6 else str(ip)


MADE_TEMPS: list[str] = []


@pytest.fixture(scope="module", autouse=True)
def _remove_ray_temps():
    yield
    import shutil

    for path in MADE_TEMPS:
        shutil.rmtree(path, ignore_errors=True)


def short_temp() -> str:
    """Ray's session folder for a test: Ray's socket paths inside it must fit AF_UNIX's 107 bytes, which a
    pytest tmp_path does not leave room for (removed when the module ends)."""
    import tempfile

    MADE_TEMPS.append(tempfile.mkdtemp(prefix="ysray-", dir="/tmp"))
    return MADE_TEMPS[-1]


def _env(tmp: Path) -> dict[str, str]:
    from core.job.launch import worker_env

    env = worker_env()
    # Not under tests/e2e/netguard, which refuses every lookup: Ray's processes look up their own host name and
    # stop when refused. The search's namespace keeps any attempt on this computer; lookupaudit records them.
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    env["YOLOSTUDIO_WORKSPACE"] = str(tmp / "ws")
    env["YOLOSTUDIO_CONFIG_DIR"] = str(tmp / "config")
    env["YOLOSTUDIO_RAY_TEMP"] = short_temp()
    env["HOME"] = str(tmp / "home")
    env["CUDA_VISIBLE_DEVICES"] = ""
    return env


def test_the_search_completes_with_the_summary_shape(search):
    assert search["code"] == 0, search["stderr"]
    done = search["done"]
    assert done["type"] == "done" and done["status"] == "completed"
    assert len(done["trials"]) == TRIALS
    for trial in done["trials"]:
        assert {"run", "state", "fitness", "epochs", "config"} <= set(trial)
    assert {"run", "fitness", "config_file"} <= set(done["best"])
    tune_dir = Path(done["best"]["config_file"]).parent
    recorded = json.loads((tune_dir / "events.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert recorded["best_trial"] == done["best"]  # the app's readers find the same under best_trial
    assert done["best"]["fitness"] == max(t["fitness"] for t in done["trials"] if t["fitness"] is not None)


def test_asha_stops_some_trials_early_and_their_runs_are_resumable(search):
    trials = search["done"]["trials"]
    early = [t for t in trials if t["state"] == "stopped_early"]
    assert early, [(t["state"], t["epochs"]) for t in trials]
    for trial in early:
        assert trial["epochs"] < EPOCHS
        info = read_run(Path(trial["run"]))
        assert info.status == "stopped" and info.can_resume, info  # the worker got the stop and saved last.pt
    assert any(t["state"] == "completed" and t["epochs"] == EPOCHS for t in trials)


def test_a_failing_trial_ends_alone_with_its_reason(search):
    failed = [t for t in search["done"]["trials"] if t["state"] == "failed"]
    assert failed and all(t["config"]["model"] == "missing-model.yaml" for t in failed)
    assert all("missing-model.yaml" in t["reason"] for t in failed), failed
    assert search["done"]["status"] == "completed"


def test_every_trial_is_an_ordinary_run_tagged_with_the_search(search):
    ran = [t for t in search["done"]["trials"] if t["state"] != "failed"]
    tune_dir = Path(search["done"]["best"]["config_file"]).parent
    for trial in ran:
        spec = load_run_config(Path(trial["run"]))["spec"]
        assert spec["tune"]["run"] == tune_dir.name and spec["tune"]["trial"] == trial["trial"]
        hyp = yaml.safe_load(Path(spec["resolved"]["hyp"]).read_text(encoding="utf-8"))
        assert hyp["lr0"] == pytest.approx(trial["config"]["lr0"])
    live = by_type(search["events"], "trial")
    assert {e["state"] for e in live} >= {"running", "completed", "stopped_early", "failed"}


def test_the_results_are_yolov5s_files(search):
    tune_dir = Path(search["done"]["best"]["config_file"]).parent
    header, *rows = (tune_dir / "evolve.csv").read_text().splitlines()
    assert [c.strip() for c in header.split(",")][:8] == [
        "metrics/precision", "metrics/recall", "metrics/mAP_0.5", "metrics/mAP_0.5:0.95", "val/box_loss",
        "val/obj_loss", "val/cls_loss", "lr0"]
    assert len(rows) == sum(t["fitness"] is not None for t in search["done"]["trials"])
    evolved = yaml.safe_load((tune_dir / "hyp_evolve.yaml").read_text())
    assert "# YOLOv5 Hyperparameter Evolution Results" in (tune_dir / "hyp_evolve.yaml").read_text()
    assert {"lr0", "mosaic", "box"} <= set(evolved)


def test_train_with_these_starts_from_the_best_trial(search, tiny_data):
    """``yolostudio train --config best_config.json`` trains with the best trial's hyperparameters: yolov5's own
    hyp.yaml of the new run holds them (stopped once training started: the file is written before epoch 0)."""
    from core.job.protocol import encode_control

    best = search["done"]["best"]
    config = load_config_file(Path(best["config_file"]))
    best_trial = next(t for t in search["done"]["trials"] if t["trial"] == best["trial"])
    assert config.model == best_trial["config"]["model"]
    cli = Cli(["train", str(tiny_data), "--config", best["config_file"], "--epochs", "1", "--workers", "0",
               "--device", "cpu", "--name", "full"], search["env"])
    cli.wait_for(lambda e: e["type"] == "stage" and e.get("stage") == "training", timeout=300)
    assert cli.proc.stdin is not None
    cli.proc.stdin.write(encode_control("stop").encode("utf-8"))
    cli.proc.stdin.flush()
    assert cli.finish(timeout=300) in (0, 3), cli.stderr()
    run_dir = Path(search["env"]["YOLOSTUDIO_WORKSPACE"]) / "runs" / "full"
    hyp = yaml.safe_load((run_dir / "hyp.yaml").read_text(encoding="utf-8"))
    assert hyp["lr0"] == pytest.approx(best_trial["config"]["lr0"])
    assert hyp["mosaic"] == pytest.approx(best_trial["config"]["mosaic"])


def test_a_local_ray_listens_on_loopback_only(search):
    """Ray's servers (gcs_server, raylet, its workers, the agents) listen only inside the search's namespace, whose
    one interface is lo: the computer's network (this test's namespace) shows none of them."""
    sockets = search["sockets"]
    assert sockets and sockets["listeners"], search["stderr"][-3000:]
    assert {name for _pid, name, *_ in sockets["listeners"]} & {"gcs_server", "raylet"}, sockets["listeners"]
    for pid, name, ip, port, inode in sockets["listeners"]:
        assert sockets["interfaces"][pid] == ["lo"], (name, sockets["interfaces"][pid])
        assert inode not in sockets["host_listening"], (name, ip, port)
        assert ip in ("127.0.0.1", "::1", "0.0.0.0", "::"), (name, ip, port)  # wildcard: lo is all there is


def test_a_local_ray_asks_no_cloud_metadata_and_has_no_dashboard(search):
    lookups = search["audit"].read_text(encoding="utf-8") if search["audit"].exists() else ""
    assert "169.254.169.254" not in lookups and "metadata.google.internal" not in lookups, lookups
    assert all(port != 8265 for *_rest, port, _inode in search["sockets"]["listeners"])


def test_stop_then_resume_continues_the_search(tiny_data, tmp_path):
    """The protocol's stop line on stdin ends the search ``stopped``, its running trial's run a stopped, resumable
    run (its worker got the stop line and saved last.pt); ``--resume NAME`` restores the search (Ray Tune's
    ``Tuner.restore``) and that trial continues its own run to the last epoch — no new trial, no new run."""
    from core.job.protocol import encode_control

    env = _env(tmp_path)
    args = ["tune", str(tiny_data), "--model", "yolov5n.yaml", "--epochs", "3", "--imgsz", "32", "--batch", "8",
            "--workers", "0", "--device", "cpu", "--time-budget", "8m", "--trials", "1", "--name", "paused"]
    cli = Cli(args, env)
    cli.wait_for(lambda e: e["type"] == "trial" and e.get("epochs", 0) >= 1, timeout=300)
    assert cli.proc.stdin is not None
    cli.proc.stdin.write(encode_control("stop").encode("utf-8"))
    cli.proc.stdin.flush()
    assert cli.finish(timeout=300) == 3, cli.stderr()  # EXIT_STOPPED
    tune_dir = Path(env["YOLOSTUDIO_WORKSPACE"]) / "tune" / "paused"
    stopped = json.loads((tune_dir / "events.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert stopped["type"] == "done" and stopped["status"] == "stopped"
    (trial,) = stopped["trials"]
    assert trial["state"] == "stopped" and 1 <= trial["epochs"] < 3  # 3 epochs: time for the stop to arrive
    info = read_run(Path(trial["run"]))
    assert info.status == "stopped" and info.can_resume, info

    resumed = Cli([*args[:-2], "--resume", "paused"], env)
    assert resumed.finish(timeout=300) == 0, resumed.stderr()
    assert any(e["type"] == "stage" and e.get("stage") == "resuming" for e in resumed.events)
    done = json.loads((tune_dir / "events.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert done["status"] == "completed", done
    (again,) = done["trials"]
    assert again["trial"] == trial["trial"] and again["run"] == trial["run"], (trial, again)
    assert again["state"] == "completed" and again["epochs"] == 3, again
    assert read_run(Path(again["run"])).status == "completed"
    assert sorted(p.name for p in (Path(env["YOLOSTUDIO_WORKSPACE"]) / "runs").iterdir()) == [Path(trial["run"]).name]


def test_a_stop_as_trials_start_leaves_them_stopped_not_failed(tiny_data, tmp_path):
    """Issue 32: two trials side by side had just started when Stop came; Ray Tune killed their actors after 5 s
    and their runs read "failed — ended without its final report". Now each running trial's worker gets the stop
    line (the search's stop flag) and ends ``stopped`` before Ray ends anything; the search's last word lists them
    stopped at their last epoch."""
    from core.job.protocol import encode_control

    env = _env(tmp_path)
    args = ["tune", str(tiny_data), "--model", "yolov5n.yaml", "--epochs", "3", "--imgsz", "32", "--batch", "8",
            "--workers", "0", "--device", "cpu", "--time-budget", "8m", "--trials", "2", "--cpus-per-trial", "1",
            "--name", "halted"]
    cli = Cli(args, env)
    started = cli.wait_for(lambda e: e["type"] == "trial" and e["state"] == "running", timeout=300)
    events = Path(started["run"]) / "events.jsonl"
    deadline = time.monotonic() + 300
    while '"epoch_start"' not in (events.read_text(encoding="utf-8") if events.is_file() else ""):
        assert time.monotonic() < deadline and cli.proc.poll() is None, cli.stderr()
        time.sleep(0.2)  # its training has just started: its first epoch, nothing saved yet
    assert cli.proc.stdin is not None
    cli.proc.stdin.write(encode_control("stop").encode("utf-8"))
    cli.proc.stdin.flush()
    assert cli.finish(timeout=400) == 3, cli.stderr()  # EXIT_STOPPED
    tune_dir = Path(env["YOLOSTUDIO_WORKSPACE"]) / "tune" / "halted"
    done = json.loads((tune_dir / "events.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert done["status"] == "stopped" and done["trials"], done
    for trial in done["trials"]:
        if Path(trial["run"]).is_dir():  # a trial whose actor had not made its run yet has none
            assert read_run(Path(trial["run"])).status == "stopped", trial
    first = read_run(Path(started["run"]))  # stopped in its first epoch: the work so far saved, resumable
    assert first.status == "stopped" and first.can_resume, first
    assert (Path(started["run"]) / "weights" / "last.pt").is_file()
    assert {t["state"] for t in done["trials"]} == {"stopped"}, done["trials"]
    last_word = {e["trial"]: e["state"] for e in cli.events if e["type"] == "trial"}
    assert set(last_word.values()) == {"stopped"}, last_word  # the live table's rows end "stopped" too
    assert not (tune_dir / "stopping").exists()
