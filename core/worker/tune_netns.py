"""A local Ray on loopback only, offline: the tune worker enters a network namespace whose one interface is lo.

Why a namespace and not options (measured with Ray 2.60 in ``tests/e2e/test_tune_ray.py``, read in its source):
``gcs_server``, ``raylet`` and every Ray worker's gRPC server listen on the wildcard address (``::``) and the
runtime-env agent on the host's address, whatever ``ray.init(_node_ip_address=...)`` says — Ray's C++
``GrpcServer`` binds ``0.0.0.0``/``[::]`` and no option or variable of ``ray/_private/services.py`` changes it.
With ``include_dashboard=False`` the dashboard head still runs its ``UsageStatsHead`` module
(``services.start_api_server``: ``--modules-to-load=UsageStatsHead``), whose ``run`` asks the cloud metadata
servers (``usage_lib.get_cluster_config_to_report`` → ``get_cloud_from_metadata_requests``: 169.254.169.254,
metadata.google.internal) before it looks at ``RAY_USAGE_STATS_ENABLED``.

So the worker of a local search unshares a user and a network namespace (``unshare(CLONE_NEWUSER |
CLONE_NEWNET)``, its uid and gid mapped to themselves, so files stay the user's) and brings ``lo`` up. Every Ray
process and every trial's training worker inherits it: nothing can listen beyond this computer and nothing can
leave it. The probe itself is skipped too (``quiet_ray_home``). A namespace can only be entered by a
single-threaded process, so ``core/worker/__main__`` calls ``confine_local_search`` before it starts any thread.
Where no namespace can be made (not Linux, user namespaces disabled), the search refuses to start a local Ray
that would listen on the LAN (``refusal``), and names the way out: ``--ray-address`` to a cluster the user runs.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import socket
import struct
import sys
from pathlib import Path
from typing import Any

from core.i18n import tr

CLONE_NEWUSER = 0x10000000  # linux/sched.h
CLONE_NEWNET = 0x40000000
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1  # linux/sockios.h, linux/if.h
IFREQ = "16sH14s"  # struct ifreq: the name, then ifr_flags (a short) in the union
#: The spec key the worker sets when it could not confine a local Ray; ``run_tune`` refuses with it.
REFUSED_KEY = "local_ray_refused"


def enter_loopback_namespace() -> str:
    """Put this process in a new network namespace with only ``lo``, up; "" on success, else why not."""
    if sys.platform != "linux":
        return tr("network namespaces are a Linux feature ({platform} has none)", platform=sys.platform)
    if len(os.listdir("/proc/self/task")) > 1:
        return tr("the worker already runs threads, and only a single-threaded process can enter a namespace")
    uid, gid = os.getuid(), os.getgid()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0:
        errno = ctypes.get_errno()
        return tr("this system does not allow user network namespaces ({reason})", reason=os.strerror(errno))
    try:
        Path("/proc/self/setgroups").write_text("deny", encoding="ascii")
        Path("/proc/self/uid_map").write_text(f"{uid} {uid} 1", encoding="ascii")
        Path("/proc/self/gid_map").write_text(f"{gid} {gid} 1", encoding="ascii")
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            flags = struct.unpack(IFREQ, fcntl.ioctl(sock, SIOCGIFFLAGS, struct.pack(IFREQ, b"lo", 0, b"")))[1]
            fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack(IFREQ, b"lo", flags | IFF_UP, b""))
    except OSError as exc:
        return tr("the namespace could not be set up ({reason})", reason=exc)
    names = interfaces()
    if names != ["lo"]:
        return tr("the namespace holds other interfaces ({names})", names=", ".join(names))
    return ""


def interfaces() -> list[str]:
    """The network interfaces this process sees (its namespace's)."""
    return sorted(name for _index, name in socket.if_nameindex())


def confine_local_search(spec: dict[str, Any]) -> None:
    """Before a local search starts Ray: enter the loopback namespace, or record why not under ``REFUSED_KEY``
    (``run_tune`` then refuses). A search on a cluster the user named (``ray_address``) is left as it is."""
    if spec.get("ray_address"):
        return
    reason = enter_loopback_namespace()
    if reason:
        spec[REFUSED_KEY] = reason


def refusal(reason: str) -> tuple[str, str]:
    """The words of a refused local search: what would happen, why, and the way out."""
    return (tr("A local Ray would listen on this computer's network (Ray's servers bind every interface), and "
               "it cannot be confined to loopback here: {reason}.", reason=reason),
            tr("Run the search on a Ray cluster you start yourself: ray start --head, then yolostudio tune … "
               "--ray-address HOST:6379 (or set RAY_ADDRESS)."))


def quiet_ray_home(temp_dir: Path) -> Path:
    """A home folder for Ray's own processes whose ``ray_bootstrap_config.yaml`` (an empty cluster config)
    makes the dashboard's usage module skip its cloud metadata requests: ``get_cluster_config_to_report``
    asks the metadata servers only when that file is missing. The trials' training gets the user's home back
    (``base["home"]``)."""
    home = temp_dir / "home"
    home.mkdir(parents=True, exist_ok=True)
    (home / "ray_bootstrap_config.yaml").write_text("{}\n", encoding="utf-8")
    return home
