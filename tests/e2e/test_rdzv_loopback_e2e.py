"""A DDP run on one machine is not reachable from another: a real two-rank CPU (gloo) run through the app, and
every listening socket of its launcher and ranks is on the loopback address (``core.worker.rdzv_launch``).

The sockets are read with psutil (``ss -ltnp`` shows the same table: the test names any offender with its pid,
command and address). No clock is asserted: the check runs once the ranks have trained a batch (every store and
every gloo pair is up by then), then the run is stopped.
"""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import psutil
import pytest

from core.demo_dataset import DemoSpec, generate_demo_dataset
from tests.e2e.conftest import Cli, train_args

pytestmark = pytest.mark.e2e

LOOPBACK = {"127.0.0.1", "::1", "::ffff:127.0.0.1"}


def listening(procs: list[psutil.Process]) -> list[tuple[int, str, str, int]]:
    """(pid, command, address, port) of every TCP listener and bound UDP socket the processes hold."""
    out = []
    for proc in procs:
        try:
            conns = proc.net_connections(kind="inet")
            command = " ".join(proc.cmdline()[:4])
        except psutil.Error:
            continue  # a data-loader worker that ended meanwhile holds nothing
        for conn in conns:
            if conn.laddr and (conn.status == psutil.CONN_LISTEN or conn.type == socket.SOCK_DGRAM and not conn.raddr):
                out.append((proc.pid, command, conn.laddr.ip, conn.laddr.port))
    return out


def test_two_ranks_on_one_machine_listen_on_loopback_only(tmp_path: Path, e2e_env: dict[str, str]):
    data = generate_demo_dataset(tmp_path / "small", DemoSpec(n_train=16, n_val=4, image_size=64, seed=5))
    cli = Cli(train_args(data, name="local-ddp", epochs=3, batch=4, extra=("--noplots", "--nproc-per-node", "2")),
              e2e_env)
    try:
        cli.wait_for(lambda e: e["type"] == "batch")
        procs = psutil.Process(cli.proc.pid).children(recursive=True)
        assert sum("core.worker" in " ".join(p.cmdline()) for p in procs) >= 3  # the launcher and two ranks
        sockets = listening(procs)
        # The launcher's two stores (rendezvous, agent) and the ranks' gloo pairs: none may be on '*' or the LAN.
        assert len(sockets) >= 2, sockets
        assert [s for s in sockets if s[2] not in LOOPBACK] == [], sockets
        cli.proc.stdin.write(b'{"v":1,"type":"stop"}\n')  # the Stop button / yolostudio stop
        cli.proc.stdin.flush()
        assert cli.finish() == 3, cli.stderr()  # 3 = stopped: the loopback rendezvous trains and stops as before
    finally:
        if cli.proc.poll() is None:
            cli.proc.kill()
            try:
                cli.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                pass
