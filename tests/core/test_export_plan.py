"""Where exports go, which images verify them, and how reports read back (pure, no torch)."""

from __future__ import annotations

import json
from pathlib import Path

from core.export.options import ExportOptions
from core.export.plan import (build_export_spec, cli_summary, export_root, final_path, find_reports,
                              run_dataset, run_imgsz)
from core.export.render import detail_lines, headline


def _run(tmp_path: Path) -> Path:
    run = tmp_path / "ws" / "runs" / "exp"
    (run / "weights").mkdir(parents=True)
    (run / "weights" / "best.pt").write_bytes(b"x")
    spec = {"spec": {"config": {"data": str(tmp_path / "data.yaml"), "imgsz": 128}}}
    (run / "config.json").write_text(json.dumps(spec))
    return run


def test_run_weights_export_into_the_run(tmp_path):
    run = _run(tmp_path)
    weights = run / "weights" / "best.pt"
    assert export_root(weights) == run / "exports"
    assert final_path(weights, "onnx") == run / "exports" / "best-onnx" / "best.onnx"
    assert final_path(weights, "engine", verified=False) == run / "exports" / "best-engine" / "best.unverified.engine"
    assert run_dataset(weights) == str(tmp_path / "data.yaml") and run_imgsz(weights) == 128
    other = tmp_path / "elsewhere" / "model.pt"
    other.parent.mkdir()
    other.write_bytes(b"x")
    assert export_root(other) == other.parent / "model_exports"
    assert run_dataset(other) == "" and run_imgsz(other) == 640


def test_spec_fills_the_runs_dataset_and_trust(tmp_path):
    run = _run(tmp_path)
    spec = build_export_spec(ExportOptions(weights=str(run / "weights" / "best.pt"), formats=("onnx", "torchscript")),
                             tmp_path / "ws")
    assert spec["options"]["data"] == str(tmp_path / "data.yaml")
    assert spec["outputs"]["torchscript"].endswith("best-torchscript/best.torchscript")
    assert spec["trusted_weights"] == []


REPORT = {"format": "onnx", "path": "/x/best.onnx", "bytes": 7_100_000, "precision": "fp32", "images": 8,
          "device": "cpu", "created": 2.0, "weights": "/x/best.pt",
          "verified": {"ok": True, "max_abs_diff": 9.2e-5, "max_abs_diff_boxes_px": 9.2e-5, "max_abs_diff_scores": 2e-7,
                       "nms_agreement": 1.0, "nms_conf": 0.25,
                       "detections": {"reference": 4, "exported": 4, "matched": 4},
                       "client": {"client": "onnxruntime", "providers": ["CPUExecutionProvider"]},
                       "second_client": {"client": "opencv-dnn", "skipped": "dynamic"}},
          "latency_ms": {"torch": 7.4, "exported": 0.7, "runs": 20}}


def test_cli_summary_has_the_issue_shape():
    assert cli_summary(REPORT) == {"format": "onnx", "path": "/x/best.onnx", "bytes": 7_100_000,
                                   "verified": {"max_abs_diff": 9.2e-5, "nms_agreement": 1.0, "ok": True},
                                   "latency_ms": {"torch": 7.4, "exported": 0.7}}


def test_render_words_for_verified_unverified_and_failed():
    assert headline(REPORT) == ("ok", "ONNX: verified against PyTorch")
    lines = "\n".join(detail_lines(REPORT))
    assert "7.1 MB" in lines and "9.20e-05" in lines and "100.0 % (4 of 4 boxes" in lines
    assert "PyTorch 7.4 ms" in lines and "0.7 ms" in lines and "OpenCV DNN: not checked (dynamic)" in lines
    unverified = {**REPORT, "verified": {**REPORT["verified"], "ok": False}}
    assert headline(unverified)[0] == "warning" and "NOT verified" in headline(unverified)[1]
    failed = {"format": "engine", "path": None, "error": {"message": "no GPU", "hint": "use ONNX"},
              "verified": {"ok": False}}
    assert headline(failed) == ("error", "TensorRT: failed — no GPU") and detail_lines(failed) == ["use ONNX"]


def test_find_reports_newest_first_skipping_broken(tmp_path):
    run = _run(tmp_path)
    for fmt, created in (("onnx", 1.0), ("torchscript", 3.0)):
        folder = run / "exports" / f"best-{fmt}"
        folder.mkdir(parents=True)
        (folder / "export.json").write_text(json.dumps({**REPORT, "format": fmt, "created": created}))
    (run / "exports" / "broken").mkdir()
    (run / "exports" / "broken" / "export.json").write_text("{not json")
    reports = find_reports(run)
    assert [r["format"] for r in reports] == ["torchscript", "onnx"]
    assert reports[0]["report_path"].endswith("best-torchscript/export.json")
