"""Loaded by every Python process of the Ray confinement test (via PYTHONPATH): write each name lookup and each
Internet connect to ``$YOLOSTUDIO_LOOKUP_AUDIT`` without refusing it.

Unlike ``tests/e2e/netguard`` (which refuses, and so stops Ray from starting: Ray's processes look up their own
host name), this one only records, so a test can say which lookups a local Ray makes — none of the cloud
metadata servers — while the loopback namespace keeps any of them from leaving the computer.
"""

import os
import sys

_LOG = os.environ.get("YOLOSTUDIO_LOOKUP_AUDIT")


def _hook(event, args):
    if event == "socket.getaddrinfo" or (event == "socket.connect" and isinstance(args[1], tuple)):
        with open(_LOG, "a", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()} {event} {args!r}\n")


if _LOG:
    sys.addaudithook(_hook)
