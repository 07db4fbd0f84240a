"""Compatibility fix 12 (``core/worker/compat.py``): training with ``noval`` ("Validate only at the end").

yolov5 7.0.14's ``train.train`` (``yolov5/train.py`` of the PyPI package) sets ``maps = np.zeros(nc)`` and
``results = (0, ...)`` before the epoch loop (lines 271-272), but the per-class mAP@0.5 list it added,
``map50s``, is only ever assigned by validation: ``results, maps, map50s, _ = validate.run(...)`` at line 372,
under ``if not noval or final_epoch``. Line 389, ``log_vals = ... + list(maps) + list(map50s)``, runs every
epoch, so with ``noval`` the first epoch that is not the last raises ``UnboundLocalError: cannot access local
variable 'map50s'`` (measured: ``tests/e2e/test_noval_e2e.py`` fails that way without this fix). The fix
initialises ``map50s`` on line 271 beside ``maps``, as yolov5 does for ``maps`` itself — a skipped epoch then
logs the zeros yolov5 logs for its ``maps`` and ``results``, and the final epoch is validated as before.
The line count is kept, so tracebacks still point at the package's own lines; a ``train.train`` without the
exact lines is refused rather than trained into the crash.
"""

from __future__ import annotations

#: Line 271 of yolov5 7.0.14's ``train.py`` and what it becomes (same line, so the line numbers stay).
MAPS_INIT = "    maps = np.zeros(nc)  # mAP per class\n"
MAPS_AND_MAP50S_INIT = "    maps, map50s = np.zeros(nc), np.zeros(nc)  # mAP, mAP@0.5 per class\n"
#: Line 389: the use of ``map50s`` on every epoch, validated or not.
MAP50S_USE = "log_vals = list(mloss) + list(results) + lr + list(maps) + list(map50s)\n"


def allow_noval() -> None:
    """Make this process's yolov5 ``train.train`` survive epochs that skip validation (the training job calls
    it before ``train.main`` for a run with ``noval``). Raises RuntimeError when ``train.train`` is not the
    7.0.14 code this fix was written for."""
    from yolov5 import train as y5train

    from core.worker.compat_ddp import patched_function

    patched_function(y5train, "train", [(MAPS_INIT, MAPS_AND_MAP50S_INIT), (MAP50S_USE, MAP50S_USE)])
