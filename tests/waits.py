"""How long a test waits for something asynchronous (a signal, a worker, a background job) before failing.

A wait ends as soon as its condition holds, so a generous limit costs nothing when the code works; it only
bounds how long a broken test hangs. CI runs on 2 shared cores, where a job that takes 2 s alone can take
30 s (the loaded audit of issue 12: the demo dataset's background preparation missed a 20 s limit with both
cores busy). Keep every wait at or above these.
"""

from __future__ import annotations

TIMEOUT_MS = 120_000  # Qt waits (qtbot.waitUntil / waitSignal)
TIMEOUT_S = 120.0  # plain waits
