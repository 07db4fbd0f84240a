"""The one torchrun (``torch.distributed.run``) command builder: DDP on one machine or several, never DataParallel.

Pure: an entry (``["-m", "yolov5.train", ...]`` or a script and its arguments) and a ``Topology`` give the
argv. Every place that shows or starts a distributed launch builds it here — the environment checker's
fix for several GPUs, the wizard's commands to copy, and the multi-GPU launcher — so the flags, their
spelling and the defaults agree. The underscore spellings (``--nproc_per_node``) are used because every
torch since 1.9 accepts them (the dashed aliases came later), so a command copied to an older cluster works.

One node uses ``--standalone`` (a local rendezvous on a free port: no "Address already in use"); several
nodes use either a static master (``--nnodes --node_rank --master_addr --master_port``: one command per
node, each with its rank) or the elastic c10d rendezvous (``--rdzv_backend c10d --rdzv_endpoint HOST:PORT
--rdzv_id JOB``: the same command on every node, ranks assigned as nodes join).

The app's own launches (``app_launch_argv``) go through ``core.worker.rdzv_launch`` instead: one machine meets
through its ``LOOPBACK_BACKEND`` (every store and rank listener on 127.0.0.1, where ``--standalone`` listens on
every interface); several machines use c10d as above, with the run's random id. The commands shown for a user
to copy keep plain torchrun.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

DEFAULT_MASTER_PORT = 29500
DEFAULT_RDZV_PORT = 29400
#: The rendezvous ``core.worker.rdzv_launch`` registers for a run on one machine, and the address it keeps to.
LOOPBACK_BACKEND = "yolostudio-loopback"
LOOPBACK_HOST = "127.0.0.1"
#: The app's launcher module (torch.distributed.run plus the loopback rendezvous).
APP_LAUNCHER = "core.worker.rdzv_launch"


@dataclass(frozen=True)
class Topology:
    """Where the ranks run: processes per node, how many nodes, and how they find each other."""

    nproc_per_node: int
    nnodes: int = 1
    node_rank: int = 0
    master_addr: str = ""  # static rendezvous: the address of node 0, reachable from every node
    master_port: int = DEFAULT_MASTER_PORT
    rdzv_endpoint: str = ""  # elastic rendezvous "HOST:PORT" (c10d) instead of master_addr/port
    rdzv_id: str = "yolostudio"

    @property
    def world_size(self) -> int:
        return self.nproc_per_node * self.nnodes


def torchrun_argv(entry: Sequence[str], topology: Topology, python: str = "python") -> list[str]:
    """``python -m torch.distributed.run <topology flags> <entry...>`` for one node of ``topology``."""
    if topology.nproc_per_node < 1 or topology.nnodes < 1:
        raise ValueError("a topology needs at least one process on one node")
    argv = [python, "-m", "torch.distributed.run", "--nproc_per_node", str(topology.nproc_per_node)]
    if topology.nnodes == 1 and not topology.rdzv_endpoint:
        argv.append("--standalone")
    elif topology.rdzv_endpoint:
        argv += ["--nnodes", str(topology.nnodes), "--rdzv_backend", "c10d", "--rdzv_endpoint",
                 topology.rdzv_endpoint, "--rdzv_id", topology.rdzv_id]
    else:
        if not topology.master_addr:
            raise ValueError("several nodes need the master's address (or a rendezvous endpoint)")
        argv += ["--nnodes", str(topology.nnodes), "--node_rank", str(topology.node_rank), "--master_addr",
                 topology.master_addr, "--master_port", str(topology.master_port)]
    return [*argv, *entry]


def is_loopback_endpoint(endpoint: str) -> bool:
    """``127.0.0.1:P`` / ``localhost:P`` / ``[::1]:P``: every "machine" of the run is this one (tests, a try-out),
    so its rendezvous can stay on loopback too."""
    host, sep, _port = endpoint.strip().rpartition(":")
    return bool(sep) and host.strip("[]").lower() in ("127.0.0.1", "localhost", "::1")


def app_launch_argv(entry: Sequence[str], topology: Topology, python: str = "python") -> list[str]:
    """The app's launch of one node: ``python -m core.worker.rdzv_launch`` with torchrun's flags. One machine
    (or several "machines" meeting at a loopback endpoint) meets on 127.0.0.1 only (``LOOPBACK_BACKEND``, ranks
    at ``--local_addr 127.0.0.1``) under the topology's run id; several machines get ``torchrun_argv``'s flags."""
    local = topology.nnodes == 1 and not topology.rdzv_endpoint
    if local or is_loopback_endpoint(topology.rdzv_endpoint):
        if topology.nproc_per_node < 1:
            raise ValueError("a topology needs at least one process on one node")
        endpoint = f"{LOOPBACK_HOST}:0" if local else f"{LOOPBACK_HOST}:{topology.rdzv_endpoint.rpartition(':')[2]}"
        return [python, "-m", APP_LAUNCHER, "--nproc_per_node", str(topology.nproc_per_node), "--nnodes",
                str(topology.nnodes), "--rdzv_backend", LOOPBACK_BACKEND, "--rdzv_endpoint", endpoint, "--rdzv_id",
                topology.rdzv_id, "--local_addr", LOOPBACK_HOST, *entry]
    argv = torchrun_argv(entry, topology, python)
    return [python, "-m", APP_LAUNCHER, *argv[3:]]


def node_commands(entry: Sequence[str], topology: Topology, python: str = "python") -> list[list[str]]:
    """The command for every node, node 0 first (static master: each with its own ``--node_rank``)."""
    return [torchrun_argv(entry, replace(topology, node_rank=rank), python) for rank in range(topology.nnodes)]
