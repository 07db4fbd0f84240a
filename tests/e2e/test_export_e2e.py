"""Export of a model trained in this test session (yolov5n, 2 epochs, imgsz 64, CPU: the session's shared
completed run, its workspace copied): ONNX and TorchScript through the real CLI and worker, verified against
PyTorch; bad checkpoints, an unverified export, a full disk; and "Try it" running the exported ONNX in a real
worker from the real page. Network refused."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from core.export.plan import find_reports
from core.job.protocol import parse_line
from tests.e2e.conftest import assert_offline, e2e_environment, run_cli
from tests.e2e.shared_run import NAME, CompletedRun
from tests.waits import TIMEOUT_MS

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory, completed_run: CompletedRun) -> dict[str, Any]:
    """The session's tiny trained run (``tests/e2e/shared_run.py``), its workspace copied for the exports
    written here: the copy's workspace, env, best.pt, and the dataset it was trained on."""
    root = tmp_path_factory.mktemp("export")
    ws = completed_run.copy_workspace(root)
    env = e2e_environment(root, root / "net-audit.log")
    run = ws / "runs" / NAME
    return {"root": root, "env": env, "run": run, "best": run / "weights" / "best.pt", "data": completed_run.data,
            "ws": ws, "audit": root / "net-audit.log"}


def test_cli_exports_onnx_and_torchscript_verified_with_json(trained):
    out = run_cli(["export", str(trained["best"]), "--format", "onnx", "--format", "torchscript", "--json"],
                  trained["env"])
    assert out.returncode == 0, out.stderr[-3000:]
    doc = json.loads(out.stdout)
    assert [e["format"] for e in doc["exports"]] == ["onnx", "torchscript"]
    for entry in doc["exports"]:
        assert set(entry) == {"format", "path", "bytes", "verified", "latency_ms"}
        assert set(entry["verified"]) == {"max_abs_diff", "nms_agreement", "ok"}
        assert set(entry["latency_ms"]) == {"torch", "exported"}
        path = Path(entry["path"])
        assert entry["verified"]["ok"] is True and path.is_file() and path.stat().st_size == entry["bytes"]
        assert entry["verified"]["max_abs_diff"] < 1e-3 and entry["verified"]["nms_agreement"] == 1.0
        assert entry["latency_ms"]["torch"] > 0 and entry["latency_ms"]["exported"] > 0
        assert path.parent == trained["run"] / "exports" / f"best-{entry['format']}"
        assert sorted(p.name for p in path.parent.iterdir()) == sorted([path.name, "export.json"])  # no temp left
    onnx_path = Path(doc["exports"][0]["path"])
    import onnx

    onnx.checker.check_model(str(onnx_path))
    report = json.loads((onnx_path.parent / "export.json").read_text())
    verified = report["verified"]
    assert report["images"] == 8 and report["image_source"] == str(trained["data"])  # the run's val images
    assert verified["client"]["client"] == "onnxruntime"
    assert verified["detections"]["reference"] > 0  # boxes were really compared, not a vacuous 100 %
    assert verified["second_client"]["client"] == "opencv-dnn"
    assert report["names"] == {"0": "circle", "1": "square", "2": "triangle"}
    assert [r["format"] for r in find_reports(trained["run"])] == ["torchscript", "onnx"]  # shown with the run
    assert_offline(trained["audit"])


def test_cli_refuses_what_it_cannot_do_with_exit_2(trained, tmp_path):
    outside = tmp_path / "copy.pt"
    shutil.copy(trained["best"], outside)
    untrusted = run_cli(["export", str(outside)], trained["env"])
    assert untrusted.returncode == 2 and "--trust-weights" in untrusted.stderr
    engine = run_cli(["export", str(trained["best"]), "--format", "engine", "--simplify"], trained["env"])
    assert engine.returncode == 2
    assert "TensorRT needs an NVIDIA GPU" in engine.stderr and "pip install onnxsim" in engine.stderr
    missing = run_cli(["export", str(tmp_path / "nope.pt")], trained["env"])
    assert missing.returncode == 2 and "nope.pt" in missing.stderr


