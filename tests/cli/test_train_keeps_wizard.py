"""A run started from the wizard's document keeps it, from either face (issue 30): ``yolostudio train --config
wizard.json`` writes ``<run>/wizard.json`` through the run folder's owner (``RunFolder.keep_wizard``, called by
``create_run``), so a CLI-started run gets the Train page's predicted-vs-measured comparison too; an option
typed on the line that the prediction depends on (``--imgsz``) means the prediction is not this run's."""

from __future__ import annotations

import json
from pathlib import Path

from cli.main import main
from core.run.folder import RunFolder
from tests.cli.test_train_prepared_copy import started_spec, wizard_doc


def newest_run(ws: Path) -> Path:
    return sorted((ws / "runs").iterdir(), key=lambda p: p.stat().st_mtime_ns)[-1]


def test_a_cli_run_from_the_wizard_document_keeps_it_with_the_data_it_trains(tmp_path, capsys, monkeypatch):
    _data, saved, ws = wizard_doc(tmp_path, capsys)
    seen = started_spec(monkeypatch)
    assert main(["--workspace", str(ws), "train", "--config", str(saved), "--epochs", "1"]) == 0
    kept = RunFolder(newest_run(ws)).read_wizard()
    doc = json.loads(saved.read_text(encoding="utf-8"))
    assert kept is not None and kept["predicted"] == doc["predicted"] and kept["reasons"] == doc["reasons"]
    assert kept["config"]["data"] == seen[0]["config"]["data"]  # predicted for the prepared copy it trains on


def test_an_option_the_prediction_depends_on_typed_on_the_line_drops_the_comparison(tmp_path, capsys, monkeypatch):
    _data, saved, ws = wizard_doc(tmp_path, capsys)
    started_spec(monkeypatch)
    assert main(["--workspace", str(ws), "train", "--config", str(saved), "--epochs", "1", "--imgsz", "96"]) == 0
    run = newest_run(ws)
    assert not RunFolder(run).wizard.exists() and RunFolder(run).read_wizard() is None


def test_a_plain_options_file_keeps_no_wizard_document(tmp_path, capsys, monkeypatch):
    _data, saved, ws = wizard_doc(tmp_path, capsys)
    plain = tmp_path / "options.json"
    plain.write_text(json.dumps(json.loads(saved.read_text(encoding="utf-8"))["config"]), encoding="utf-8")
    started_spec(monkeypatch)
    assert main(["--workspace", str(ws), "train", "--config", str(plain), "--epochs", "1"]) == 0
    assert not RunFolder(newest_run(ws)).wizard.exists()
