"""A one-time cost yolov5 pays inside its first batches, moved before the first epoch's clock (issue 36).

yolov5's TensorBoard logger draws the model graph at the end of the very first batch (``Loggers.on_train_batch_end``
at ``ni == 0``, with plots on): ``torch.jit.trace`` of a whole forward pass at the training size, in the training
loop's own thread. Measured on the 2-core development machine, one torch thread: 4.2 s for yolov5n at 128 px,
8–12 s for yolov5s at 640. The run's events counted it as the *next* batch's data wait (batch 1 waited 1.5 s on a
128 px run, 9 s in the issue's run), so a run fed from a RAM cache looked input-bound, its epoch 0 took seconds
longer than the steady epochs, and the wizard's prediction missed it. ``trace_graph_now`` draws the same graph
(yolov5's own function, the same model in the same mode, the same size) when training starts, before the epoch
clock, and turns yolov5's call at batch 0 into a no-op for this process: the TensorBoard file is the same, the
first batches are timed for what they are, and the time it took is reported (``stage: training``'s
``tensorboard_graph_s``).
"""

from __future__ import annotations

import time
from typing import Any


def trace_graph_now(local: dict[str, Any]) -> float | None:
    """Draw yolov5's TensorBoard graph now from ``train()``'s locals; the seconds it took, or None when yolov5
    would not draw one (no plots, no TensorBoard, SyncBatchNorm, a rank without loggers, a resumed run: its
    batches never count from ``ni == 0``)."""
    loggers, opt, model = local.get("loggers"), local.get("opt"), local.get("model")
    if loggers is None or opt is None or model is None or not getattr(loggers, "plots", False) \
            or not getattr(loggers, "tb", None) or getattr(opt, "sync_bn", False) or local.get("start_epoch", 0):
        return None
    from yolov5.utils import loggers as module

    original = getattr(module.log_tensorboard_graph, "original", module.log_tensorboard_graph)
    started = time.perf_counter()
    original(loggers.tb, model, imgsz=(opt.imgsz, opt.imgsz))  # yolov5's arguments at ni == 0
    module.log_tensorboard_graph = _already_drawn
    _already_drawn.original = original  # type: ignore[attr-defined]
    return time.perf_counter() - started


def _already_drawn(*args: Any, **kwargs: Any) -> None:
    """yolov5's batch-0 call, after ``trace_graph_now`` drew the graph before the clock."""
