"""A DDP rank that is gone, and this rank's launcher: the words that name the lost rank, and the signals.

Why apart from ``core.worker.ddp`` (the ranks' agreement and per-batch exchange): ending well when a peer is
lost is its own job — torchrun's agent SIGTERMs the survivors (``watch_launcher`` turns that into
``LauncherEnded`` so rank 0 still reports), an agent killed with SIGKILL leaves ranks training alone (the
watch ends them), and ``lost_rank_error`` names which rank, where, and what was seen.
"""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from typing import Any, Callable

from core.i18n import tr

def _alive(pid: int) -> bool:
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def lost_peers(peers: list[dict[str, Any]], alive: Callable[[int], bool] = _alive) -> list[dict[str, Any]]:
    """The ranks on this host whose process is gone (other hosts' processes can't be seen from here)."""
    host = socket.gethostname()
    return [p for p in peers if p.get("host") == host and p.get("pid") != os.getpid() and not alive(int(p["pid"]))]


def explain_lost_peer(peers: list[dict[str, Any]], reason: str,
                      alive: Callable[[int], bool] = _alive) -> tuple[str, str]:
    """(message, hint) for a run that ended because a rank is gone: which rank, where, and what was seen."""
    gone = lost_peers(peers, alive)
    if gone:
        names = ", ".join(tr("rank {rank} (node {node}, {host}, pid {pid})", rank=p["rank"], node=p["node"],
                             host=p["host"], pid=p["pid"]) for p in gone)
        message = tr("{names} ended unexpectedly (killed, out of memory, or crashed); the whole run stopped. "
                     "Seen here: {reason}", names=names, reason=reason)
    else:
        message = tr("Another rank of the run was lost (a process ended, or a node became unreachable); the "
                     "whole run stopped. Seen here: {reason}", reason=reason)
    return message, tr("Look at that rank's worker log (worker.rank<N>.log in the run folder of its node) and the "
                       "launcher's output; fix the cause, then resume: the last checkpoint is kept.")


class LauncherEnded(Exception):
    """The launcher (torchrun's agent) asked this rank to end (SIGTERM: another rank failed), or is gone."""


_handler_pid: int | None = None


def _on_sigterm(signum: int, frame: Any) -> None:
    if os.getpid() != _handler_pid:
        # A forked child (a data-loader or label-cache worker) inherited the handler: it must die as by default,
        # or multiprocessing's pool, which ends its workers with SIGTERM, waits forever for them.
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    quiet_signals()
    raise LauncherEnded(tr("the launcher ended this rank (signal {signum})", signum=signum))


def quiet_signals() -> None:
    """While a failing rank reports: no second SIGTERM, and no "DataLoader worker killed" raised from torch's
    SIGCHLD handler (torchrun ends the loaders too) — either would replace the report that names the cause."""
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if hasattr(signal, "SIGCHLD"):
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)


def watch_launcher(interval_s: float = 1.0, grace_s: float = 15.0) -> None:
    """A SIGTERM from torchrun's agent becomes an exception (so rank 0 still reports the failure), and a rank
    whose agent vanished (killed with SIGKILL) ends itself instead of training on alone."""
    global _handler_pid
    if threading.current_thread() is threading.main_thread():
        _handler_pid = os.getpid()
        signal.signal(signal.SIGTERM, _on_sigterm)
    agent = os.getppid()

    def watch() -> None:
        while os.getppid() == agent:
            time.sleep(interval_s)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(grace_s)  # blocked in a collective that never returns: leave without the report
        os._exit(1)

    threading.Thread(target=watch, name="launcher-watch", daemon=True).start()


_DISTRIBUTED_WORDS = ("gloo", "nccl", "connection closed", "connection reset", "broken pipe", "peer",
                      "distbackenderror", "store", "timed out")


def lost_rank_error(peers: list[dict[str, Any]], exc: BaseException) -> BaseException:
    """The ``JobError`` naming the lost rank when ``exc`` came from losing one; else ``exc`` itself."""
    from core.worker.job import JobError

    text = f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"
    if not (isinstance(exc, LauncherEnded) or lost_peers(peers)
            or any(word in text.lower() for word in _DISTRIBUTED_WORDS)):
        return exc
    quiet_signals()
    message, hint = explain_lost_peer(peers, text)
    return JobError("distributed", message, hint)
