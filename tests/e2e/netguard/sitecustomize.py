"""Loaded by every Python process of an e2e test run (via PYTHONPATH): fail on any network attempt, and
apply the delays or the hold a test asked for (``injected_delays``, when ``YOLOSTUDIO_TEST_DELAYS`` or
``YOLOSTUDIO_TEST_HOLD`` or ``YOLOSTUDIO_TEST_HOLD_PREDICT`` is set).

A Python audit hook sees every ``socket.connect`` and ``socket.getaddrinfo``; an Internet address or a
name lookup is written to ``$YOLOSTUDIO_NET_AUDIT`` and refused. Local (AF_UNIX) sockets, which torch's
data loaders use between processes, are allowed, and so is this machine's loopback address given as a number
(127.x.x.x, ::1): the DDP tests' "machines" meet there — it never leaves the machine and needs no lookup.
"""

import os
import sys

_LOG = os.environ.get("YOLOSTUDIO_NET_AUDIT")


def _loopback(host) -> bool:
    return isinstance(host, str) and (host.startswith("127.") or host == "::1")


def _hook(event, args):
    if event == "socket.getaddrinfo" and _loopback(args[0]):
        return
    if event == "socket.connect" and isinstance(args[1], tuple) and _loopback(args[1][0]):
        return
    if event == "socket.getaddrinfo" or (event == "socket.connect" and isinstance(args[1], tuple)):
        with open(_LOG, "a", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()} {event} {args!r}\n")
        raise ConnectionRefusedError(f"network access attempted in an offline test: {event} {args!r}")


if _LOG:
    sys.addaudithook(_hook)

if any(os.environ.get(k) for k in ("YOLOSTUDIO_TEST_DELAYS", "YOLOSTUDIO_TEST_HOLD", "YOLOSTUDIO_TEST_HOLD_PREDICT")):
    import injected_delays

    injected_delays.install()
