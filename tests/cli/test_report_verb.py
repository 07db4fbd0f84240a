"""``yolostudio report`` in-process on a run folder made without training (tests/fixtures/report_run.py): --json gives
the facts and the page's path; two rules at once, a run without an evaluation, an unknown run are refused in words
(exit 2). The same verb on a really trained and evaluated run: tests/e2e/test_report_e2e.py."""

from __future__ import annotations

import json
from pathlib import Path

from cli.main import main
from tests.fixtures.report_run import report_run


def test_json_and_refusals(tmp_path: Path, monkeypatch, capsys):
    run = report_run(tmp_path)
    monkeypatch.setenv("YOLOSTUDIO_WORKSPACE", str(run.parents[1]))
    assert main(["report", "exp", "--max-false-alarms", "5", "--draws", "50", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["operating_point"]["rule"] == "false_alarms" and Path(doc["path"]) == run / "deployment-report.html"
    assert doc["at_confidence"]["overall"]["false_alarms_per_100"]["value"] <= 5

    assert main(["report", "exp", "--max-false-alarms", "5", "--target-recall", "0.9"]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["report", "nosuchrun"]) == 2
    assert "No run named nosuchrun" in capsys.readouterr().err

    bare = report_run(tmp_path / "other", name="bare", evaluate=False)
    monkeypatch.setenv("YOLOSTUDIO_WORKSPACE", str(bare.parents[1]))
    assert main(["report", "bare"]) == 2
    err = capsys.readouterr().err
    assert "no evaluation" in err and "yolostudio evaluate bare" in err and "Traceback" not in err
