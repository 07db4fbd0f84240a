"""Failures from inside yolov5/torch become a kind, a clean message and a way out."""

from __future__ import annotations

import pytest

from core.errors import classify_failure


@pytest.mark.parametrize("type_name,message,kind", [
    ("OutOfMemoryError", "CUDA out of memory. Tried to allocate 2.00 GiB", "out_of_memory"),
    ("RuntimeError", "CUDA error: no kernel image is available for execution on the device", "cuda"),
    ("OSError", "[Errno 28] No space left on device", "disk_full"),
    ("RuntimeError", "DataLoader worker (pid 123) is killed by signal: Bus error. It is possible that dataloader's "
                     "workers are out of shared memory", "shm"),
    ("RuntimeError", "DataLoader worker (pid(s) 77) exited unexpectedly ... Killed", "ram"),
    ("MemoryError", "", "ram"),
    ("UnpicklingError", "Weights only load failed", "weights"),
    ("AssertionError", "Label class 5 exceeds nc=3 in data.yaml. Possible class labels are 0-2", "dataset"),
    ("AssertionError", "train: No labels found in /d/labels/train.cache, can not start training. See https://x", "dataset"),
    ("Exception", "Dataset not found ❌", "dataset"),
    ("AssertionError", "last.pt training to 3 epochs is finished, nothing to resume.", "weights"),
    ("ZeroDivisionError", "division by zero", "internal"),
])
def test_classification(type_name, message, kind):
    failure = classify_failure(type_name, message)
    assert failure.kind == kind
    assert failure.hint


def test_message_is_tidied():
    failure = classify_failure("Exception", "\x1b[34mtrain: \x1b[0mDataset not found ❌ See https://docs.x/y")
    assert failure.message == "train: Dataset not found"


def test_internal_keeps_type_name():
    failure = classify_failure("KeyError", "'x'")
    assert failure.kind == "internal" and failure.message.startswith("KeyError")
