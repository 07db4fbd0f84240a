"""yolov5 7.0.14's DDP set-up without CUDA: fix 8 of ``core.worker.compat`` (``docs/facts/yolov5-package.md``).

Why: yolov5's ``train.py`` assumes CUDA and NCCL (``torch.cuda.set_device``, ``smart_DDP(device_ids=[LOCAL_RANK])``,
``dist.barrier(device_ids=...)``, and the model wrapped in DDP only ``if cuda``); ``enable_ddp`` gives it the
same set-up on CPUs with gloo, so a CPU/gloo DDP run trains the same code path as NCCL on GPUs. Split from
``compat`` because only the training job needs it (it imports ``yolov5.train``), while every job applies
``compat``'s offline fixes.
"""

from __future__ import annotations

import ast
import inspect
import os
from contextlib import contextmanager
from typing import Any, Iterator


# -- 8. DDP without CUDA ------------------------------------------------------------------------------------
#: Exact lines of yolov5 7.0.14's ``train.py`` that tie DDP to CUDA, and what they become (same line count, so
#: tracebacks still point at the package's own lines). Each must be found exactly once, or nothing is patched.
_DDP_SOURCE_FIXES = {
    "main": [("        assert torch.cuda.device_count() > LOCAL_RANK, 'insufficient CUDA devices for DDP command'\n"
              "        torch.cuda.set_device(LOCAL_RANK)\n"
              "        device = torch.device('cuda', LOCAL_RANK)\n"
              "        dist.init_process_group(backend='nccl' if dist.is_nccl_available() else 'gloo')\n",
              "        device = _yolostudio_ddp_device(device)\n\n\n\n")],
    "train": [("    if cuda and RANK != -1:\n        model = smart_DDP(model)\n",
               "    if RANK != -1:\n        model = smart_DDP(model)\n")],
}


def ddp_device(selected: Any) -> Any:
    """This rank's device, and the process group started on it: NCCL on a GPU, gloo on the CPU.

    ``selected`` is what yolov5's ``select_device`` chose (``cpu``, or ``cuda:0`` with the run's GPUs made
    visible); on a GPU the rank takes the visible GPU of its local rank, as yolov5 does."""
    import torch
    import torch.distributed as dist

    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    device = torch.device("cpu")
    if getattr(selected, "type", str(selected)) != "cpu":
        if torch.cuda.device_count() <= local_rank:
            raise RuntimeError(f"local rank {local_rank} needs GPU {local_rank}, but this node shows "
                               f"{torch.cuda.device_count()} GPU(s) to the run")
        torch.cuda.set_device(local_rank)
        device = torch.device("cuda", local_rank)
    if not dist.is_initialized():
        dist.init_process_group(backend="nccl" if device.type == "cuda" and dist.is_nccl_available() else "gloo")
    return device


def smart_ddp(model: Any) -> Any:
    """yolov5's ``smart_DDP``, with ``device_ids`` only for a model on a GPU (gloo on the CPU takes none)."""
    from torch.nn.parallel import DistributedDataParallel

    on_gpu = next(model.parameters()).device.type == "cuda"
    ids = [int(os.environ.get("LOCAL_RANK", 0))] if on_gpu else None
    return DistributedDataParallel(model, device_ids=ids, output_device=ids[0] if ids else None, static_graph=True)


@contextmanager
def distributed_zero_first(local_rank: int) -> Iterator[None]:
    """yolov5's ``torch_distributed_zero_first`` (each node's local rank 0 goes first, e.g. to build the label
    cache), with barriers that name devices only under NCCL."""
    import torch.distributed as dist

    def barrier() -> None:
        nccl = dist.get_backend() == "nccl"
        dist.barrier(device_ids=[max(local_rank, 0)] if nccl else None)

    if local_rank not in (-1, 0):
        barrier()
    yield
    if local_rank == 0:
        barrier()


def patched_function(module: Any, name: str, fixes: list[tuple[str, str]]) -> Any:
    """``module.name`` recompiled from its own source with ``fixes`` applied (file and line numbers kept).

    ``inspect.getsource`` reads the function's lines from its file, so each call starts again from the
    package's own code: the fixes already applied to ``name`` (kept on the module) are applied again with the
    new ones, and two fixes of one function (DDP's and ``--noval``'s of ``train``) both hold. A fix given twice
    counts once."""
    applied = module.__dict__.setdefault("_yolostudio_source_fixes", {})
    fixes = list(dict.fromkeys([*applied.get(name, []), *fixes]))
    source = inspect.getsource(getattr(module, name))
    for old, new in fixes:
        if source.count(old) != 1:
            raise RuntimeError(f"yolov5 {module.__name__}.{name} is not the 7.0.14 code this fix was written for")
        source = source.replace(old, new)
    tree = ast.parse(source)
    ast.increment_lineno(tree, inspect.getsourcelines(getattr(module, name))[1] - 1)
    namespace = module.__dict__
    exec(compile(tree, module.__file__, "exec"), namespace)  # noqa: S102 - yolov5's own source, fixed
    applied[name] = fixes
    return namespace[name]


def enable_ddp() -> None:
    """Let yolov5's trainer run under ``torch.distributed.run`` on GPUs (NCCL) *and* CPUs (gloo); idempotent.

    Imports ``yolov5.train`` (only the training job calls this)."""
    from yolov5 import train as y5train
    from yolov5.utils import dataloaders, torch_utils

    if getattr(y5train, "_yolostudio_ddp", False):
        return
    torch_utils.smart_DDP = smart_ddp
    torch_utils.torch_distributed_zero_first = distributed_zero_first
    for module in (y5train, dataloaders):
        if hasattr(module, "smart_DDP"):
            module.smart_DDP = smart_ddp
        if hasattr(module, "torch_distributed_zero_first"):
            module.torch_distributed_zero_first = distributed_zero_first
    y5train._yolostudio_ddp_device = ddp_device
    for name, fixes in _DDP_SOURCE_FIXES.items():
        patched_function(y5train, name, fixes)
    y5train._yolostudio_ddp = True

