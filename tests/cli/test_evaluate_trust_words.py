"""Issue 37, functional: what ``evaluate`` says and returns when it refuses a run's weights.

- a run copied into this workspace's runs from another one is "in your runs" (not "outside your runs");
- after the workspace's secret key was deleted (a new one made), the refusal says so and what it means;
- a ``best.pt`` changed in place (size and mtime kept, so the front end's cheap check passes) is refused by the
  worker's full check: exit 2, a refusal of the configuration, not 1 (the real worker runs).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli.common import EXIT_USAGE, exit_code_of
from cli.main import main as cli_main
from core.job.jobs import JobTracker
from core.run.provenance import key_path, workspace_key
from tests.fixtures.evaluable_run import evaluable_run

ROOT = Path(__file__).resolve().parents[2]


def _configured(run: Path, data_yaml: Path) -> Path:
    config = {"data": str(data_yaml), "imgsz": 64, "batch": 4, "epochs": 3, "device": "cpu", "name": run.name}
    spec = {"config": config, "resolved": {"data": config["data"], "cfg": "yolov5n.yaml", "weights": "",
                                           "hyp": "hyp.yaml"}, "trusted_weights": [], "trusted_model": False}
    (run / "config.json").write_text(json.dumps({"spec": spec}))
    return run


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return _configured(*evaluable_run(tmp_path, train=3, val=2))


def test_a_run_copied_into_the_runs_is_said_to_be_in_them(tmp_path, monkeypatch, capsys):
    ours, _ = evaluable_run(tmp_path / "mine", train=1, val=1)
    theirs, data_yaml = evaluable_run(tmp_path / "theirs", train=3, val=2)  # another workspace, another key
    copy = ours.parent / "copied"
    shutil.copytree(theirs, copy)
    _configured(copy, data_yaml)
    monkeypatch.setenv("YOLOSTUDIO_WORKSPACE", str(ours.parents[1]))
    assert cli_main(["evaluate", "copied"]) == 2
    err = capsys.readouterr().err
    assert "is in your runs" in err and "outside your runs" not in err and "--trust-weights" in err


def test_after_the_secret_key_was_deleted_the_refusal_says_a_new_one_was_made(run_dir, monkeypatch, capsys):
    workspace = run_dir.parents[1]
    recorded = (run_dir / "weights" / "provenance.json").stat().st_mtime
    key_path(workspace).unlink()
    assert workspace_key(workspace, create=True) is not None  # what the next checkpoint written would do
    os.utime(key_path(workspace), (recorded + 60, recorded + 60))  # made after the run's record
    monkeypatch.setenv("YOLOSTUDIO_WORKSPACE", str(workspace))
    assert cli_main(["evaluate", "exp"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "made anew" in err and "provenance.key" in err and "foreign until you trust it again" in err


def test_a_worker_refusal_exits_2_and_a_failure_1():
    refused, failed = JobTracker(), JobTracker()
    refused.feed({"type": "error", "kind": "untrusted", "message": "x"})
    refused.feed({"type": "done", "status": "failed"})
    failed.feed({"type": "error", "kind": "weights", "message": "truncated"})
    failed.feed({"type": "done", "status": "failed"})
    assert exit_code_of(refused.outcome(exit_code=1)) == EXIT_USAGE
    assert exit_code_of(failed.outcome(exit_code=1)) == 1


def test_a_best_pt_changed_in_place_is_refused_by_the_worker_with_exit_2(run_dir):
    best = run_dir / "weights" / "best.pt"
    before = best.stat()
    best.write_bytes(b"px")  # same size
    os.utime(best, ns=(before.st_atime_ns, before.st_mtime_ns))  # same mtime: the front end's check passes
    env = dict(os.environ, YOLOSTUDIO_WORKSPACE=str(run_dir.parents[1]), CUDA_VISIBLE_DEVICES="")
    result = subprocess.run([sys.executable, "-m", "cli", "evaluate", "exp", "--device", "cpu"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert result.returncode == 2, result.stderr
    assert "not the file YOLO Studio recorded writing there" in " ".join(result.stderr.split())
    assert "Traceback" not in result.stderr
