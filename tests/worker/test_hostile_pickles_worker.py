"""The worker's guard against a pickle that acts when loaded, on every loader a job uses (one fresh interpreter).

train/resume (yolov5's ``attempt_load`` and ``torch.load``), export and "Try it" (``load_for_export``):
all refuse a file outside the trusted places, and the file's code never runs. The control: once trusted, it does run.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.fixtures.checkpoint_files import write_hostile_checkpoint

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import sys
from pathlib import Path
evil, marker, runs = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
from core.worker import compat
compat.apply(runs.parent / "cache", trusted=[runs])
import torch
from core.worker.export_load import load_for_export
from yolov5.models.experimental import attempt_load
refused = 0
loaders = {
    "torch.load": lambda: torch.load(evil, map_location="cpu"),
    "yolov5 attempt_load": lambda: attempt_load(str(evil), device="cpu"),
    "export / try it": lambda: load_for_export(evil),
}
for name, load in loaders.items():
    try:
        load()
    except Exception as exc:
        refused += 1
        print(name, "refused:", type(exc).__name__, flush=True)
    assert not marker.exists(), name + " ran the pickle's code"
print("refused", refused, "of", len(loaders), flush=True)
compat.set_trusted_roots([runs, evil])
try:
    torch.load(evil, map_location="cpu")
except Exception:
    pass
print("trusted ran it:", marker.exists(), flush=True)
"""


def test_no_worker_loader_runs_an_untrusted_pickle(tmp_path):
    marker = tmp_path / "EXECUTED"
    evil = write_hostile_checkpoint(tmp_path / "Downloads" / "best.pt", marker)
    result = subprocess.run([sys.executable, "-c", SCRIPT, str(evil), str(marker), str(tmp_path / "ws" / "runs")],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "refused 3 of 3" in result.stdout, result.stdout
    assert "trusted ran it: True" in result.stdout  # the file really would act: the refusals are what stopped it
