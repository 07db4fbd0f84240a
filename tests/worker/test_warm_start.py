"""yolov5's TensorBoard graph is drawn when training starts, before the epoch clock, and its batch-0 call becomes a
no-op (issue 36: the trace read as batch 1's data wait). yolov5's own function and a real SummaryWriter, on a tiny
model; no timing asserted."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

torch = pytest.importorskip("torch")


@pytest.fixture
def yolov5_loggers(monkeypatch):
    from yolov5.utils import loggers as module

    monkeypatch.setattr(module, "log_tensorboard_graph", module.log_tensorboard_graph)  # restored after the test
    return module


def _local(tmp_path, plots=True, tb=True, sync_bn=False, start_epoch=0):
    from torch.utils.tensorboard import SummaryWriter

    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3, padding=1), torch.nn.ReLU())
    writer = SummaryWriter(str(tmp_path)) if tb else None
    return {"loggers": SimpleNamespace(plots=plots, tb=writer), "opt": SimpleNamespace(imgsz=32, sync_bn=sync_bn),
            "model": model, "start_epoch": start_epoch}


def test_the_graph_is_drawn_once_before_the_clock_and_yolov5s_batch_0_call_does_nothing(tmp_path, yolov5_loggers):
    from core.worker.warm_start import trace_graph_now

    local = _local(tmp_path)
    seconds = trace_graph_now(local)
    assert seconds is not None and seconds >= 0
    local["loggers"].tb.flush()
    written = list(tmp_path.glob("events.out.tfevents.*"))
    assert written and written[0].stat().st_size > 200  # the graph is in the TensorBoard file
    size = written[0].stat().st_size

    def must_not_trace(*args, **kwargs):
        raise AssertionError("traced")

    torch_jit_trace = torch.jit.trace
    try:
        torch.jit.trace = must_not_trace  # what yolov5's Loggers call at ni == 0 now reaches
        yolov5_loggers.log_tensorboard_graph(local["loggers"].tb, local["model"], imgsz=(32, 32))
    finally:
        torch.jit.trace = torch_jit_trace
    local["loggers"].tb.flush()
    assert written[0].stat().st_size == size


@pytest.mark.parametrize("case", [{"plots": False}, {"tb": False}, {"sync_bn": True}, {"start_epoch": 3}])
def test_no_graph_where_yolov5_would_draw_none(tmp_path, yolov5_loggers, case):
    from core.worker.warm_start import trace_graph_now

    original = yolov5_loggers.log_tensorboard_graph
    assert trace_graph_now(_local(tmp_path, **case)) is None
    assert yolov5_loggers.log_tensorboard_graph is original
    assert trace_graph_now({}) is None  # a DDP rank without loggers
