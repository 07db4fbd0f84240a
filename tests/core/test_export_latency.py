"""Export latency: PyTorch and the runtime timed side by side, interleaved, each with its spread
(core/worker/export_verify.paired_latency_ms, core/export/render.latency_line) — issue 32: PyTorch was timed once,
under load, and the same 418.9 ms put in two reports beside 0.7 ms."""

from __future__ import annotations

import numpy as np

from core.export.render import latency_line
from core.worker.export_verify import latency_report, paired_latency_ms


def test_the_two_runners_alternate_so_a_passing_load_lands_on_both():
    now, calls = [0.0], []

    def runner(name: str, ms: float):
        def run(x):
            calls.append(name)
            load = 10.0 if 6 <= len(calls) <= 13 else 1.0  # another program for a while, then gone
            now[0] += ms * load / 1000.0
        return run

    torch, exported = paired_latency_ms(runner("torch", 4.0), runner("onnx", 1.0), np.zeros(1), runs=8, warmup=1,
                                        clock=lambda: now[0])
    assert calls[:2] == ["torch", "onnx"] and calls[2:6] == ["torch", "onnx", "onnx", "torch"]  # alternating
    assert calls.count("torch") == calls.count("onnx") == 9
    assert torch["p10"] <= torch["p50"] <= torch["p90"] and exported["p10"] <= exported["p50"] <= exported["p90"]
    assert torch["p90"] > 2 * torch["p10"] and exported["p90"] > 2 * exported["p10"]  # the load: in both spreads
    report = latency_report(torch, exported, runs=8, batch=2)
    assert report["torch"] == torch["p50"] / 2 and report["exported_range"] == [exported["p10"] / 2,
                                                                                exported["p90"] / 2]


def test_the_report_line_shows_both_medians_with_their_ranges():
    lat = {"torch": 41.9, "exported": 0.7, "torch_range": [30.2, 60.0], "exported_range": [0.6, 0.9], "runs": 20}
    line = latency_line(lat, "onnxruntime", "cpu")
    assert "side by side" in line and "20 interleaved runs" in line
    assert "PyTorch 41.9 ms (30.2–60.0)" in line and "onnxruntime 0.7 ms (0.6–0.9)" in line
    assert "median of 20" in latency_line({"torch": 1.0, "exported": 0.5, "runs": 20}, "onnxruntime", "cpu")
