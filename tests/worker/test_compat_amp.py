"""The ``no_amp`` option's patch (``core/worker/compat_amp.py``), against the installed yolov5 7.0.14 itself:
its ``train.train`` decides AMP in one line, that flag builds the scaler, the autocast and half validation,
and ``disable_amp`` answers that decision — checked in a fresh interpreter, as it patches global state."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r'''
import inspect, sys
from pathlib import Path
from core.worker import compat, compat_amp
compat.apply(Path(sys.argv[1]))
from yolov5 import train
source = inspect.getsource(train.train)
# yolov5's own code: one decision, and everything AMP does follows the flag it sets
assert source.count(compat_amp.AMP_DECISION) == 1
for use in ("scaler = torch.cuda.amp.GradScaler(enabled=amp)", "with torch.cuda.amp.autocast(amp):",
            "check_train_batch_size(model, imgsz, amp)", "half=amp,"):
    assert use in source, use
assert train.check_amp is compat.offline_check_amp  # a run without the option keeps the offline check
compat_amp.disable_amp()
assert train.check_amp is compat_amp.no_amp_check
from yolov5.models.yolo import Model
assert train.check_amp(Model(str(Path(train.__file__).parent / "models" / "yolov5n.yaml"), nc=3)) is False
# a yolov5 whose train() no longer has that line is refused, not trained with AMP the user turned off
train.train = lambda hyp, opt, device, callbacks: None
try:
    compat_amp.disable_amp()
except RuntimeError as exc:
    assert "7.0.14" in str(exc)
else:
    raise AssertionError("a different train() was patched blindly")
print("OK")
'''


def test_disable_amp_answers_yolov5s_one_amp_decision(tmp_path):
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0 and out.stdout.strip().endswith("OK"), out.stderr[-3000:]
