"""Compatibility fix 10 (``core/worker/compat.py``): training without mixed precision, when the run asks.

GTX 16xx and Quadro T-series GPUs (TU116/TU117) pass yolov5's AMP check and then turn the loss to NaN
later in the run, so the ``no_amp`` training option must really train in FP32. yolov5 7.0.14's
``train.train`` decides mixed precision in one line, ``amp = check_amp(model)``, and the ``amp`` it sets
drives all of it: the ``GradScaler(enabled=amp)``, every step's ``autocast(amp)``, AutoBatch's memory
estimate (``check_train_batch_size(model, imgsz, amp)``) and the half-precision validation (``half=amp``).
``train.py`` looks ``check_amp`` up by its module-level name when it runs, so rebinding that name in
``yolov5.train`` answers the one decision — nothing else of yolov5 changes, and a run without the option
keeps the offline check of fix 7.
"""

from __future__ import annotations

import inspect
from typing import Any

#: The line of yolov5 7.0.14's ``train.train`` that decides AMP (verified against the installed package).
AMP_DECISION = "    amp = check_amp(model)  # check AMP\n"
#: What the run's log says when the option is on (after yolov5's ``AMP: `` prefix).
NO_AMP_LOG = "off by the training option no_amp (--no-amp): training in full precision (FP32)"


def no_amp_check(model: Any) -> bool:
    """``check_amp`` for a run that asked for FP32: no check, so no autocast and no gradient scaling."""
    from yolov5.utils.general import LOGGER, colorstr

    LOGGER.info(colorstr("AMP: ") + NO_AMP_LOG)
    return False


def disable_amp() -> None:
    """Make this process's yolov5 training run without AMP (the training job calls it before ``train.main``
    for a run with ``no_amp``). Raises RuntimeError when ``train.train`` is not the 7.0.14 code this fix
    was written for, rather than train with AMP the user asked to turn off."""
    from yolov5 import train as y5train

    try:
        source = inspect.getsource(y5train.train)
    except (OSError, TypeError):  # no source to check (a frozen or replaced train): not the code we know
        source = ""
    if source.count(AMP_DECISION) != 1:
        raise RuntimeError("yolov5 train.train does not decide AMP with the 7.0.14 line the no_amp option "
                           "was written for; refusing to train with mixed precision the run turned off")
    y5train.check_amp = no_amp_check
