"""Fault campaign, the DDP rendezvous (issue 23): what another machine could reach or make the launcher run.

Registered in ``bench/faults.py`` as the ``rdzv`` section (``--skip rdzv``); every count but the tries should be 0.

- listeners beyond loopback: a two-rank CPU (gloo) run on one machine, its launcher's and ranks' listening sockets
  once a batch has trained (``tests/fixtures/listeners.py``; before the fix: two on ``*:PORT``);
- a hostile state at the name-derived key: machine 0 of a two-machine run waits for machine 1 while a peer that
  reached the port writes a pickle that creates a marker file under ``torch.rendezvous.<run name>`` (the key
  torch's c10d backend used when the id was the run name). The run id is random now, so the launcher never reads
  it. (It is not a password: a peer that reaches the port can list the store's keys — the trusted network is the
  guard, as PyTorch says.)
- endpoints from a file: ``train --config`` with a meeting point (``rdzv_endpoint``, ``master_addr``) the command line
  does not give: refused with exit 2, and nothing connects to the listening socket at that address.

The deterministic tests of the same cases: ``tests/e2e/test_rdzv_loopback_e2e.py``, ``tests/core/test_distributed.py``
(``test_machine_0_of_several_gets_an_unguessable_run_id…``) and ``tests/cli/test_train_rdzv.py``.
"""

from __future__ import annotations

import base64
import json
import os
import pickle
import socket
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import psutil

from core.training.distributed import endpoint_answers
from tests.fixtures.listeners import beyond_loopback, listening

ROOT = Path(__file__).resolve().parents[1]
#: How long machine 0 is left waiting with the hostile state in the store (it polls the state every few seconds).
WAIT_S = 20.0


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "cli", *args]


def _train(data: Path, name: str, *extra: str) -> list[str]:
    return ["train", str(data), "--model", "yolov5n.yaml", "--epochs", "3", "--imgsz", "64", "--batch", "4",
            "--workers", "1", "--device", "cpu", "--noplots", "--name", name, *extra]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _tree(proc: subprocess.Popen) -> list[psutil.Process]:
    try:
        return psutil.Process(proc.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def _end(proc: subprocess.Popen) -> None:
    procs = _tree(proc)
    for p in [psutil.Process(proc.pid), *procs] if proc.poll() is None else procs:
        try:
            p.kill()
        except psutil.Error:
            pass
    proc.wait(timeout=60)
    psutil.wait_procs(procs, timeout=30)


def local_listeners(data: Path, env: dict[str, str]) -> dict[str, Any]:
    """A two-rank run on this machine: how many of its listeners another machine could reach."""
    proc = subprocess.Popen(_cli(*_train(data, "rdzv-local", "--nproc-per-node", "2"), "--json"), cwd=ROOT, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    found: list[tuple[int, str, str, int]] = []
    reachable: list[tuple[int, str, str, int]] = []
    try:
        for line in proc.stdout:  # type: ignore[union-attr]
            if b'"type":"batch"' in line.replace(b" ", b""):
                procs = _tree(proc)
                found, reachable = listening(procs), beyond_loopback(procs)
                break
    finally:
        _end(proc)
    if reachable:
        print(f"  listeners beyond loopback: {reachable}", file=sys.stderr)
    return {"local DDP listeners seen": len(found), "local DDP listeners beyond loopback": len(reachable)}


class _Marker:
    """Unpickled, it creates the file it names (what a hostile rendezvous state would do)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (self.path, "w"))


def name_key_attack(data: Path, work: Path, env: dict[str, str]) -> dict[str, Any]:
    """A peer writes a hostile state under the key the run name would give; does machine 0 unpickle it?"""
    import torch.distributed as dist

    marker = work / "rdzv-EXECUTED"
    port = _free_port()
    env0 = dict(env, YOLOSTUDIO_WORKSPACE=str(work / "rdzv-node0"))
    proc = subprocess.Popen(_cli(*_train(data, "lan", "--nnodes", "2", "--nproc-per-node", "1", "--rdzv-endpoint",
                                         f"127.0.0.1:{port}"), "--json"), cwd=ROOT, env=env0,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    planted = 0
    try:
        if not endpoint_answers("127.0.0.1", port, wait_s=120):  # machine 0's launcher hosts the store
            return {"name-key attacks": 0, "skipped": "machine 0 did not host its rendezvous"}
        peer = dist.TCPStore("127.0.0.1", port, is_master=False, timeout=timedelta(seconds=30))
        state = base64.b64encode(pickle.dumps(_Marker(str(marker))))
        peer.set("torch.rendezvous.lan", state)  # torch's C10dRendezvousBackend key for run id "lan"
        planted = 1
        time.sleep(WAIT_S)  # a campaign, not a test: machine 0 polls the state while it waits for machine 1
    finally:
        _end(proc)
    return {"name-key attacks": planted, "name-key states unpickled": int(marker.exists())}


def file_endpoints(data: Path, work: Path, env: dict[str, str]) -> dict[str, Any]:
    """``train --config`` naming a meeting point: refused, and nothing connects to it."""
    counts = {"endpoint files": 0, "endpoint files not refused": 0, "connections to a file's endpoint": 0}
    for field in ("rdzv_endpoint", "master_addr"):
        with socket.socket() as trap:
            trap.bind(("127.0.0.1", 0))
            trap.listen(8)
            trap.setblocking(False)
            port = trap.getsockname()[1]
            value = f"127.0.0.1:{port}" if field == "rdzv_endpoint" else "127.0.0.1"
            config = work / f"evil-{field}.json"
            config.write_text(json.dumps({"config": {"data": str(data), "device": "cpu", "nnodes": 2, "node_rank": 1,
                                                     "nproc_per_node": 1, "batch": 4, field: value,
                                                     "master_port": port}}))
            try:
                done = subprocess.run(_cli("train", "--config", str(config)), cwd=ROOT, env=env, capture_output=True,
                                      text=True, timeout=120)
                refused = done.returncode == 2 and value in done.stderr
            except subprocess.TimeoutExpired:  # it connected and waits for the rest of the run
                refused = False
            counts["endpoint files"] += 1
            counts["endpoint files not refused"] += not refused
            try:
                trap.accept()[0].close()  # the kernel completes a connect into the backlog: one here was made
                counts["connections to a file's endpoint"] += 1
            except BlockingIOError:
                pass
    return counts


def campaign(data: Path, work: Path, env: dict[str, str]) -> dict[str, Any]:
    """Every rendezvous case; the counts ``bench/faults.py`` prints."""
    cpu_env = dict(env, CUDA_VISIBLE_DEVICES="", YOLOSTUDIO_WORKSPACE=str(work / "rdzv-ws"))
    os.makedirs(work / "rdzv-ws", exist_ok=True)
    return {**local_listeners(data, cpu_env), **name_key_attack(data, work, cpu_env),
            **file_endpoints(data, work, cpu_env)}