def test_cli_truncated_checkpoint_fails_with_exit_1_and_a_reason(trained, tmp_path):
    truncated = tmp_path / "truncated.pt"
    truncated.write_bytes(trained["best"].read_bytes()[:200_000])
    out = run_cli(["export", str(truncated), "--trust-weights", "--json"], trained["env"])
    assert out.returncode == 1
    doc = json.loads(out.stdout)
    assert doc["exports"] == [] and doc["error"]["kind"] == "weights"
    assert "truncated" in doc["error"]["message"]
    assert not (tmp_path / "truncated_exports").exists()  # nothing written, not even an empty folder


# -- in-process: the worker's own functions, with torch imported once into the test process -------------


@pytest.fixture(scope="module")
def applied(trained):
    from core.worker import compat

    compat.apply(trained["root"] / "cache", trusted=[trained["ws"] / "runs"])
    return compat


def _run_job(trained, tmp_path, **overrides) -> tuple[int, list[dict]]:
    from core.export.options import ExportOptions
    from core.export.plan import build_export_spec
    from core.job.protocol import EventWriter
    from core.worker.__main__ import run_job

    weights = overrides.pop("weights", trained["best"])
    spec = build_export_spec(ExportOptions(weights=str(weights), formats=("onnx",), imgsz=64), trained["ws"],
                             latency_runs=2)
    spec.update(overrides)
    stream = io.StringIO()
    code = run_job("export", spec, EventWriter(stream))
    events = [parse_line(line).event for line in stream.getvalue().splitlines()]
    return code, events


def test_checkpoint_errors_name_the_problem(applied, trained, tmp_path):
    import torch

    from core.worker.export_load import ExportError, load_for_export

    cases = {}
    (tmp_path / "text.pt").write_text("not a checkpoint")
    cases["text.pt"] = "not a PyTorch checkpoint"
    (tmp_path / "trunc.pt").write_bytes(trained["best"].read_bytes()[:100_000])
    cases["trunc.pt"] = "truncated"
    torch.save({"weights": torch.zeros(2)}, tmp_path / "dict.pt")
    cases["dict.pt"] = "not a yolov5 checkpoint"

    class Foreign:  # pickled under modules/classes this app doesn't have (another version's layout)
        pass

    for name, module in (("absent.pt", "yolostudio_absent_module"), ("renamed.pt", "yolov5.models.yolo")):
        saved = sys.modules.get(module)
        fake = type(sys)(module)
        fake.Foreign = Foreign
        Foreign.__module__, Foreign.__qualname__ = module, "Foreign"
        sys.modules[module] = fake
        try:
            torch.save({"model": Foreign()}, tmp_path / name)
        finally:
            if saved is None:
                del sys.modules[module]
            else:
                sys.modules[module] = saved
        cases[name] = "different yolov5/ultralytics version"
    applied.set_trusted_roots([trained["ws"] / "runs", tmp_path])
    try:
        for name, words in cases.items():
            with pytest.raises(ExportError) as err:
                load_for_export(tmp_path / name)
            assert err.value.kind == "weights" and words in err.value.message, name
            assert err.value.hint
    finally:
        applied.set_trusted_roots([trained["ws"] / "runs"])
    outside = tmp_path / "outside.pt"
    shutil.copy(trained["best"], outside)
    with pytest.raises(applied.UntrustedCheckpointError):
        load_for_export(outside)  # a pickle from elsewhere is not unpickled without the user's word


def test_unverified_export_is_kept_marked_and_exits_1(applied, trained, tmp_path, monkeypatch):
    from core.worker import export_verify

    monkeypatch.setitem(export_verify.TOLERANCES, "fp32", (-1.0, -1.0, 1.0))  # nothing can pass
    code, events = _run_job(trained, tmp_path)
    assert code == 1
    result = [e for e in events if e["type"] == "export_result"][0]
    assert result["ok"] is False
    path = Path(result["report"]["path"])
    assert path.name == "best.unverified.onnx" and path.is_file()
    assert not (path.parent / "best.onnx").exists()  # the verified name now holds nothing stale
    report = json.loads((path.parent / "export.json").read_text())
    assert report["verified"]["ok"] is False and report["verified"]["max_abs_diff"] is not None
    assert events[-1]["type"] == "done" and events[-1]["status"] == "failed"
    assert events[-1]["exports"][0]["verified"]["ok"] is False


