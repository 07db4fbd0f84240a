"""Fix 16 (``core/worker/compat_openvino.py``), against the installed yolov5 7.0.14 and OpenVINO themselves: yolov5's
``DetectMultiBackend`` (what ``val.run`` loads a model with) refuses the app's IR (an ``.xml`` file); after
``compat.apply`` it loads it through ``openvino.runtime`` (gone from OpenVINO 2026), with the names and stride of
the IR's runtime info, compiled in f32, and computes what the app's own OpenVINO runner computes. A fresh
interpreter each way, as the fix patches global state."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("openvino")
ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r'''
import sys
from pathlib import Path
import numpy as np, torch
tmp, fixed = Path(sys.argv[1]), sys.argv[2] == "fixed"
if fixed:
    from core.worker import compat
    compat.apply(tmp / "cache")
from yolov5.models.yolo import Model
from yolov5.models.common import DetectMultiBackend
from core.worker.export_openvino import export_openvino, openvino_runner

torch.manual_seed(0)
import yolov5
model = Model(str(Path(yolov5.__file__).parent / "models" / "yolov5n.yaml"), nc=3).float().fuse().eval()
model.model[-1].export, model.model[-1].inplace = True, False
im = torch.zeros(1, 3, 64, 64)
with torch.inference_mode():
    model(im), model(im)  # dry runs build the grids, as the export job's do
xml = tmp / "best.xml"
export_openvino(model, im, xml, names={0: "a", 1: "b", 2: "c"}, stride=32)
try:
    backend = DetectMultiBackend(str(xml), device=torch.device("cpu"))
except AssertionError as refused:
    print('["REFUSED", %s]' % str("acceptable suffix" in str(refused)).lower())
    raise SystemExit(0)
x = np.random.default_rng(0).random((1, 3, 64, 64), dtype=np.float32)
ours = openvino_runner(xml)[0](x)
theirs = backend(torch.from_numpy(x))
theirs = (theirs[0] if isinstance(theirs, (list, tuple)) else theirs).numpy()
precision = backend.executable_network.get_property("INFERENCE_PRECISION_HINT")
import json
print(json.dumps(["LOADED", backend.xml, backend.stride, backend.names, str(precision),
                  float(np.abs(ours - theirs).max())]))
'''


def _run(tmp_path: Path, mode: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path), mode], capture_output=True, text=True,
                         cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.splitlines()[-1])


def test_yolov5_refuses_the_app_s_ir_without_the_fix(tmp_path):
    assert _run(tmp_path, "plain") == ["REFUSED", True]


def test_yolov5_runs_the_app_s_ir_in_f32_with_its_names_after_the_fix(tmp_path):
    loaded, xml, stride, names, precision, diff = _run(tmp_path, "fixed")
    assert (loaded, xml, stride, names) == ("LOADED", True, 32, {"0": "a", "1": "b", "2": "c"})
    assert precision in ("f32", "<Type: 'float32'>") and diff == 0.0  # the same f32 computation
