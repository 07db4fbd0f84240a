"""pyqtgraph, configured once for the app: every plot widget imports ``pg`` from here.

Importing pyqtgraph costs about 0.3 s (and pulls in numpy), so it happens when the first plot is
built, never at start-up (issue 15; ``tests/gui/test_startup.py``). OpenGL stays off: offscreen and
remote sessions flood warnings with it on, and the raster engine is fast enough with 1 px pens.

pyqtgraph's ``RawImageWidget`` tries ``cuda.bindings`` (cuda-python, installed with torch) at import, to draw
arrays that live on a GPU; the app draws none, the GUI process loads no GPU library, and the probe cost 0.12 s
of the 0.65 s import here. A ``None`` in ``sys.modules`` while pyqtgraph is imported makes that import fail at
once, as pyqtgraph expects when cuda-python is absent; it is taken out again, so nothing else is affected.
"""

from __future__ import annotations

import sys

_HIDE_CUDA = "cuda.bindings" not in sys.modules
if _HIDE_CUDA:
    sys.modules["cuda.bindings"] = None  # type: ignore[assignment]
try:
    import pyqtgraph as pg
finally:
    if _HIDE_CUDA and sys.modules.get("cuda.bindings", False) is None:
        del sys.modules["cuda.bindings"]

pg.setConfigOptions(useOpenGL=False, antialias=True)


def whole_ticks(levels: list[tuple[float, list[float]]], low: float, high: float) -> list[tuple[float, list[float]]]:
    """pyqtgraph's tick levels with only whole numbers kept: an axis of epochs or trials never reads "1.5"
    (issue 32: Compare showed epoch 1.5 between two epochs); a range too short for any still ticks each one."""
    kept = [(max(spacing, 1.0), [v for v in values if abs(v - round(v)) < 1e-9])
            for spacing, values in levels]
    kept = [(spacing, values) for spacing, values in kept if values]
    if kept:
        return kept
    first, last = int(-(-low // 1)), int(high // 1)
    return [(1.0, [float(v) for v in range(first, last + 1)])]


class WholeNumberAxis(pg.AxisItem):
    """An axis whose ticks are whole numbers only (epochs, trials)."""

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list:  # noqa: N802,N803 - pyqtgraph's
        return whole_ticks(super().tickValues(minVal, maxVal, size), minVal, maxVal)


__all__ = ["pg", "WholeNumberAxis", "whole_ticks"]
