"""Test-only delays inside yolov5, so an e2e test's timing verdict holds on a loaded machine.

``YOLOSTUDIO_TEST_DELAYS="load=0.25,step=1.0"`` makes every ``LoadImagesAndLabels.__getitem__`` (one image
for the data loader) sleep ``load`` seconds and every ``ComputeLoss.__call__`` (once per training step) sleep
``step`` seconds. A sleep does not stretch when other processes take the CPU, so a test can make its effect
overwhelming — e.g. 1 s of loading against a few milliseconds of compute — instead of relying on how fast
decoding and training happen to run on the machine. Imported by ``sitecustomize`` when the variable is set;
the patch is applied right after yolov5 imports each module, through an import hook.

``YOLOSTUDIO_TEST_HOLD="N:PATH"`` holds the process's N-th training step (a ``ComputeLoss`` call with gradients
on; validation computes its loss without them) until ``PATH`` exists: a test that stops or kills a run sends
the stop while the run is held, waits for the worker's ``stage: stopping``, then creates the file. The run
cannot reach its end first, whatever the machine's load (``tests/e2e/conftest.py`` ``Hold``).

``YOLOSTUDIO_TEST_HOLD_PREDICT="N:PATH"`` holds the process's N-th image read of the predictor
(``core.worker.predict_job.prepare_images``: "Try it", auto-label) until ``PATH`` exists: a test kills an
auto-label there, with N-1 images done and the rest not (``tests/e2e/test_label_e2e.py``).
"""

from __future__ import annotations

import functools
import importlib.abc
import importlib.util
import os
import sys
import time

_TARGETS = {"load": ("yolov5.utils.dataloaders", "LoadImagesAndLabels", "__getitem__"),
            "step": ("yolov5.utils.loss", "ComputeLoss", "__call__")}


def _delays() -> dict[str, float]:
    out = {}
    for part in os.environ.get("YOLOSTUDIO_TEST_DELAYS", "").split(","):
        key, _, value = part.partition("=")
        if key.strip() in _TARGETS and value:
            out[key.strip()] = float(value)
    return out


def _hold() -> tuple[int, str] | None:
    step, _, path = os.environ.get("YOLOSTUDIO_TEST_HOLD", "").partition(":")
    return (int(step), path) if step.isdigit() and path else None


def _held(method, step: int, release: str):
    """The ``step``-th training step (1-based, this process) waits for ``release`` — at most 10 minutes, so a
    test that fails before releasing ends by its own timeouts, not this one."""
    steps = [0]

    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        import torch

        if torch.is_grad_enabled():
            steps[0] += 1
            if steps[0] == step:
                deadline = time.monotonic() + 600
                while not os.path.exists(release) and time.monotonic() < deadline:
                    time.sleep(0.05)
        return method(*args, **kwargs)
    return wrapper


def _held_call(function, call: int, release: str):
    """The ``call``-th call (1-based, this process) of ``function`` waits for ``release`` (at most 10 minutes)."""
    calls = [0]

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        calls[0] += 1
        if calls[0] == call:
            deadline = time.monotonic() + 600
            while not os.path.exists(release) and time.monotonic() < deadline:
                time.sleep(0.05)
        return function(*args, **kwargs)
    return wrapper


def _slowed(method, seconds: float):
    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        time.sleep(seconds)
        return method(*args, **kwargs)
    return wrapper


class _PatchAfterImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself; for a target module it wraps the real loader so the patch follows execution."""

    def __init__(self, patches: dict[str, list[tuple[str, str, object]]]) -> None:
        self.patches = patches

    def find_spec(self, fullname, path, target=None):
        if fullname not in self.patches:
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(fullname)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return spec
        run, patches = spec.loader.exec_module, self.patches[fullname]

        def exec_module(module):
            run(module)
            for cls_name, method, patch in patches:
                owner = getattr(module, cls_name) if cls_name else module  # "": a module's function
                setattr(owner, method, patch(getattr(owner, method)))

        spec.loader.exec_module = exec_module
        return spec


def install() -> None:
    patches: dict[str, list[tuple[str, str, object]]] = {}
    for key, seconds in _delays().items():
        module, cls, method = _TARGETS[key]
        patches.setdefault(module, []).append((cls, method, functools.partial(_slowed, seconds=seconds)))
    hold = _hold()
    if hold is not None:
        module, cls, method = _TARGETS["step"]
        patches.setdefault(module, []).append((cls, method, functools.partial(_held, step=hold[0], release=hold[1])))
    step, _, path = os.environ.get("YOLOSTUDIO_TEST_HOLD_PREDICT", "").partition(":")
    if step.isdigit() and path:
        patches.setdefault("core.worker.predict_job", []).append(
            ("", "prepare_images", functools.partial(_held_call, call=int(step), release=path)))
    if patches:
        sys.meta_path.insert(0, _PatchAfterImport(patches))
