"""A real hyperparameter search on a local Ray instance (CPU, two slots), offline: tiny yolov5n trials on the tiny
demo data. One search for the whole module (Ray's start-up is slow): it completes, ASHA stops some trials early,
a failing trial ends alone with its reason, every trial is an ordinary run, the results are yolov5's files, and
``yolostudio train --config best_config.json`` starts from the best trial's settings. What a local Ray listens
on is measured from its processes' sockets."""

from __future__ import annotations

import json
from pathlib import Path

import psutil
import pytest
import yaml

pytest.importorskip("ray")

from core.runs.store import load_run_config, read_run  # noqa: E402
from core.training.options import load_config_file  # noqa: E402
from tests.e2e.conftest import NETGUARD, ROOT, assert_offline, by_type, run_cli  # noqa: E402

pytestmark = pytest.mark.e2e

EPOCHS = 2
TRIALS = 4


@pytest.fixture(scope="module")
def search(tiny_data, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tune")
    env = _env(tmp)
    space = tmp / "space.yaml"
    # lr0 over yolov5's range, and a model choice one of whose values does not exist: that trial must fail alone.
    space.write_text("lr0: [0.00001, 0.1]\nmosaic: [0.0, 1.0]\nmodel: [yolov5n.yaml, missing-model.yaml]\n")
    args = ["tune", str(tiny_data), "--model", "yolov5n.yaml", "--epochs", str(EPOCHS), "--imgsz", "32", "--batch",
            "8", "--workers", "0", "--device", "cpu", "--time-budget", "8m", "--trials", str(TRIALS),
            "--space", str(space)]
    # The raw lines, as a program driving the CLI reads them (the app's own readers go through the typed boundary,
    # where a done's ``best`` is a path: they read ``best_trial`` from the search's events.jsonl).
    out = run_cli([*args, "--json"], env, timeout=560)
    events = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    done = events[-1] if events else {}
    return {"events": events, "code": out.returncode, "stderr": out.stderr, "env": env, "tmp": tmp, "done": done}


def short_temp() -> str:
    """Ray's session folder for a test: Ray's socket paths inside it must fit AF_UNIX's 107 bytes, which a
    pytest tmp_path does not leave room for."""
    import tempfile

    return tempfile.mkdtemp(prefix="ysray-", dir="/tmp")


def _env(tmp: Path) -> dict[str, str]:
    import os

    from tests.e2e.conftest import ROOT
    from core.job.launch import worker_env

    env = worker_env()
    # Not under the netguard: Ray's own processes make network attempts it refuses, which stops Ray from starting
    # (measured and kept in test_local_ray_makes_no_network_attempt below).
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
    best = search["done"]["best"]
    config = load_config_file(Path(best["config_file"]))
    best_trial = next(t for t in search["done"]["trials"] if t["trial"] == best["trial"])
    assert config.model == best_trial["config"]["model"]
    cli = Cli(["train", str(tiny_data), "--config", best["config_file"], "--epochs", "1", "--workers", "0",
               "--device", "cpu", "--name", "full"], search["env"])
    assert cli.finish() == 0, cli.stderr()
    run_dir = Path(search["env"]["YOLOSTUDIO_WORKSPACE"]) / "runs" / "full"
    opt = yaml.safe_load((run_dir / "opt.yaml").read_text(encoding="utf-8"))
    hyp = yaml.safe_load((run_dir / "hyp.yaml").read_text(encoding="utf-8"))
    assert Path(opt["hyp"]).name == "best_hyp.yaml" if isinstance(opt.get("hyp"), str) else True
    assert hyp["lr0"] == pytest.approx(best_trial["config"]["lr0"])
    assert hyp["mosaic"] == pytest.approx(best_trial["config"]["mosaic"])


def test_local_ray_has_no_dashboard_and_no_usage_stats(tmp_path):
    with _local_ray(tmp_path) as listeners:
        assert all(port != 8265 for _pid, _ip, port in listeners), listeners


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="measured with Ray 2.60: its gRPC servers (gcs_server, raylet, workers) "
                   "bind the wildcard address '::' and the runtime-env agent the host's address, whatever "
                   "_node_ip_address says; no ray.init option binds them to loopback (see the README)")
