"""``yolostudio export --format onnx|openvino --int8`` on the session's tiny trained run (``tests/e2e/shared_run.py``):
ONNX Runtime's static INT8 and NNCF's for OpenVINO, calibrated on the training images, with FP32 and INT8 mAP on val
and their latency; the INT8 mAP the app reports equals yolov5's own ``val.run`` on the same file, computed here
independently."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import ROOT, assert_offline, e2e_environment, run_cli
from tests.e2e.shared_run import NAME, CompletedRun

pytestmark = pytest.mark.e2e


#: yolov5's own ``val.run`` with its defaults (conf 0.001, IoU 0.6) on a model file, in a fresh interpreter: yolov5
#: 7.0.14 needs the worker's compatibility fixes to run at all on today's numpy (fix 3) and OpenVINO (fix 16).
VAL_SCRIPT = """
import json, sys
from pathlib import Path
from core.worker import compat
compat.apply(Path(sys.argv[1]) / "cache")
from yolov5 import val
r = val.run(data=sys.argv[2], weights=sys.argv[3], imgsz=64, batch_size=1, conf_thres=0.001, iou_thres=0.6,
            task="val", device="cpu", workers=0, plots=False, project=sys.argv[1], name="v")[0]
print(json.dumps([r[2], r[3]]))
"""


def _yolov5_val(trained: dict[str, Any], model: Path, tmp_path: Path) -> tuple[float, float]:
    out = subprocess.run([sys.executable, "-c", VAL_SCRIPT, str(tmp_path), str(trained["data"]), str(model)],
                         cwd=ROOT, env=trained["env"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    map50, map_all = json.loads(out.stdout.strip().splitlines()[-1])
    return map50, map_all


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory, completed_run: CompletedRun) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("int8")
    ws = completed_run.copy_workspace(root)
    env = e2e_environment(root, root / "net-audit.log")
    return {"env": env, "best": ws / "runs" / NAME / "weights" / "best.pt", "data": completed_run.data,
            "audit": root / "net-audit.log"}


@pytest.mark.parametrize("fmt, name", [("onnx", "best.int8.onnx"), ("openvino", "best.int8.xml")])
def test_int8_reports_its_cost_and_equals_yolov5s_own_val_run(trained, tmp_path, fmt, name):
    out = run_cli(["export", str(trained["best"]), "--format", fmt, "--int8", "--int8-max-drop", "1", "--json"],
                  trained["env"])
    assert out.returncode == 0, out.stderr[-3000:]
    (entry,) = json.loads(out.stdout)["exports"]
    int8 = entry["int8"]
    assert int8["verified"] is True and int8["max_drop"] == 1.0  # the user's limit, shown with the verdict
    path = Path(int8["path"])
    files = [path, path.with_suffix(".bin")] if fmt == "openvino" else [path]  # an IR is its xml and its bin
    assert path.name == name and sum(f.stat().st_size for f in files) == int8["bytes"] < entry["bytes"]
    assert not list(path.parent.glob(".*partial*"))  # the quantiser's and evaluation's temporary files are gone
    assert int8["quantization"]["client"] == {"onnx": "onnxruntime", "openvino": "nncf"}[fmt]
    assert int8["quantization"]["calibration_images"] == 32  # the tiny dataset's training images
    for side in ("fp32", "int8"):
        assert set(int8[side]) == {"map50", "map", "per_class", "latency_ms"}
        assert [c["name"] for c in int8[side]["per_class"]] == ["circle", "square", "triangle"]
        assert 0 < int8[side]["latency_ms"]["p50"] <= int8[side]["latency_ms"]["p99"]
    assert int8["map50_drop"] == pytest.approx(int8["fp32"]["map50"] - int8["int8"]["map50"])

    map50, map_all = _yolov5_val(trained, path, tmp_path)
    assert int8["int8"]["map50"] == pytest.approx(map50, abs=1e-9)
    assert int8["int8"]["map"] == pytest.approx(map_all, abs=1e-9)
    assert_offline(trained["audit"])


def test_int8_that_costs_more_than_the_limit_is_not_verified_and_exits_1(trained):
    out = run_cli(["export", str(trained["best"]), "--format", "onnx", "--int8", "--int8-max-drop", "0"],
                  trained["env"])
    assert "INT8 costs" in out.stdout, out.stderr[-3000:]
    verified = "NOT verified" not in out.stdout.split("INT8 costs")[1].splitlines()[0]
    assert out.returncode == (0 if verified else 1)
