"""The ``gpu_augment`` hook (``core/worker/compat_augment.py``) on the installed yolov5 7.0.14 itself: both lines
it changes are the package's own (once each), the recompiled ``train`` keeps its file and first line, it holds
together with the DDP and ``noval`` fixes of the same function, and the loop's call reaches the augmenter —
checked in a fresh interpreter, as it patches global state."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r'''
import inspect, sys
from pathlib import Path
import torch
from core.worker import compat, compat_augment, compat_ddp, compat_noval
compat.apply(Path(sys.argv[1]))
from yolov5 import train
original = inspect.getsource(train.train)
assert original.count(compat_augment.AUGMENT_TRUE) == 1 and original.count(compat_augment.TO_DEVICE) == 1
assert "for i, (imgs, targets, paths, _) in pbar:" in original  # the loop's _ is the batch's shapes
compat_augment.enable_batch_augment()
compat_noval.allow_noval()
compat_ddp.enable_ddp()
source = "".join(train._yolostudio_source_fixes["train"][i][1] for i in range(len(train._yolostudio_source_fixes["train"])))
assert compat_augment.AUGMENT_IN_BATCH in source and compat_augment.TO_DEVICE_AUGMENTED in source
assert train.train.__code__.co_filename == train.__file__ and train.train.__code__.co_firstlineno == 77
imgs = torch.full((2, 3, 64, 64), 0.5)
targets = torch.tensor([[0, 0, 0.5, 0.5, 0.2, 0.2], [1, 1, 0.3, 0.3, 0.1, 0.2]])
hyp = dict(mosaic=1.0, degrees=0.0, translate=0.1, scale=0.5, shear=0.0, perspective=0.0, hsv_h=0.015,
           hsv_s=0.7, hsv_v=0.4, flipud=0.0, fliplr=0.5, mixup=0.0, copy_paste=0.0)
out, t = train._yolostudio_batch_augment(imgs, targets, (None, None), hyp, False)
assert out.shape == imgs.shape and t.shape[1] == 6
print("OK")
'''


def test_the_hook_patches_yolov5s_own_train_beside_the_other_fixes(tmp_path):
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0 and out.stdout.strip().endswith("OK"), out.stderr[-3000:]
