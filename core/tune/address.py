"""``--ray-address`` / ``RAY_ADDRESS`` checked before Ray sees it: an address nothing answers on is an error in
seconds, in words.

Why: Ray 2.60's ``ray.init(address="127.0.0.1:1")`` with nothing listening prints nothing to the user and
retries its GCS connection for minutes (measured: each try waits ~36 s — "Failed to connect to GCS … within 5
seconds", then "Timed out while waiting for GCS" after 30 s — and ``Node._init_gcs_client`` tries
``NUM_REDIS_GET_RETRIES`` times, ``ray/_private/node.py``), while the main thread sits in C++ where no Ctrl+C or
SIGTERM handler runs. So ``yolostudio tune``, the Tune page and the tune worker first open a TCP connection to
the address (the GCS port of ``ray start --head --port=6379``, or a Ray Client's ``ray://HOST:10001``), with a
short timeout; and the worker bounds Ray's own retries (``RAY_gcs_server_port_wait_time_s``, read by that loop).
``auto`` and ``local`` are Ray's own words (find the running cluster / start one) and are left to Ray.
"""

from __future__ import annotations

import socket

from core.i18n import tr

#: How long the connection may take: a cluster on a LAN answers in milliseconds.
CONNECT_TIMEOUT_S = 3.0
#: Ray's own addresses that name no host (``ray._private.services.canonicalize_bootstrap_address``).
RAY_WORDS = ("auto", "local")


def address_target(address: str) -> tuple[str, int] | None:
    """(host, port) of ``HOST:PORT``, ``[V6]:PORT`` or ``ray://HOST:PORT``; None for ``auto``/``local``/empty;
    ``ValueError`` for anything else."""
    text = address.strip()
    if not text or text.lower() in RAY_WORDS:
        return None
    if text.startswith("ray://"):
        text = text[len("ray://"):]
    host, sep, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(address)
    return host, int(port)


def unreachable_words(address: str, timeout_s: float = CONNECT_TIMEOUT_S) -> tuple[str, str] | None:
    """None when ``address`` answers (or is Ray's ``auto``/``local``); else (message, way out)."""
    hint = tr("Start the cluster first (ray start --head --port=6379 on its first machine), check the address and "
              "that no firewall is in the way, or leave --ray-address and RAY_ADDRESS unset for a search on this "
              "computer only.")
    try:
        target = address_target(address)
    except ValueError:
        return (tr("The Ray address \"{address}\" is not HOST:PORT (for example 10.0.0.5:6379).", address=address),
                hint)
    if target is None:
        return None
    try:
        with socket.create_connection(target, timeout=timeout_s):
            return None
    except socket.timeout:
        reason = tr("no answer within {seconds:g} s", seconds=timeout_s)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
    return (tr("No Ray cluster answers at {address} ({reason}).", address=address, reason=reason), hint)
