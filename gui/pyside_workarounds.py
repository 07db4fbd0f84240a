"""Work-around for a PySide6 reference-count defect that crashes the app on Python < 3.12. Applied on import of ``gui``.

PySide6 6.12.0 returns ``None`` from every void method (``setText``, ``QPainter.drawLine`` …) without
taking a reference to it. It does the same with ``True`` from ``SignalInstance.emit()`` and
``.disconnect()``. On Python 3.12+ those objects are immortal, so nothing happens. On Python 3.11 every
such call drops one reference for good. pyqtgraph draws and emits many times a second, so within
minutes CPython aborts with "Fatal Python error: none_dealloc: deallocating None" (or ``bool_dealloc``).

The fix does what Python 3.12 does: it makes these three singletons immortal. Their reference count is
raised so far (2**60) that the lost references can never bring it to zero. They are never freed
anyway, so nothing else changes. ``install()`` checks for the defect first. On a sound PySide6, or on
Python 3.12+, it does nothing.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Any, Callable

from PySide6.QtCore import QObject, Signal

_PROBES = 16
_IMMORTAL = 1 << 60
_SINGLETONS = (None, True, False)
pinned: list[bool] = []  # non-empty once install() has run; [True] when the work-around is active


class _Probe(QObject):
    ping = Signal()


def drops_references(obj: Any, call: Callable[[], Any]) -> bool:
    """True when each ``call()`` loses one reference to ``obj`` (measured over a few calls)."""
    before = sys.getrefcount(obj)
    for _ in range(_PROBES):
        call()
    return before - sys.getrefcount(obj) >= _PROBES


def defect_present() -> bool:
    probe = _Probe()
    return (drops_references(None, lambda: probe.setObjectName("probe"))
            or drops_references(True, probe.ping.emit))


def install() -> bool:
    """Make None/True/False immortal if this PySide6 loses references to them; True when applied."""
    if pinned:
        return pinned[0]
    active = sys.version_info < (3, 12) and defect_present()
    if active:
        for obj in _SINGLETONS:
            ctypes.c_ssize_t.from_address(id(obj)).value += _IMMORTAL  # ob_refcnt is the first field
    pinned.append(active)
    return active
