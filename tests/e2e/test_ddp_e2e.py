"""DDP for real on CPUs (gloo) through ``torch.distributed.run``: two ranks on one machine (stop, resume, the
weights in yolov5's own val), a rank killed, and two "machines" (two launchers, c10d on 127.0.0.1).

Kept short: 16 images at 64 px, batch 4 (2 per rank: 4 batches per epoch), one epoch, no plots.
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

from core.demo_dataset import DemoSpec, generate_demo_dataset
from core.distributed import endpoint_answers
from tests.e2e.conftest import ROOT, Cli, assert_offline, by_type, run_cli, runs_json, train_args

pytestmark = pytest.mark.e2e

SMALL = DemoSpec(n_train=16, n_val=4, image_size=64, seed=5)


@pytest.fixture(scope="module")
def small_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_demo_dataset(tmp_path_factory.mktemp("ddp-data") / "small", SMALL)


def ddp_args(data: Path, name: str, *extra: str, epochs: int = 1) -> list[str]:
    return train_args(data, name=name, epochs=epochs, batch=4, extra=("--noplots", *extra))


def tree(proc: subprocess.Popen) -> list[psutil.Process]:
    try:
        return psutil.Process(proc.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def assert_all_gone(procs: list[psutil.Process], timeout: float = 15.0) -> None:
    _gone, alive = psutil.wait_procs(procs, timeout=timeout)
    assert not alive, [(p.pid, p.cmdline()) for p in alive]


def test_two_ranks_stop_resume_and_the_weights_load_in_yolov5_val(small_data, e2e_env, net_audit, tmp_path):
    cli = Cli(ddp_args(small_data, "ddp", "--nproc-per-node", "2"), e2e_env)
    ready = cli.wait_for(lambda e: e["type"] == "stage" and e["stage"] == "ranks_ready")
    assert [r["rank"] for r in ready["ranks"]] == [0, 1]
    first = cli.wait_for(lambda e: e["type"] == "batch")
    procs = tree(cli.proc)
    assert sum("core.worker" in " ".join(p.cmdline()) for p in procs) >= 2  # one worker per rank
    assert cli.events[0]["topology"] == {"nnodes": 1, "nproc_per_node": 2, "world_size": 2}
    assert [r["rank"] for r in first["ranks"]] == [0, 1] and all(r["batches"] == 1 for r in first["ranks"])
    cli.proc.stdin.write(b'{"v":1,"type":"stop"}\n')  # the Stop button / yolostudio stop
    cli.proc.stdin.flush()
    assert cli.finish() == 3, cli.stderr()  # 3 = stopped
    assert_all_gone(procs)  # both ranks (and their loaders) ended
    done = cli.events[-1]
    assert done["status"] == "stopped" and done["stopped_at"]["epoch"] == 0
    stops = [e for e in by_type(cli.events, "checkpoint") if e["reason"] == "stop"]
    assert len(stops) == 1  # rank 0 alone saved
    run_dir = Path(stops[0]["path"]).parents[1]
    assert sorted(p.name for p in (run_dir / "weights").iterdir()) == ["last.pt"]

    resumed = Cli(["resume", "ddp"], e2e_env)
    assert resumed.finish() == 0, resumed.stderr()
    done = resumed.events[-1]
    assert done["status"] == "completed" and done["topology"]["nproc_per_node"] == 2
    batches = by_type(resumed.events, "batch")
    assert sum(b["window"]["batches"] for b in batches) == 4  # 16 images / batch 4
    for rank in (0, 1):  # every rank's figures reached the record
        figures = [r for b in batches for r in b["ranks"] if r["rank"] == rank]
        assert sum(r["batches"] for r in figures) == 4 and all(r["data_wait_s"] >= 0 for r in figures)
    listed = {r["name"]: r for r in runs_json(e2e_env)}["ddp"]
    assert listed["status"] == "completed"
    assert listed["topology"] == {"nnodes": 1, "nproc_per_node": 2}

    peer = f"""
from pathlib import Path
from core.worker import compat
compat.apply(Path(r"{tmp_path / 'peer-cache'}"), trusted=[Path(r"{run_dir}")])
from yolov5 import val
results = val.run(data=r"{small_data}", weights=r"{done['best']}", imgsz=64, batch_size=4, device="cpu",
                  project=r"{tmp_path / 'val'}", plots=False)[0]
