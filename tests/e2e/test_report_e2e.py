"""``yolostudio report`` as a user types it, on the session's tiny trained run (``tests/e2e/shared_run.py``): refused
with the command to run before an evaluation exists; after ``yolostudio evaluate`` it writes the page in English
and Chinese from the stored evaluation, with the weights' real SHA-256 and the run's settings, without starting a
worker. Network refused."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.e2e.conftest import assert_offline, e2e_environment, run_cli
from tests.e2e.shared_run import NAME, CompletedRun

pytestmark = pytest.mark.e2e


def test_report_after_evaluate_in_both_languages(tmp_path: Path, completed_run: CompletedRun):
    ws = completed_run.copy_workspace(tmp_path)
    env = e2e_environment(tmp_path, tmp_path / "net-audit.log")
    run = ws / "runs" / NAME

    before = run_cli(["report", NAME], env)
    assert before.returncode == 2 and f"yolostudio evaluate {NAME}" in before.stderr
    assert "Traceback" not in before.stderr

    evaluated = run_cli(["evaluate", NAME, "--json"], env)
    assert evaluated.returncode == 0, evaluated.stderr[-3000:]
    evaluation = json.loads(evaluated.stdout)

    human = run_cli(["report", NAME], env)
    assert human.returncode == 0, human.stderr[-3000:]
    page = run / "deployment-report.html"
    assert str(page) in human.stdout and "false alarms per 100 images" in human.stdout
    text = page.read_text(encoding="utf-8")
    sha = hashlib.sha256((run / "weights" / "best.pt").read_bytes()).hexdigest()
    assert sha in text and "yolov5n.yaml" in text and "Operating confidence" in text
    assert all(name in text for name in ("circle", "square", "triangle"))

    out = tmp_path / "bericht.html"
    zh = run_cli(["report", NAME, "--lang", "zh_CN", "--target-recall", "0.5", "--out", str(out), "--json"], env)
    assert zh.returncode == 0, zh.stderr[-3000:]
    doc = json.loads(zh.stdout)
    assert doc["path"] == str(out) and doc["model"]["sha256"] == sha == evaluation["weights_sha256"]
    assert doc["operating_point"]["rule"] == "recall" and doc["model"]["imgsz_trained"] == 64
    assert doc["evaluation"]["key"] == evaluation["key"] and doc["at_confidence"]["images"] == evaluation["images"]
    assert "部署报告" in out.read_text(encoding="utf-8") and not (run / "deployment-report.zh_CN.html").exists()
    assert_offline(tmp_path / "net-audit.log")
