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

__all__ = ["pg"]
