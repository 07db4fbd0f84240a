"""Fix 13 (``core/worker/compat_jpeg.py``), against the installed yolov5 7.0.14 itself: its
``verify_image_label`` saves a JPEG that does not end with ``FF D9`` over the file; after ``compat.apply`` the
file is kept byte for byte and the image still counts (a truncated one is still dropped, as yolov5 does); a
different function is refused — each in a fresh interpreter, as it patches global state."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r'''
import hashlib, importlib.util, io, sys
from pathlib import Path
from PIL import Image
tmp, fixed = Path(sys.argv[1]), sys.argv[2] == "fixed"

def jpeg(size=32, noise=False):
    buf = io.BytesIO()
    (Image.effect_noise((size, size), 60).convert("RGB") if noise else Image.new("RGB", (size, size), "red")) \
        .save(buf, "JPEG")
    return buf.getvalue()

(tmp / "images").mkdir()
trailing = tmp / "images" / "a.png"  # a JPEG named .png, bytes after its end marker (an importer links it)
trailing.write_bytes(jpeg() + b"after the end marker")
truncated = tmp / "images" / "t.jpg"
truncated.write_bytes(jpeg(64, noise=True)[:-300])
sums = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in (trailing, truncated)}
if fixed:
    from core.worker import compat
    compat.apply(tmp / "cache")
from yolov5.utils import dataloaders
kept = dataloaders.verify_image_label((str(trailing), str(tmp / "a.txt"), ""))
dropped = dataloaders.verify_image_label((str(truncated), str(tmp / "t.txt"), ""))
assert kept[2] == (32, 32) and kept[7] == 0, kept  # trained on, fixed or not
assert dropped[7] == 1 and "truncated" in dropped[-1], dropped  # dropped as corrupt, fixed or not
changed = hashlib.sha256(trailing.read_bytes()).hexdigest() != sums[trailing]
assert hashlib.sha256(truncated.read_bytes()).hexdigest() == sums[truncated]
if fixed:
    from core.worker import compat_jpeg
    assert not changed and "your file is kept" in kept[-1], kept[-1]
    fn = dataloaders.verify_image_label
    assert fn.__code__.co_filename == dataloaders.__file__ and fn.__code__.co_firstlineno == 1011
    compat_jpeg.keep_dataset_files()  # idempotent
    assert len(dataloaders._yolostudio_source_fixes["verify_image_label"]) == 2
    other = tmp / "other.py"
    other.write_text("def verify_image_label(args):\n    return args\n")
    spec = importlib.util.spec_from_file_location("other", other)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    dataloaders.verify_image_label = module.verify_image_label
    del dataloaders._yolostudio_source_fixes["verify_image_label"]
    try:
        compat_jpeg.keep_dataset_files()
    except RuntimeError as exc:
        assert "7.0.14" in str(exc), exc
    else:
        raise AssertionError("a different verify_image_label was patched blindly")
else:  # yolov5's own code rewrites the file in place: what the fix is for
    assert changed and "corrupt JPEG restored and saved" in kept[-1], kept[-1]
print("OK")
'''


def run(tmp_path: Path, mode: str) -> None:
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path), mode], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("OK"), proc.stderr[-3000:]


def test_yolov5_itself_saves_a_jpeg_without_its_end_marker_over_the_file(tmp_path):
    run(tmp_path, "plain")


def test_after_compat_the_file_is_kept_and_the_image_still_counts(tmp_path):
    run(tmp_path, "fixed")
