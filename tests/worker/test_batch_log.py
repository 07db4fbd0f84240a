"""The worker's per-batch log rows (yolov5's console columns, throttled) and each warning shown once."""

from __future__ import annotations

import warnings

from core.worker.batch_log import BatchLog, batch_row
from core.worker.warn_once import show_each_warning_once

HEADER = ("%11s" * 7) % ("Epoch", "GPU_mem", "box_loss", "obj_loss", "cls_loss", "Instances", "Size")  # yolov5's


def test_the_row_lines_up_under_yolov5s_header():
    row = batch_row(2, 30, 1.234, (0.05123, 0.02, 0.011), 45, 640, 8, 16)
    assert row.startswith("       2/29      1.23G    0.05123       0.02      0.011         45        640")
    assert len(row.split(":")[0]) == len(HEADER)
    assert row.endswith(":  50% 8/16")
    assert batch_row(0, 1, None, (1, 2, 3), 0, 64, 1, 1).split()[1] == "0G"  # a CPU run: no GPU memory


def test_rows_at_epoch_edges_and_at_most_one_per_interval_between():
    now = [0.0]
    log = BatchLog(every_s=5.0, clock=lambda: now[0])
    due = []
    for index in range(100):
        now[0] = index * 0.5  # a batch every half second
        due.append(log.due(index, 100))
    assert [i for i, row in enumerate(due) if row] == [*range(0, 100, 10), 99]  # every 5 s, and the epoch's edges


def test_each_warning_is_shown_once_even_when_filters_are_reset(capsys):
    shown = []
    with warnings.catch_warnings():
        warnings.showwarning = lambda *args, **kwargs: shown.append(str(args[0]))
        show_each_warning_once()
        show_each_warning_once()  # idempotent
        for _ in range(5):
            warnings.simplefilter("always")  # what a library does inside the training loop
            warnings.warn("torch.cuda.amp.autocast(args...) is deprecated", FutureWarning)
        warnings.warn("another one", DeprecationWarning)
    assert shown == ["torch.cuda.amp.autocast(args...) is deprecated", "another one"]
