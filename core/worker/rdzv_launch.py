"""The app's torchrun: ``python -m core.worker.rdzv_launch <torchrun flags> -m core.worker train SPEC``.

Why it exists: ``torchrun --standalone`` (and every c10d rendezvous) hosts its stores with
``TCPStore(is_master=True)``, whose server binds the wildcard address whatever host it is given — measured on
torch 2.14: two listeners on ``*:PORT`` (the rendezvous store and the agent's store the ranks bootstrap from)
on every DDP run, even with ``--rdzv-endpoint 127.0.0.1:P``. The c10d rendezvous keeps its state there as a
pickle (``c10d_rendezvous_backend``), so whoever reaches the port can make the launcher unpickle what they wrote.

A run on one machine (or several "machines" meeting at a 127.0.0.1 endpoint) therefore meets through the
``LOOPBACK_BACKEND`` rendezvous registered here: torch's own
c10d rendezvous and dynamic handler (``create_handler``), with both stores served from a socket this module bound
to 127.0.0.1 and hands to the store (``TCPStore(master_listen_fd=...)``, a documented parameter). The ranks are
the agent store's clients (``TORCHELASTIC_USE_AGENT_STORE``, so no rank hosts one) at ``MASTER_ADDR`` =
``--local_addr 127.0.0.1``, and gloo/NCCL open their own listeners on the interface ``GLOO_SOCKET_IFNAME`` /
``NCCL_SOCKET_IFNAME`` name: the loopback interface. ``tests/e2e/test_rdzv_loopback_e2e.py`` proves it on a
real two-rank run (every listening socket of the launcher and its ranks on 127.0.0.1).

Several machines must listen beyond this one: they keep torch's ``c10d`` backend unchanged, with a random run id
(``core.training.distributed``) on a network the user trusts (PyTorch's own guidance, see docs/architecture.md).
"""

from __future__ import annotations

import os
import socket
import sys
from typing import Any

from core.job.torchrun import LOOPBACK_BACKEND, LOOPBACK_HOST

#: Environment that would make a rank host its own store (on the wildcard address) instead of using the agent's.
_SHARE_OFF = "TORCH_DISABLE_SHARE_RDZV_TCP_STORE"


def loopback_interface() -> str:
    """The name of the interface holding 127.0.0.1 (``lo`` on Linux, ``lo0`` on macOS), for gloo and NCCL."""
    import psutil

    for name, addresses in psutil.net_if_addrs().items():
        if any(a.family == socket.AF_INET and a.address == LOOPBACK_HOST for a in addresses):
            return name
    raise RuntimeError(f"no network interface holds {LOOPBACK_HOST}; cannot keep the run on this machine")


def loopback_store(port: int = 0, **kwargs: Any) -> Any:
    """A ``TCPStore`` server listening on 127.0.0.1 only: the socket is bound here and handed over."""
    import torch.distributed as dist

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((LOOPBACK_HOST, port))
        listener.listen(socket.SOMAXCONN)
        bound = listener.getsockname()[1]
        fd = listener.detach()  # the store owns the descriptor from here on
    except BaseException:
        listener.close()
        raise
    kwargs.setdefault("multi_tenant", True)
    return dist.TCPStore(LOOPBACK_HOST, bound, is_master=True, master_listen_fd=fd, wait_for_workers=False,
                         **kwargs)


def _create_loopback_handler(params: Any) -> Any:
    """torch's dynamic c10d rendezvous, its two stores on 127.0.0.1 (``params``: ``RendezvousParameters``)."""
    from datetime import timedelta

    from torch.distributed.elastic.rendezvous.c10d_rendezvous_backend import C10dRendezvousBackend
    from torch.distributed.elastic.rendezvous.dynamic_rendezvous import DynamicRendezvousHandler, create_handler

    if not hasattr(DynamicRendezvousHandler, "_create_tcp_store_server"):
        # A torch whose handler opens the agent's store elsewhere: refuse rather than listen on every interface.
        raise RuntimeError("this torch's rendezvous handler has no _create_tcp_store_server; "
                           "YOLO Studio cannot keep its store on 127.0.0.1")
    timeout = timedelta(seconds=int(params.get_as_int("read_timeout", 60) or 60))
    class LoopbackBackend(C10dRendezvousBackend):
        @property
        def name(self) -> str:  # the registry checks the handler's backend against the requested name
            return LOOPBACK_BACKEND

    store = _rendezvous_store(params.endpoint, timeout)
    handler = create_handler(store, LoopbackBackend(store, params.run_id), params)
    handler._create_tcp_store_server = lambda _addr, _port: loopback_store()  # the ranks' store too
    return handler


def _rendezvous_store(endpoint: str, timeout: Any) -> Any:
    """The rendezvous store at ``127.0.0.1:PORT``: port 0 (one machine) is always hosted here; a given port is
    hosted by the first launcher that binds it, and the others on this machine join it as clients (torch's own
    c10d backend makes the same second attempt)."""
    import torch.distributed as dist

    port = int(endpoint.rpartition(":")[2] or 0)
    if port == 0:
        return loopback_store(timeout=timeout)
    try:
        return loopback_store(port, timeout=timeout)
    except OSError:  # another launcher of this run hosts it already
        return dist.TCPStore(LOOPBACK_HOST, port, is_master=False, timeout=timeout)


def keep_ranks_local(env: dict[str, str]) -> None:
    """The ranks' own listeners (gloo's pairs, NCCL's bootstrap) on the loopback interface, and no rank store."""
    interface = loopback_interface()
    env["GLOO_SOCKET_IFNAME"] = interface
    env["NCCL_SOCKET_IFNAME"] = interface
    env.pop(_SHARE_OFF, None)


def main(argv: list[str] | None = None) -> None:
    from torch.distributed.elastic.rendezvous import rendezvous_handler_registry
    from torch.distributed.run import main as torchrun_main

    args = sys.argv[1:] if argv is None else argv
    rendezvous_handler_registry.register(LOOPBACK_BACKEND, _create_loopback_handler)
    if LOOPBACK_BACKEND in args:
        keep_ranks_local(os.environ)  # type: ignore[arg-type] - os.environ is a str mapping
    torchrun_main(args)


if __name__ == "__main__":
    main()
