"""pyqtgraph, configured once for the app: every plot widget imports ``pg`` from here.

Importing pyqtgraph costs about 0.3 s (and pulls in numpy), so it happens when the first plot is
built, never at start-up (issue 15; ``tests/gui/test_startup.py``). OpenGL stays off: offscreen and
remote sessions flood warnings with it on, and the raster engine is fast enough with 1 px pens.
"""

from __future__ import annotations

import pyqtgraph as pg

pg.setConfigOptions(useOpenGL=False, antialias=True)

__all__ = ["pg"]