def test_local_ray_listens_on_loopback_only(tmp_path):
    with _local_ray(tmp_path) as listeners:
        assert listeners and all(ip in ("127.0.0.1", "::1") for _pid, ip, _port in listeners), listeners


class _local_ray:
    """A local Ray started as the tune job starts it; yields (pid, ip, port) of every listening socket of its
    processes (this one and its descendants)."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp

    def __enter__(self) -> list[tuple[int, str, int]]:
        import os

        import ray

        from core.worker.tune_job import local_ray_options

        os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
        self.temp = Path(short_temp())
        ray.init(**local_ray_options(2, 0, self.temp))
        me = psutil.Process()
        found = []
        for proc in [me, *me.children(recursive=True)]:
            try:
                for conn in proc.net_connections(kind="inet"):
                    if conn.status == psutil.CONN_LISTEN:
                        found.append((proc.pid, conn.laddr.ip, conn.laddr.port))
            except psutil.Error:
                continue
        return found

    def __exit__(self, *exc: object) -> None:
        import ray

        import shutil

        ray.shutdown()
        shutil.rmtree(self.temp, ignore_errors=True)


RAY_UP_AND_DOWN = ("import os, sys; os.environ['RAY_USAGE_STATS_ENABLED'] = '0'; import ray; "
                   "from core.worker.tune_job import local_ray_options; "
                   "ray.init(**local_ray_options(1, 0, __import__('pathlib').Path(sys.argv[1]))); ray.shutdown()")


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="measured with Ray 2.60: with usage statistics off "
                   "its dashboard head still asks the cloud metadata endpoints (169.254.169.254, "
                   "metadata.google.internal: usage_stats_head.run -> get_cluster_config_to_report) and its "
                   "processes look up the host's own address")
def test_local_ray_makes_no_network_attempt(tmp_path):
    import os
    import subprocess
    import sys

    audit = tmp_path / "net-audit.log"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(NETGUARD), str(ROOT)]), YOLOSTUDIO_NET_AUDIT=str(audit),
               HOME=str(tmp_path))
    subprocess.run([sys.executable, "-c", RAY_UP_AND_DOWN, short_temp()], cwd=ROOT, env=env, capture_output=True,
                   timeout=180)
    assert_offline(audit)


def test_stop_ends_the_search_gracefully(tiny_data, tmp_path):
    """The protocol's stop line on stdin: the search ends ``stopped`` and its running trial's run is a stopped,
    resumable run (its worker got the stop line and saved last.pt)."""
    from core.job.protocol import encode_control
    from tests.e2e.conftest import Cli

    env = _env(tmp_path)
    args = ["tune", str(tiny_data), "--model", "yolov5n.yaml", "--epochs", "3", "--imgsz", "32", "--batch", "8",
            "--workers", "0", "--device", "cpu", "--time-budget", "8m", "--trials", "1", "--name", "stopped"]
    cli = Cli(args, env)
    cli.wait_for(lambda e: e["type"] == "trial" and e.get("epochs", 0) >= 1, timeout=300)
    assert cli.proc.stdin is not None
    cli.proc.stdin.write(encode_control("stop").encode("utf-8"))
    cli.proc.stdin.flush()
    assert cli.finish(timeout=300) == 3, cli.stderr()  # EXIT_STOPPED
    done = cli.events[-1]
    assert done["type"] == "done" and done["status"] == "stopped"
    trial = done["trials"][0]
    assert trial["state"] == "stopped" and trial["epochs"] < 3
    info = read_run(Path(trial["run"]))
    assert info.status == "stopped" and info.can_resume, info
