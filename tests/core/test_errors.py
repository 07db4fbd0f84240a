"""Failures from inside yolov5/torch become a kind, a clean message and a way out."""

from __future__ import annotations

import pytest

from core.training.errors import classify_failure


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


def test_a_failure_raised_while_reading_the_dataset_is_a_data_problem_not_a_bug():
    from core.worker.job import failure_of

    def check_dataset(data):  # yolov5's reader, by name: whatever it raises is about the data
        return {"names": data["names"]}["names"][5]

    try:
        check_dataset({"names": ["a"]})
    except IndexError as exc:
        kind, message, hint = failure_of(exc)
    assert kind == "dataset" and "bug" not in hint and "dataset check" in hint

    try:
        [][1]
    except IndexError as exc:
        assert failure_of(exc)[0] == "internal"  # anywhere else it still reads as one


@pytest.mark.parametrize(("exc", "finished"), [
    (AssertionError("runs/x/weights/last.pt training to 3 epochs is finished, nothing to resume.\n"), True),
    (UnboundLocalError("cannot access local variable 'epoch' where it is not associated with a value"), True),
    (AssertionError("Label class 3 exceeds nc=1"), False),
    (UnboundLocalError("cannot access local variable 'x'"), False),
])
def test_resume_of_a_run_whose_epochs_were_all_trained_is_told_apart(exc, finished):
    from core.worker.train_guards import training_was_finished

    assert training_was_finished(exc) is finished
