"""Fault campaign, issue 23 "code execution from data" (``faults.py --skip code``).

Each case runs the real CLI against one file a user thinks of as data that yolov5 or torch would run, and is
judged by what must hold: no marker file written, no request to the loopback server, no raw control character
on the terminal, a clear refusal (exit 2) without a traceback. Every case has a deterministic test beside the
fix:

- a model YAML whose ``activation:`` writes a marker, by ``train --model`` and by a ``train --config`` naming
  it (``tests/cli/test_model_trust_verbs.py``, ``tests/core/test_model_yaml_check.py``, the worker's guard in
  ``tests/worker/test_code_from_data_worker.py``);
- a data.yaml's ``download:`` as Python, a ``bash`` line and a zip URL (a loopback server counting requests),
  each with one missing val entry, through ``train --no-check``; and ``dataset check`` reporting it
  (``tests/worker/test_code_from_data_worker.py``, ``tests/core/test_dataset_download.py``);
- a run folder copied into ``runs/`` with a hostile ``last.pt``/``best.pt``: ``resume``, ``export``, and the
  same with a provenance record copied from the colleague's workspace (``tests/core/test_trust.py``,
  ``tests/worker/test_provenance_worker.py``);
- ESC/OSC/CR/newlines in class names (``dataset check``) and in event messages (``attach``)
  (``tests/cli/test_terminal_escapes.py``).
"""

from __future__ import annotations

import http.server
import json
import re
import shutil
import threading
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

import yaml

from core.model_catalog import yolov5_package_dir
from core.job.protocol import encode, make_event
from core.run.files import EVENTS_FILE
from tests.fixtures.checkpoint_files import record_as_own, write_hostile_checkpoint

#: A raw control character on the terminal (the CLI's own progress line clearing, ``\r\x1b[K``, is stderr's).
_RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _clean(result: dict[str, Any], *codes: int) -> bool:
    return result["rc"] in codes and not result["traceback"] and not result["hung"]


def _hostile_model(work: Path, marker: Path) -> Path:
    doc = yaml.safe_load((yolov5_package_dir() / "models" / "yolov5n.yaml").read_text())
    doc["activation"] = f"__import__('pathlib').Path({str(marker)!r}).write_text('ran')"
    path = work / "colleague-model.yaml"
    path.write_text(yaml.safe_dump(doc))
    return path


# -- model YAMLs ------------------------------------------------------------------------------------------

