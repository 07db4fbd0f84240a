"""DDP for real on CPUs (gloo) through ``torch.distributed.run``: two ranks on one machine (every rank's timing,
a rank killed), two "machines" (two launchers, c10d on 127.0.0.1: stop, resume, completion, the weights in
yolov5's own val) and a machine whose dataset differs.

Kept short: 16 images at 64 px, batch 4 (2 per rank: 4 batches per epoch), one epoch, no plots. A stop or a
kill is sent while the ranks are held at a step (``Hold``), so a one-epoch run cannot complete before it lands.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from core.demo.dataset import DemoSpec, generate_demo_dataset
from core.training.distributed import endpoint_answers, new_run_id
from tests.e2e.conftest import (ROOT, Cli, assert_offline, by_type, run_cli, runs_json, stop_while_held,
                                train_args)
from tests.fixtures.listeners import beyond_loopback, listening

pytestmark = pytest.mark.e2e

SMALL = DemoSpec(n_train=16, n_val=4, image_size=64, seed=5)


@pytest.fixture(scope="module")
def small_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_demo_dataset(tmp_path_factory.mktemp("ddp-data") / "small", SMALL)


def ddp_args(data: Path, name: str, *extra: str, epochs: int = 1) -> list[str]:
    return train_args(data, name=name, epochs=epochs, batch=4, extra=extra)


def tree(proc: subprocess.Popen) -> list[psutil.Process]:
    try:
        return psutil.Process(proc.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def assert_all_gone(procs: list[psutil.Process], timeout: float = 15.0) -> None:
    _gone, alive = psutil.wait_procs(procs, timeout=timeout)
    assert not alive, [(p.pid, p.cmdline()) for p in alive]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


#: The run id machine 0 would print in machine 1's command (core.training.distributed.new_run_id); both nodes give it.
RUN_ID = new_run_id()


def _node(data: Path, rank: int, port: int, env: dict[str, str], workspace: Path, *extra: str) -> Cli:
    node_env = {**env, "YOLOSTUDIO_WORKSPACE": str(workspace)}
    return Cli(ddp_args(data, "two-nodes", "--nnodes", "2", "--node-rank", str(rank), "--nproc-per-node", "1",
                        "--rdzv-endpoint", f"127.0.0.1:{port}", "--rdzv-id", RUN_ID, *extra), node_env)


def test_two_ranks_report_every_ranks_timing_and_a_killed_rank_fails_the_run_within_60s(small_data, e2e_env, held):
    """One launcher, two ranks: both ranks' figures reach rank 0's events; SIGKILL of rank 1 ends the whole run as
    failed, naming rank 1, within 60 s, and no process of the run is left (psutil over the process tree)."""
    hold = held(6)  # epoch 1's second step: the kill lands before the run can end
    cli = Cli(ddp_args(small_data, "killed", "--nproc-per-node", "2", epochs=5), hold.env(e2e_env))
    ready = cli.wait_for(lambda e: e["type"] == "stage" and e["stage"] == "ranks_ready")
    assert cli.events[0]["topology"] == {"nnodes": 1, "nproc_per_node": 2, "world_size": 2}
    assert [r["rank"] for r in ready["ranks"]] == [0, 1]
    batch = cli.wait_for(lambda e: e["type"] == "batch" and e["index"] >= 1)
    figures = {r["rank"]: r for r in batch["ranks"]}
    assert set(figures) == {0, 1} and all(r["batches"] >= 1 and r["data_wait_s"] >= 0 for r in figures.values())
    procs = tree(cli.proc)
    assert sum("core.worker" in " ".join(p.cmdline()) for p in procs) >= 3  # torchrun + one worker per rank
    killed_at = time.monotonic()
    os.kill(next(r for r in ready["ranks"] if r["rank"] == 1)["pid"], signal.SIGKILL)
    hold.release()  # rank 0 goes on to the next exchange, where rank 1 is missing
    assert cli.finish(timeout=60) != 0
    assert time.monotonic() - killed_at < 60
    assert_all_gone(procs)
    done, error = cli.events[-1], by_type(cli.events, "error")[-1]
    assert done["status"] == "failed"
    assert error["kind"] == "distributed" and "rank 1" in error["message"], error["message"]
    listed = {r["name"]: r for r in runs_json(e2e_env)}["killed"]
    assert listed["status"] == "failed" and listed["topology"] == {"nnodes": 1, "nproc_per_node": 2}


def _finish_both(node0: Cli, node1: Cli) -> tuple[int, int]:
    """Both streams read at once: a launcher whose pipe nobody reads would stall its node, and so the run."""
    codes: dict[str, int] = {}

    def finish_node1() -> None:
        codes["node1"] = node1.finish()
        try:
            node0.proc.wait(timeout=60)  # node 0 reports a refusal itself; past that it would wait for node 1
        except subprocess.TimeoutExpired:
            node0.proc.kill()

    reader = threading.Thread(target=finish_node1, daemon=True)
    reader.start()
    codes["node0"] = node0.finish()
    reader.join(timeout=300)
    return codes["node0"], codes["node1"]


def _two_nodes(data0: Path, data1: Path, env: dict[str, str], tmp_path: Path, *command: str) -> tuple[Cli, Cli]:
    port = _free_port()
    node0 = _node(data0, 0, port, env, tmp_path / "node0", *command)
    assert endpoint_answers("127.0.0.1", port, wait_s=120)  # node 0's launcher hosts the rendezvous
    return node0, _node(data1, 1, port, env, tmp_path / "node1", *command)


def test_two_nodes_stop_together_then_resume_and_complete(small_data, e2e_env, net_audit, tmp_path, held):
    """Two launchers (--nnodes 2, c10d on 127.0.0.1): a stop on node 0 stops both nodes before the same batch,
    rank 0 alone saves last.pt; both nodes resume the same topology and complete; yolov5's own val.run then
    loads best.pt for the final validation (``final_metrics``)."""
    hold = held(2)  # both ranks wait in their second step until node 0 has taken the stop
    node0, node1 = _two_nodes(small_data, small_data, hold.env(e2e_env), tmp_path)
    reader = threading.Thread(target=node1.finish, daemon=True)
    reader.start()
    ready = node0.wait_for(lambda e: e["type"] == "stage" and e["stage"] == "ranks_ready")
    assert sorted((r["rank"], r["node"]) for r in ready["ranks"]) == [(0, 0), (1, 1)]
    node0.wait_for(lambda e: e["type"] == "batch")
    # both "machines" met at 127.0.0.1: the loopback rendezvous (core.job.torchrun.is_loopback_endpoint), no '*'
    both = [*tree(node0.proc), *tree(node1.proc)]
    assert len(listening(both)) >= 2 and beyond_loopback(both) == [], listening(both)

    def stop() -> None:  # the Stop button / yolostudio stop
        node0.proc.stdin.write(b'{"v":1,"type":"stop"}\n')
        node0.proc.stdin.flush()

    stop_while_held(node0, hold, stop)
    assert node0.finish() == 3, node0.stderr()  # 3 = stopped
    reader.join(timeout=120)
    assert node1.proc.wait(timeout=60) == 3 and node1.events[-1]["status"] == "stopped"
    stops = [e for e in by_type(node0.events, "checkpoint") if e["reason"] == "stop"]
    assert len(stops) == 1 and node0.events[-1]["stopped_at"]["epoch"] == 0
    run0 = Path(stops[0]["path"]).parents[1]
    assert sorted(p.name for p in (run0 / "weights").iterdir()) == ["last.pt", "provenance.json"]  # + its record
    assert not list((tmp_path / "node1" / "runs" / "two-nodes").rglob("*.pt"))  # only rank 0 saves

    port = _free_port()  # both machines resume; the same topology, a fresh meeting point
    env0 = {**e2e_env, "YOLOSTUDIO_WORKSPACE": str(tmp_path / "node0")}
    env1 = {**e2e_env, "YOLOSTUDIO_WORKSPACE": str(tmp_path / "node1")}
    resumed0 = Cli(["resume", "two-nodes", "--rdzv-endpoint", f"127.0.0.1:{port}"], env0)
    assert endpoint_answers("127.0.0.1", port, wait_s=120)
    resumed1 = Cli(["resume", "two-nodes", "--rdzv-endpoint", f"127.0.0.1:{port}"], env1)
    assert _finish_both(resumed0, resumed1) == (0, 0), (by_type(resumed0.events, "error"),
                                                        by_type(resumed1.events, "error"),
                                                        resumed0.stderr()[-3000:] + resumed1.stderr()[-3000:])
    done = resumed0.events[-1]
    assert done["status"] == "completed" and done["topology"] == {"nnodes": 2, "nproc_per_node": 1, "world_size": 2}
    assert done["final_metrics"]["map50"] is not None and Path(done["best"]).is_file()
    batches = by_type(resumed0.events, "batch")
    assert sum(b["window"]["batches"] for b in batches) == 4  # the interrupted epoch again: 16 images / batch 4
    assert {r["node"] for b in batches for r in b["ranks"]} == {0, 1}
    assert_offline(net_audit)


def test_a_node_with_a_different_dataset_is_refused_before_training(small_data, e2e_env, tmp_path):
    other = tmp_path / "other"
    generate_demo_dataset(other, DemoSpec(n_train=15, n_val=4, image_size=64, seed=5))  # one image fewer
    node0, node1 = _two_nodes(small_data, other / "data.yaml", e2e_env, tmp_path)
    assert 0 not in _finish_both(node0, node1)
    error = by_type(node0.events, "error")[-1]
    assert error["kind"] == "distributed" and "node 1" in error["message"], error["message"]
    assert not by_type(node0.events, "batch")  # (the counts' wording is held by tests/worker/test_ddp.py)
    assert by_type(node1.events, "error")[-1]["kind"] == "distributed"


def test_refused_launches_write_nothing(small_data, e2e_env, tmp_path):
    out = run_cli(ddp_args(small_data, "odd", "--nproc-per-node", "3"), e2e_env)  # batch 4 over 3 ranks
    assert out.returncode == 2 and "multiple of 3" in out.stderr, out.stderr
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    try:
        port = busy.getsockname()[1]
        out = run_cli(ddp_args(small_data, "busy", "--nnodes", "2", "--rdzv-endpoint", f"127.0.0.1:{port}",
                               "--nproc-per-node", "1"), e2e_env)
    finally:
        busy.close()
    assert out.returncode == 2 and "already in use" in out.stderr, out.stderr
    runs = Path(e2e_env["YOLOSTUDIO_WORKSPACE"]) / "runs"
    assert not runs.exists() or not any(runs.iterdir())
    json.dumps(out.stderr)
