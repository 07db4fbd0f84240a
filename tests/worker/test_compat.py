"""The offline/compat module, checked in a fresh interpreter (it patches global state)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r'''
import os, sys
from pathlib import Path
tmp = Path(sys.argv[1])
from core.worker import compat
compat.apply(tmp / "cache", trusted=[tmp / "runs"])
# per job: the trainer is not imported by the patches (export and predict never pay for it)
assert "yolov5.train" not in sys.modules and "yolov5.val" not in sys.modules, sorted(sys.modules)

# 1. fonts are local copies, so check_font never downloads
from yolov5.utils import general
assert (tmp / "cache" / "Arial.ttf").is_file() and (tmp / "cache" / "Arial.Unicode.ttf").is_file()
general.check_font("Arial.Unicode.ttf")
assert os.environ["YOLO_OFFLINE"] == "1" and os.environ["YOLOV5_CONFIG_DIR"] == str(tmp / "cache")

# 2. Pillow getsize shim; 3. numpy trapz alias
from PIL import ImageFont
font = ImageFont.truetype(str(tmp / "cache" / "Arial.ttf"), 12)
w, h = font.getsize("abc")
assert w > 0 and h > 0
import numpy as np
assert np.trapz([0, 1, 2]) == 2.0

# 4. torch.load: full unpickling only for trusted places
import torch
import collections
(tmp / "runs").mkdir()
obj = {"model": collections.OrderedDict(a=1), "cls": Path("x")}  # Path is not allow-listed by weights_only
torch.save(obj, tmp / "runs" / "ok.pt")
torch.save(obj, tmp / "elsewhere.pt")
assert torch.load(tmp / "runs" / "ok.pt")["cls"] == Path("x")
try:
    torch.load(tmp / "elsewhere.pt")
except compat.UntrustedCheckpointError as exc:
    assert "elsewhere.pt" in str(exc) and "trust" in str(exc)
else:
    raise AssertionError("untrusted checkpoint was unpickled")
compat.set_trusted_roots([tmp / "runs", tmp / "elsewhere.pt"])
assert torch.load(tmp / "elsewhere.pt")["cls"] == Path("x")

# 4b. the weights store: trusted while a file hashes to its manifest record, refused in words once changed
import time
from core.weights.store import StoredFile, WeightsStore, sha256_of
store = WeightsStore(tmp / "ws")
store.partial_dir.mkdir(parents=True)
part = store.partial_path("yolov5n.pt")
torch.save(obj, part)
store.add(part, StoredFile("yolov5n.pt", sha256_of(part), part.stat().st_size, "download", time.time()))
compat.set_trusted_roots([tmp / "runs"], tmp / "ws")
assert torch.load(store.path("yolov5n.pt"))["cls"] == Path("x")
altered = bytearray(store.path("yolov5n.pt").read_bytes())
altered[100] ^= 0xFF
store.path("yolov5n.pt").write_bytes(bytes(altered))  # same size, other bytes
try:
    torch.load(store.path("yolov5n.pt"))
except compat.UntrustedCheckpointError as exc:
    assert "not the file that was stored" in str(exc) and "weights remove yolov5n" in str(exc)
else:
    raise AssertionError("a changed store file was unpickled")
compat.set_trusted_roots([tmp / "runs"])

# 5. weights are local-only, everywhere yolov5 bound the downloader (loaded before the patch, or after it)
from yolov5 import train
from yolov5.models import common, experimental
compat.apply(tmp / "cache", trusted=[tmp / "runs"])  # idempotent
assert common.check_requirements is general.check_requirements  # bound before the patch, rebound by it
for fn in (train.attempt_download, experimental.attempt_download):
    try:
        fn("yolov5n.pt")
    except FileNotFoundError as exc:
        assert "offline" in str(exc)
    else:
        raise AssertionError("weights lookup did not fail locally")
assert train.attempt_download_from_hub("user/repo") is None
assert general.check_online() is False

# 7. AMP check: offline, on the model itself (CPU trains in FP32; agreement logic on real tensors)
assert train.check_amp is compat.offline_check_amp
from yolov5.models.yolo import Model
model = Model(str(Path(train.__file__).parent / "models" / "yolov5n.yaml"), nc=3)
assert compat.offline_check_amp(model) is False
a = torch.linspace(-5, 5, 1000)
assert compat.outputs_agree(a, a + 0.01)
assert not compat.outputs_agree(a, a * 1.5)
assert not compat.outputs_agree(a, torch.full_like(a, float("nan")))
print("COMPAT-OK")
'''


def test_compat_fixes_in_a_fresh_interpreter(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), HOME=str(tmp_path / "home"))
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "COMPAT-OK" in out.stdout
    assert not (tmp_path / "home" / ".config" / "Ultralytics").exists()  # nothing written to the user's home
