"""Compatibility fix 14 (``core/worker/compat.py``): yolov5's augmentation on the training device (issue 36).

For a run with ``gpu_augment`` on, ``enable_batch_augment`` recompiles yolov5 7.0.14's ``train.train`` from its
own source (``compat_ddp.patched_function``: file and line numbers kept) with two lines changed:

- line 214, the training loader's ``augment=True`` → ``augment=_yolostudio_batch_augment is None``: the loader's
  workers only decode (or read the RAM cache) and letterbox — ``LoadImagesAndLabels`` with ``augment=False``
  runs no mosaic, no ``random_perspective``, no HSV, no flips, no albumentations;
- line 307, where the batch reaches the device as floats in 0..1, the same line goes on to hand the batch,
  its ``shapes`` (the loop's ``_``), ``hyp`` and ``opt.rect`` to ``core/worker/batch_mosaic.BatchAugmenter``.

Every DDP rank runs ``train.train`` with its own loader, so each rank augments its own batches. The choice is
the run's ``gpu_augment`` option, recorded in its config, so a resumed run augments the same way.
"""

from __future__ import annotations

from typing import Any

from core.i18n import N_

AUGMENT_TRUE = "                                              augment=True,\n"
AUGMENT_IN_BATCH = "                                              augment=_yolostudio_batch_augment is None,\n"
TO_DEVICE = "            imgs = imgs.to(device, non_blocking=True).float() / 255  # uint8 to float32, 0-255 to 0.0-1.0\n"
TO_DEVICE_AUGMENTED = ("            imgs = imgs.to(device, non_blocking=True).float() / 255; imgs, targets = "
                       "_yolostudio_batch_augment(imgs, targets, _, hyp, opt.rect) if _yolostudio_batch_augment "
                       "else (imgs, targets)\n")

#: What the run's log says when the option is on (a source string, translated by the training job).
GPU_AUGMENT_LOG = N_("Augmentation on the training device (--gpu-augment on): the loader's workers only decode and "
                   "letterbox; mosaic, perspective, HSV, flips and mixup run on each batch.")

_augmenters: dict[int, Any] = {}


def augment_batch(imgs: Any, targets: Any, shapes: Any, hyp: dict[str, Any], rect: bool) -> tuple[Any, Any]:
    """The patched line's call: one ``BatchAugmenter`` per hyperparameter dict, made on first use (it refuses
    what it cannot honour, e.g. copy_paste, before the first step)."""
    from core.worker.batch_mosaic import BatchAugmenter

    augmenter = _augmenters.get(id(hyp))
    if augmenter is None:
        augmenter = _augmenters[id(hyp)] = BatchAugmenter(hyp, rect=rect)
    return augmenter(imgs, targets, shapes)


def enable_batch_augment() -> None:
    """Make this process's yolov5 training augment on the device (the training job calls it before
    ``train.main`` for a run with ``gpu_augment`` on). Raises RuntimeError when ``train.train`` is not the
    7.0.14 code this fix was written for."""
    from yolov5 import train as y5train

    from core.worker.compat_ddp import patched_function

    y5train._yolostudio_batch_augment = augment_batch
    patched_function(y5train, "train", [(AUGMENT_TRUE, AUGMENT_IN_BATCH), (TO_DEVICE, TO_DEVICE_AUGMENTED)])