def model_by_flag(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    marker = work / "EXECUTED"
    model = _hostile_model(work, marker)
    argv = ["train", str(data), "--model", str(model), "--epochs", "1", "--imgsz", "64", "--device", "cpu",
            "--name", "code-model-flag"]
    result = t.measured(t.cli(*argv), env)
    return _clean(result, 2) and "--trust-model" in result["err"] and not marker.exists()


def model_by_config(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    marker = work / "EXECUTED"
    config = work / "options.yaml"
    config.write_text(yaml.safe_dump({"data": str(data), "model": str(_hostile_model(work, marker)),
                                      "epochs": 1, "imgsz": 64, "device": "cpu", "name": "code-model-config"}))
    result = t.measured(t.cli("train", "--config", str(config)), env)
    return _clean(result, 2) and "--trust-model" in result["err"] and not marker.exists()


# -- download: --------------------------------------------------------------------------------------------

def _download_yaml(data: Path, work: Path, download: str) -> Path:
    doc = yaml.safe_load(data.read_text())
    root = Path(doc.get("path") or data.parent)
    root = root if root.is_absolute() else data.parent / root
    doc.update(path=str(root), val=[str(doc["val"]), "missing-folder"], download=download)
    path = work / "data-download.yaml"
    path.write_text(yaml.safe_dump(doc))
    return path


class _Counting(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        _Counting.hits.append(self.path)
        self.send_response(404)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


def _train_no_check(data: Path, work: Path, env: dict[str, str], t: ModuleType, name: str) -> dict[str, Any]:
    """A real worker up to yolov5's ``check_dataset``, which must say "Dataset not found" and run nothing."""
    result = t.measured(t.cli(*t.train_args(data, name, epochs=1), "--no-check"), env, timeout=300)
    result["reached"] = "Dataset not found" in result["out"] + result["err"]
    return result


def download_python(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    marker = work / "EXECUTED"
    yaml_file = _download_yaml(data, work, f"open({str(marker)!r}, 'w').write('ran')")
    result = _train_no_check(yaml_file, work, env, t, "code-download-python")
    return result["reached"] and result["rc"] != 0 and not result["hung"] and not marker.exists()


def download_bash(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    marker = work / "EXECUTED"
    yaml_file = _download_yaml(data, work, f"bash -c 'touch {marker}'")
    result = _train_no_check(yaml_file, work, env, t, "code-download-bash")
    return result["reached"] and result["rc"] != 0 and not result["hung"] and not marker.exists()


def download_url(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    server = http.server.HTTPServer(("127.0.0.1", 0), _Counting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _Counting.hits.clear()
    try:
        yaml_file = _download_yaml(data, work, f"http://127.0.0.1:{server.server_address[1]}/dataset.zip")
        result = _train_no_check(yaml_file, work, env, t, "code-download-url")
    finally:
        server.shutdown()
        server.server_close()
    return result["reached"] and result["rc"] != 0 and not result["hung"] and _Counting.hits == []


def download_reported(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    marker = work / "EXECUTED"
    yaml_file = _download_yaml(data, work, f"open({str(marker)!r}, 'w').write('ran')")
    result = t.measured(t.cli("dataset", "check", str(yaml_file)), env)
    return _clean(result, 1) and "yolov5 would run this script" in result["out"] and not marker.exists()


# -- foreign run folders ----------------------------------------------------------------------------------

def _copied_run(ws: Path, work: Path, marker: Path, name: str) -> Path:
    """A colleague's stopped run unzipped into this workspace's runs, its checkpoints hostile."""
    run = ws / "runs" / name
    run.mkdir(parents=True)
    seed = next(p for p in (ws / "runs").iterdir() if (p / "config.json").is_file() and p != run)
    config = json.loads((seed / "config.json").read_text())
    config["spec"].update(run_dir=str(run), trusted_weights=["/"], trusted_model=True)
    (run / "config.json").write_text(json.dumps(config))
    for file in ("last.pt", "best.pt"):
        write_hostile_checkpoint(run / "weights" / file, marker)
    with open(run / EVENTS_FILE, "w") as handle:
        handle.write(encode(make_event("stage", stage="starting", pid=1, create_time=1.0)))
        handle.write(encode(make_event("done", status="stopped", elapsed_s=1.0)))
    return run


def copied_run_resume(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    marker = work / "EXECUTED"
    run = _copied_run(ws, work, marker, "colleague-resume")
    result = t.measured(t.cli("resume", run.name), env, timeout=300)
    return _clean(result, 2) and "--trust-weights" in result["err"] and not marker.exists()


def copied_run_export(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    marker = work / "EXECUTED"
    run = _copied_run(ws, work, marker, "colleague-export")
    result = t.measured(t.cli("export", str(run / "weights" / "best.pt"), "--format", "onnx"), env, timeout=300)
    return _clean(result, 2) and "--trust-weights" in result["err"] and not marker.exists()


def copied_record(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    """The colleague's run came with its provenance record (made with their workspace's secret)."""
    marker = work / "EXECUTED"
    run = _copied_run(ws, work, marker, "colleague-record")
    for file in ("last.pt", "best.pt"):
        record_as_own(work / "colleague-ws", run / "weights" / file)
    result = t.measured(t.cli("resume", run.name), env, timeout=300)
    return _clean(result, 2) and "--trust-weights" in result["err"] and not marker.exists()


# -- terminal escapes -------------------------------------------------------------------------------------

def escapes_dataset_check(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    doc = yaml.safe_load(data.read_text())
    root = Path(doc.get("path") or data.parent)
    doc.update(path=str(root if root.is_absolute() else data.parent / root),
               names=["cat\x1b[2K\r", "dog\x1b]0;owned\x07", *list(doc["names"])[2:]])
    hostile = work / "data-escapes.yaml"
    hostile.write_text(yaml.safe_dump(doc))  # PyYAML writes the controls as YAML escapes
    result = t.measured(t.cli("dataset", "check", str(hostile)), env)
    return _clean(result, 0, 1) and not _RAW_CONTROL.search(result["out"]) and "cat\\x1b[2K\\r" in result["out"]


def escapes_attach(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    run = ws / "runs" / "code-escapes"
    run.mkdir(parents=True)
    (run / "config.json").write_text('{"spec": {}}')
    with open(run / EVENTS_FILE, "w") as handle:
        handle.write(encode(make_event("stage", stage="starting", pid=1, create_time=1.0)))
        handle.write(encode(make_event("error", kind="dataset", message="ERROR in label x\x1b[2K\rall good",
                                       hint="\x1b]8;;http://example.invalid\x07click\x1b]8;;\x07")))
        handle.write(encode(make_event("done", status="failed", elapsed_s=1.0)))
    result = t.measured(t.cli("attach", run.name), env)
    shown = result["out"] + result["err"]
    return _clean(result, 1) and not _RAW_CONTROL.search(shown) and "ERROR in label x\\x1b[2K\\r" in shown


#: (label, case): each returns True when handled, False when not, None when it cannot run here.
CASES: list[tuple[str, Callable[..., bool | None]]] = [
    ("train --model: model YAML that runs code", model_by_flag),
    ("train --config naming such a model YAML", model_by_config),
    ("download: Python, one val entry missing", download_python),
    ("download: bash line, one val entry missing", download_bash),
    ("download: zip URL on loopback", download_url),
    ("dataset check reports download:", download_reported),
    ("copied run folder: resume", copied_run_resume),
    ("copied run folder: export best.pt", copied_run_export),
    ("copied run folder with its own record", copied_record),
    ("ESC/OSC in class names: dataset check", escapes_dataset_check),
    ("ESC/OSC in event messages: attach", escapes_attach),
]


def code(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> dict[str, Any]:
    """Run every case; ``t`` is the running ``bench.faults`` module (its ``measured``, ``cli``, ``train_args``)."""
    counts: dict[str, Any] = {"code from data: cases": 0, "code from data: not handled": 0}
    for label, case in CASES:
        case_work = work / "code" / re.sub(r"[^A-Za-z0-9]+", "_", label)
        case_work.mkdir(parents=True, exist_ok=True)
        handled = case(data, ws, case_work, env, t)
        if handled is None:
            continue
        counts["code from data: cases"] += 1
        if not handled:
            counts["code from data: not handled"] += 1
            print(f"  not handled: {label}", flush=True)
        shutil.rmtree(case_work, ignore_errors=True)
    return counts
