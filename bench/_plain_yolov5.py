"""The package's own ``yolov5`` CLI, offline-patched exactly like the worker, timing each epoch.

Used by ``bench/overhead.py`` as the baseline: ``python bench/_plain_yolov5.py TIMES.json train --data ...``.
The only addition is two callbacks on yolov5's shared default ``Callbacks`` that record the same epoch
interval the worker reports as ``epoch_time_s`` (epoch start → end of validation).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.worker import compat  # noqa: E402


def main() -> None:
    times_path = Path(sys.argv[1])
    workspace = Path(sys.argv[2])
    sys.argv = ["yolov5", *sys.argv[3:]]
    compat.apply(workspace / ".cache" / "yolov5", trusted=[workspace])
    from yolov5 import train
    from yolov5.cli import app

    callbacks = train.main.__defaults__[0]  # the package's shared default instance, used by its CLI
    starts: list[float] = []
    epochs: list[float] = []
    callbacks.register_action("on_train_epoch_start", "bench", lambda *a: starts.append(time.time()))
    callbacks.register_action("on_fit_epoch_end", "bench", lambda *a: epochs.append(time.time() - starts[-1]))
    try:
        app()
    finally:
        times_path.write_text(json.dumps(epochs))


if __name__ == "__main__":
    main()