def test_no_disk_space_fails_before_writing(applied, trained, tmp_path):
    code, events = _run_job(trained, tmp_path, min_free_bytes=1 << 60)
    assert code == 1
    error = [e for e in events if e["type"] == "error"][0]
    assert error["kind"] == "disk_full" and "Not enough disk space" in error["message"]
    assert events[-1]["status"] == "failed" and events[-1]["exports"] == []


def test_a_disk_that_fills_mid_export_is_disk_full_and_leaves_no_partial_file(applied, trained, tmp_path,
                                                                               monkeypatch):
    """The free-space check passes, then the write fails: ``disk_full`` in words, no C++ abort, nothing
    half-written kept, and a partial file an earlier killed export left is cleaned first."""
    from tests.worker.tmpfs import small_tmpfs

    size_mb = trained["best"].stat().st_size // (1 << 20) + 2
    with small_tmpfs(tmp_path / "disk", size_mb=size_mb) as disk:
        folder = disk if disk is not None else tmp_path / "disk"
        weights = folder / "best.pt"
        shutil.copy(trained["best"], weights)
        from core.export.plan import final_path

        stale = final_path(weights, "onnx").parent / ".best.onnx.999999999.partial"  # inside the same disk
        stale.parent.mkdir(parents=True, exist_ok=True)
        stale.write_bytes(b"left by a killed export")
        if disk is None:  # no tmpfs here: the same failure, injected where the file is written
            import errno

            from core.worker import export_formats

            def full(*args, **kwargs):
                raise OSError(errno.ENOSPC, "No space left on device")

            monkeypatch.setattr(export_formats, "open", full, raising=False)
        code, events = _run_job(trained, tmp_path, weights=weights, min_free_bytes=0,
                                trusted_weights=[str(weights.resolve())])
        assert code == 1
        error = [e for e in events if e["type"] == "error"][0]
        assert error["kind"] == "disk_full" and "needs about" in error["message"], error
        assert "resume" not in error["hint"] and "export again" in error["hint"]
        assert not stale.exists()
        assert [p.name for p in folder.rglob("*partial*")] == []


def test_try_it_runs_the_exported_onnx_in_a_real_worker(trained, qtbot):
    from gui.export.export_page import ExportPage

    onnx_path = trained["run"] / "exports" / "best-onnx" / "best.onnx"
    if not onnx_path.is_file():  # when run alone, export first
        assert run_cli(["export", str(trained["best"])], trained["env"]).returncode == 0
    env = trained["env"]
    page = ExportPage(trained["ws"], launcher=lambda job: ([sys.executable, "-m", "core.worker", job.job,
                                                             str(job.path)], env))
    qtbot.addWidget(page)
    page.open_run(trained["run"])
    qtbot.waitUntil(lambda: bool(page.cards()), timeout=TIMEOUT_MS)  # its reports, read off the GUI thread
    page.choose_try_model(str(onnx_path))
    with qtbot.waitSignal(page.predictor.ended, timeout=120_000) as ended:
        assert page.try_images(None)  # the run's validation images
    assert ended.args[0].status == "completed", ended.args[0]
    view = page.try_view
    assert len(view.results) == 8
    assert all(r["width"] == 64 and r["height"] == 64 for r in view.results.values())
    total = sum(len(r["boxes"]) for r in view.results.values())
    assert total > 0
    view.slider.setValue(view.slider.minimum())
    qtbot.waitUntil(lambda: view.view.image is not None, timeout=TIMEOUT_MS)
    low = view.box_count()
    view.slider.setValue(view.slider.maximum())
    assert view.box_count() <= low
    assert_offline(trained["audit"])
