"""The repair worker job, run for real (``python -m core.worker repair``) against a fake pip that prints
pip's progress and fails on demand: no real reinstall happens in tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.job.launch import worker_argv, worker_env
from core.job.protocol import LineDecoder

FAKE_PIP = Path(__file__).resolve().parents[1] / "fixtures" / "fake_pip.py"


def fake_build(tag: str) -> dict:
    """A build as ``RepairPlan.job_spec`` lists it, with the fake pip in place of ``python -m pip``."""
    index = ["--index-url", f"https://download.pytorch.org/whl/{tag}"]
    return {"tag": tag, "argv": [sys.executable, str(FAKE_PIP), "install", f"torch==2.14.1+{tag}", *index],
            "command": f"python -m pip install torch==2.14.1+{tag}",
            "check": [sys.executable, str(FAKE_PIP), "install", "--dry-run", "--no-deps", "--ignore-installed",
                      f"torch==2.14.1+{tag}", *index]}


def start(tmp_path: Path, builds: list[dict] | None = None, **env: str) -> subprocess.Popen:
    spec = {"argv": [sys.executable, str(FAKE_PIP), "install", "torch==2.14.1+cu130"], "run_dir": str(tmp_path / "job"),
            "builds": builds or []}
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(json.dumps(spec))
    return subprocess.Popen(worker_argv("repair", spec_file), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            env=dict(worker_env(), **env))


def events_of(proc: subprocess.Popen, on_event=None) -> list[dict]:
    decoder, events = LineDecoder(), []
    assert proc.stdout is not None
    while True:
        chunk = proc.stdout.read1(65536)
        for decoded in decoder.feed(chunk) if chunk else decoder.flush():
            if decoded.event is not None:
                events.append(decoded.event)
                if on_event:
                    on_event(decoded.event)
        if not chunk:
            break
    proc.wait(timeout=60)
    return events


def test_successful_repair_reports_progress_and_logs_pip(tmp_path: Path):
    events = events_of(start(tmp_path))
    progress = [e for e in events if e["type"] == "repair_progress"]
    fractions = [e["fraction"] for e in progress if e.get("fraction") is not None]  # null is dropped at parse
    assert fractions and max(fractions) == 1.0
    assert any(e["phase"] == "installing" and not e["cancellable"] for e in progress)
    assert any("Successfully installed" in e.get("message", "") for e in events if e["type"] == "log")
    assert events[-1]["type"] == "done" and events[-1]["status"] == "completed"
    assert "Successfully installed torch-2.14.1+cu130" in (tmp_path / "job" / "worker.log").read_text()


@pytest.mark.parametrize("where,text", [("download", "Read timed out"), ("install", "No space left on device")])
def test_failing_pip_is_reported_with_its_own_error(tmp_path: Path, where, text):
    events = events_of(start(tmp_path, FAKE_PIP_FAIL=where))
    errors = [e for e in events if e["type"] == "error"]
    assert errors and text in errors[0]["message"] and "worker.log" in errors[0]["hint"]
    assert events[-1]["status"] == "failed"


@pytest.mark.parametrize("phase,status", [("download", "stopped"), ("install", "completed")])
def test_stop_is_obeyed_only_before_pip_replaces_files(tmp_path: Path, phase, status):
    """Stopped while downloading: pip is killed, nothing was replaced. While installing: a killed pip would
    leave PyTorch half uninstalled, so the job says so and finishes."""
    release = tmp_path / "release"
    proc = start(tmp_path, FAKE_PIP_HOLD=phase, FAKE_PIP_HOLD_FILE=str(release))
    wanted = "downloading" if phase == "download" else "installing"
    sent = []

    def on_event(event):
        if event["type"] == "repair_progress" and event["phase"] == wanted and not sent:
            proc.stdin.write(b'{"type": "stop"}\n')
            proc.stdin.flush()
            sent.append(1)
        if event["type"] == "warning":
            release.touch()  # the job refused to stop: let the fake pip finish

    events = events_of(proc, on_event)
    assert events[-1]["status"] == status
    warned = any(e["type"] == "warning" and e["code"] == "repair-not-stoppable" for e in events)
    assert warned == (phase == "install")
    if phase == "download":
        assert not any(e["type"] == "repair_progress" and e["phase"] == "installing" for e in events)


def test_the_index_is_asked_first_and_a_build_it_does_not_serve_is_replaced(tmp_path: Path):
    events = events_of(start(tmp_path, [fake_build("cu132"), fake_build("cu130")], FAKE_PIP_SERVES="cu130,cpu"))
    [warning] = [e for e in events if e["type"] == "warning"]
    assert warning["code"] == "repair-build-not-served" and "cu132 is not served" in warning["message"]
    assert "No matching distribution found for torch==2.14.1+cu132" in warning["message"]
    assert warning["tag"] == "cu130" and "torch==2.14.1+cu130" in warning["argv"]
    assert events[-1]["status"] == "completed"
    log = (tmp_path / "job" / "worker.log").read_text()
    assert "Successfully installed torch-2.14.1+cu130" in log and "+cu132 torchvision" not in log


def test_nothing_served_stops_before_anything_changes(tmp_path: Path):
    events = events_of(start(tmp_path, [fake_build("cu132"), fake_build("cu130")], FAKE_PIP_SERVES="cpu"))
    [error] = [e for e in events if e["type"] == "error"]
    assert "serves none of the PyTorch builds" in error["message"] and "cu132, cu130" in error["message"]
    assert "Nothing was changed" in error["hint"] and events[-1]["status"] == "failed"
    assert "Successfully installed" not in (tmp_path / "job" / "worker.log").read_text()
