"""The ``noval`` fix (``core/worker/compat_noval.py``), against the installed yolov5 7.0.14 itself: its
``train.train`` leaves ``map50s`` unassigned unless validation ran, ``allow_noval`` initialises it on the
package's own line, holds together with the DDP fix of the same function, and refuses a different
``train`` — checked in a fresh interpreter, as it patches global state."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r'''
import importlib.util, inspect, sys
from pathlib import Path
from core.worker import compat, compat_ddp, compat_noval
compat.apply(Path(sys.argv[1]))
from yolov5 import train
original = inspect.getsource(train.train)
# yolov5's own code: map50s is assigned only by validation, and used on every epoch
assert "map50s = " not in original and original.count(compat_noval.MAPS_INIT) == 1
assert original.count("results, maps, map50s, _ = validate.run(") == 1
assert original.count(compat_noval.MAP50S_USE) == 1
compat_noval.allow_noval()
assert train.train.__code__.co_filename == train.__file__ and train.train.__code__.co_firstlineno == 77
compat_ddp.enable_ddp()  # the DDP fix recompiles train from the file again: both fixes hold
fixes = train._yolostudio_source_fixes["train"]
assert (compat_noval.MAPS_INIT, compat_noval.MAPS_AND_MAP50S_INIT) in fixes and len(fixes) == 3, fixes
compat_noval.allow_noval()  # a fix given twice counts once
assert len(train._yolostudio_source_fixes["train"]) == 3
# a yolov5 whose train() is not the 7.0.14 code is refused, not trained into the crash
other = Path(sys.argv[1]) / "other_train.py"
other.write_text("def train(hyp, opt, device, callbacks):\n    maps = None\n")
spec = importlib.util.spec_from_file_location("other_train", other)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
train.train = module.train
del train._yolostudio_source_fixes["train"]
try:
    compat_noval.allow_noval()
except RuntimeError as exc:
    assert "7.0.14" in str(exc), exc
else:
    raise AssertionError("a different train() was patched blindly")
print("OK")
'''


def test_allow_noval_initialises_map50s_in_yolov5s_own_train(tmp_path):
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0 and out.stdout.strip().endswith("OK"), out.stderr[-3000:]
