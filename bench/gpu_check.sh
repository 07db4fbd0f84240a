#!/usr/bin/env bash
# GPU check (run on a machine with an NVIDIA GPU; CI never runs it). Within ~8 minutes: trains yolov5s at
# imgsz 640 for a short run on a generated dataset through the app's own worker and CLI, then prints the
# mean GPU utilisation (from the run's `system` events), images/s and data-wait share.
# Later issues append their checks below (environment probe, wizard, export).
#   bash bench/gpu_check.sh                 # uses .venv/bin/python if present, else python3
#   WHEELS=.whl bash bench/gpu_check.sh     # first installs missing packages from a folder of wheels
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-$( [ -x .venv/bin/python ] && echo .venv/bin/python || echo python3 )}"
if [ -n "${WHEELS:-}" ]; then
    "$PY" -m pip install -q --no-index --no-deps --no-compile --target /tmp/site "$WHEELS"/*.whl
    export PYTHONPATH="/tmp/site${PYTHONPATH:+:$PYTHONPATH}"
fi
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
WS="${WORKSPACE:-$(mktemp -d /tmp/yolostudio-gpu-XXXX)}"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
"$PY" - "$WS" <<'PYEOF'
import sys, time
from pathlib import Path
from core.demo_dataset import DemoSpec, generate_demo_dataset
t = time.time()
data = generate_demo_dataset(Path(sys.argv[1]) / "gpu-data", DemoSpec(n_train=512, n_val=64, image_size=640, seed=7))
print(f"dataset: {data} ({time.time() - t:.1f} s)")
PYEOF
echo "== 1. training: yolov5s, imgsz 640, batch 32, workers 8, 3 epochs, device 0"
timeout 420 "$PY" -m core.cli --workspace "$WS" train "$WS/gpu-data/data.yaml" --model yolov5s.yaml \
    --imgsz 640 --batch 32 --workers 8 --epochs 3 --device 0 --name gpu-check || echo "training exit code $?"
"$PY" bench/run_summary.py "$WS/runs/gpu-check"
