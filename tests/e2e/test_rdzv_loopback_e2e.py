"""A DDP run on one machine is not reachable from another: a real two-rank CPU (gloo) run through the app, and
every listening socket of its launcher and ranks is on the loopback address (``core.worker.rdzv_launch``).

The sockets are read with psutil (``ss -ltnp`` shows the same table: the test names any offender with its pid,
command and address). No clock is asserted: the check runs once the ranks have trained a batch (every store and
every gloo pair is up by then), then the run is stopped (while held at a step: ``Hold``).
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import time
from pathlib import Path

import psutil
import pytest

from core.demo.dataset import DemoSpec, generate_demo_dataset
from tests.e2e.conftest import Cli, stop_while_held, train_args
from tests.fixtures.listeners import LOOPBACK, beyond_loopback, listening, ss_listening

pytestmark = pytest.mark.e2e


def test_two_ranks_on_one_machine_listen_on_loopback_only(tmp_path: Path, e2e_env: dict[str, str], held):
    data = generate_demo_dataset(tmp_path / "small", DemoSpec(n_train=16, n_val=4, image_size=64, seed=5))
    hold = held(2)  # the ranks wait in their second step until the stop is taken: it cannot miss
    cli = Cli(train_args(data, name="local-ddp", epochs=3, batch=4, extra=("--nproc-per-node", "2")),
              hold.env(e2e_env))
    try:
        cli.wait_for(lambda e: e["type"] == "batch")
        procs = psutil.Process(cli.proc.pid).children(recursive=True)
        assert sum("core.worker" in " ".join(p.cmdline()) for p in procs) >= 3  # the launcher and two ranks
        sockets = listening(procs)
        # The launcher's two stores (rendezvous, agent) and the ranks' gloo pairs: none may be on '*' or the LAN.
        assert len(sockets) >= 2, sockets
        assert beyond_loopback(procs) == [], sockets
        seen_by_ss = ss_listening({p.pid for p in procs})  # the same table as the issue read it (None: no ss)
        assert seen_by_ss is None or [s for s in seen_by_ss if s[1] not in LOOPBACK] == [], seen_by_ss

        def stop() -> None:  # the Stop button / yolostudio stop
            cli.proc.stdin.write(b'{"v":1,"type":"stop"}\n')
            cli.proc.stdin.flush()

        stop_while_held(cli, hold, stop)
        assert cli.finish() == 3, cli.stderr()  # 3 = stopped: the loopback rendezvous trains and stops as before
    finally:
        if cli.proc.poll() is None:
            cli.proc.kill()
            try:
                cli.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                pass


def test_machine_0_keeps_its_rendezvous_state_under_the_random_run_id_not_the_run_name(tmp_path: Path,
                                                                                        e2e_env: dict[str, str]):
    """The state torch unpickles lives at ``torch.rendezvous.<run id>``; with the run name as the id a peer could
    plant a pickle there without looking (``bench/faults_rdzv.py`` shows the launcher unpickling it)."""
    from datetime import timedelta

    import torch.distributed as dist

    from core.training.distributed import endpoint_answers
    from tests.e2e.test_ddp_e2e import _free_port

    data = generate_demo_dataset(tmp_path / "small", DemoSpec(n_train=16, n_val=4, image_size=64, seed=5))
    port = _free_port()
    node0 = Cli(train_args(data, name="lan", epochs=1, batch=4, extra=(
        "--nnodes", "2", "--nproc-per-node", "1", "--rdzv-endpoint", f"127.0.0.1:{port}")), e2e_env)
    try:
        assert endpoint_answers("127.0.0.1", port, wait_s=120)  # machine 0's launcher hosts the store
        peer = dist.TCPStore("127.0.0.1", port, is_master=False, timeout=timedelta(seconds=60))
        keys: list[str] = []
        for _attempt in range(240):  # until the launcher has written its state (it does so as it joins)
            keys = [k for k in peer.list_keys() if k.startswith("torch.rendezvous.")]
            if keys:
                break
            time.sleep(0.5)
        assert keys and "torch.rendezvous.lan" not in keys, keys
        run_id = keys[0].removeprefix("torch.rendezvous.")
        assert re.fullmatch(r"[0-9a-f]{32}", run_id), keys  # core.training.distributed.new_run_id, not the run name
    finally:
        procs = [psutil.Process(node0.proc.pid), *psutil.Process(node0.proc.pid).children(recursive=True)]
        for proc in procs:
            with contextlib.suppress(psutil.Error):
                proc.kill()
        psutil.wait_procs(procs, timeout=60)