print("MAP", results[2])
"""
    out = subprocess.run([sys.executable, "-c", peer], cwd=ROOT, env=e2e_env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0 and "MAP" in out.stdout, out.stderr[-2000:]
    assert_offline(net_audit)


def test_a_killed_rank_fails_the_run_within_60s_and_leaves_no_process(small_data, e2e_env):
    cli = Cli(ddp_args(small_data, "killed", "--nproc-per-node", "2", epochs=5), e2e_env)
    ready = cli.wait_for(lambda e: e["type"] == "stage" and e["stage"] == "ranks_ready")
    cli.wait_for(lambda e: e["type"] == "batch")
    procs = tree(cli.proc)
    rank1 = next(r for r in ready["ranks"] if r["rank"] == 1)
    killed_at = time.monotonic()
    os.kill(rank1["pid"], signal.SIGKILL)
    assert cli.finish(timeout=60) != 0
    assert time.monotonic() - killed_at < 60
    assert_all_gone(procs)
    done, error = cli.events[-1], by_type(cli.events, "error")[-1]
    assert done["status"] == "failed"
    assert error["kind"] == "distributed" and "rank 1" in error["message"], error["message"]
    assert {r["name"]: r for r in runs_json(e2e_env)}["killed"]["status"] == "failed"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _node(data: Path, rank: int, port: int, env: dict[str, str], workspace: Path) -> Cli:
    node_env = {**env, "YOLOSTUDIO_WORKSPACE": str(workspace)}
    return Cli(ddp_args(data, "two-nodes", "--nnodes", "2", "--node-rank", str(rank), "--nproc-per-node", "1",
                        "--rdzv-endpoint", f"127.0.0.1:{port}"), node_env)


def _finish_both(node0: Cli, node1: Cli) -> tuple[int, int]:
    """Both streams read at once: a launcher whose pipe nobody reads would stall its node, and so the run."""
    codes: dict[str, int] = {}

    def finish_node1() -> None:
        codes["node1"] = node1.finish()
        if codes["node1"] != 0 and node0.proc.poll() is None:
            time.sleep(30)  # node 0 reports the refusal itself; past that, it would wait for node 1 for minutes
            node0.proc.kill()

    reader = threading.Thread(target=finish_node1, daemon=True)
    reader.start()
    codes["node0"] = node0.finish()
    reader.join(timeout=300)
    return codes["node0"], codes["node1"]


def test_two_nodes_train_together_and_a_different_dataset_is_refused(small_data, e2e_env, tmp_path):
    port = _free_port()
    node0 = _node(small_data, 0, port, e2e_env, tmp_path / "node0")
    assert endpoint_answers("127.0.0.1", port, wait_s=120)  # node 0's launcher hosts the rendezvous
    node1 = _node(small_data, 1, port, e2e_env, tmp_path / "node1")
    assert _finish_both(node0, node1) == (0, 0), node0.stderr() + node1.stderr()
    ready = by_type(node0.events, "stage")
    ranks = next(e for e in ready if e["stage"] == "ranks_ready")["ranks"]
    assert sorted(r["node"] for r in ranks) == [0, 1]
    assert node0.events[-1]["status"] == "completed" and node0.events[-1]["topology"]["nnodes"] == 2
    assert node1.events[-1]["status"] == "completed"

    # Node 1's copy of the dataset lacks an image: refused before training, naming node 1.
    other = tmp_path / "other"
    generate_demo_dataset(other, DemoSpec(n_train=15, n_val=4, image_size=64, seed=5))
    port = _free_port()
    node0 = _node(small_data, 0, port, e2e_env, tmp_path / "node0")
    assert endpoint_answers("127.0.0.1", port, wait_s=120)
    node1 = _node(other / "data.yaml", 1, port, e2e_env, tmp_path / "node1")
    assert 0 not in _finish_both(node0, node1)
    error = by_type(node0.events, "error")[-1]
    assert error["kind"] == "distributed" and "node 1" in error["message"], error["message"]
    assert not by_type(node0.events, "batch")


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
