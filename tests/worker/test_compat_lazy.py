"""Compat fix 15: after ``compat.apply`` a worker's ``import yolov5`` leaves seaborn and scipy.stats unloaded, and
yolov5's own plots that use seaborn (the labels correlogram, the confusion matrix) still draw — run in a fresh
interpreter, since the test process may have imported seaborn already."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json, sys
from pathlib import Path
out = Path(sys.argv[1])
from core.worker import compat
compat.apply(out / "cfg")
import yolov5.train, yolov5.val
from yolov5.utils import plots, metrics
loaded = lambda: sorted(n for n in ("seaborn.rcmod", "scipy.stats") if n in sys.modules)  # seaborn's own parts
seen = {"after_import": loaded()}
import numpy as np
labels = np.array([[0, 0.5, 0.5, 0.2, 0.3], [1, 0.3, 0.6, 0.1, 0.1], [0, 0.7, 0.2, 0.3, 0.2]] * 10, dtype=np.float32)
labels[:, 1:] += np.random.default_rng(0).uniform(0, 0.05, (30, 4)).astype(np.float32)
plots.plot_labels(labels, names={0: "a", 1: "b"}, save_dir=out)
matrix = metrics.ConfusionMatrix(nc=2)
matrix.matrix[:] = np.eye(3)
matrix.plot(save_dir=out, names=["a", "b"])
seen["after_plots"] = loaded()
seen["files"] = sorted(p.name for p in out.glob("*.jpg")) + sorted(p.name for p in out.glob("*.png"))
print(json.dumps(seen))
"""


def test_seaborn_waits_for_the_first_plot_and_yolov5s_plots_still_draw(tmp_path):
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen["after_import"] == []  # imported yolov5 (train, val, plots, metrics): neither loaded
    assert seen["after_plots"] == ["scipy.stats", "seaborn.rcmod"]  # the plots loaded them when they drew
    assert {"labels.jpg", "labels_correlogram.jpg", "confusion_matrix.png"} <= set(seen["files"])


def test_a_module_already_imported_is_left_as_it_is():
    from core.worker.compat_lazy import defer_plotting_imports

    assert "json" in sys.modules and defer_plotting_imports(("json",)) == []
    assert defer_plotting_imports(("no_such_module_here",)) == []
