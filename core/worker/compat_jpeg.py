"""Compatibility fix 13 (``core/worker/compat.py``): yolov5 never rewrites an image of the user's dataset.

yolov5 7.0.14's ``utils/dataloaders.py`` ``verify_image_label`` (lines 1022-1027 of the PyPI package), run on
every image when a label cache is built — training, validation, k-fold folds — checks that a JPEG ends with its
end marker ``FF D9``; when it does not, it decodes the image and *saves it over the file*:
``ImageOps.exif_transpose(Image.open(im_file)).save(im_file, 'JPEG', subsampling=0, quality=100)``, then warns
"corrupt JPEG restored and saved". Measured by running that function on a 32×32 JPEG followed by 14 bytes
(``bench/faults_edits.py``, "dataset-write"): the file's sha256 changed, 14 bytes and the original's quality
gone. Through an importer's hard link the user's source image changed with it. Training, evaluation and k-fold
must never change a file of the user's dataset (a Fix the user applies, with its backup, is the only writer).

The fix keeps the decode — an image Pillow cannot decode still raises there and is dropped as corrupt, as
before — and drops only the save: the image is trained on as it is (OpenCV, which reads it for training,
stops at the end marker, as Pillow did for the copy yolov5 would have saved). The warning says so. The line
count is kept, so tracebacks still point at the package's lines; code that is not the 7.0.14 function is
refused rather than run. The dataset check says which files yolov5 would have "restored"
(``core.dataset.images``).
"""

from __future__ import annotations

#: yolov5 7.0.14 ``utils/dataloaders.py`` line 1026, and what it becomes (the decode without the save).
RESTORE_IN_PLACE = "ImageOps.exif_transpose(Image.open(im_file)).save(im_file, 'JPEG', subsampling=0, quality=100)"
DECODE_ONLY = "ImageOps.exif_transpose(Image.open(im_file)).load()  # YOLO Studio: never saved over the file"
#: Line 1027: yolov5's warning, and the words that say what happened instead.
RESTORED_WORDS = "corrupt JPEG restored and saved'"
KEPT_WORDS = "JPEG without its end marker at the end, read as it is (not saved over: your file is kept)'"
FIXES = [(RESTORE_IN_PLACE, DECODE_ONLY), (RESTORED_WORDS, KEPT_WORDS)]


def keep_dataset_files() -> None:
    """Make this process's yolov5 ``verify_image_label`` read a JPEG without saving over it (idempotent; called
    by ``compat.apply`` before any loader is built; the label cache's pool, forked, inherits it). Raises
    RuntimeError when the function is not the 7.0.14 code this fix was written for."""
    from yolov5.utils import dataloaders

    from core.worker.compat_ddp import patched_function

    patched_function(dataloaders, "verify_image_label", FIXES)
