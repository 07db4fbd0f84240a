"""``yolostudio train --from RUN``: the new run starts from RUN's best.pt with RUN's options (flags override), on
its dataset, recording its parent; trust from provenance; refusals without a worker. The real fine-tune and its
dataset version: ``tests/e2e/test_label_e2e.py``."""

from __future__ import annotations

import json
from pathlib import Path

from cli.main import main
from tests.cli.test_train_prepared_copy import started_spec
from tests.fixtures.checkpoint_files import write_hostile_checkpoint
from tests.fixtures.evaluable_run import evaluable_run


def parent_run(tmp_path: Path) -> tuple[Path, Path]:
    run, data = evaluable_run(tmp_path, train=2, val=1)
    config = {"data": str(data), "model": "yolov5n.yaml", "epochs": 7, "imgsz": 96, "batch": 4, "device": "cpu",
              "workers": 1, "name": "exp3", "cos_lr": True}
    (run / "config.json").write_text(json.dumps({"spec": {"config": config, "resolved": {"data": str(data)},
                                                          "trusted_weights": ["/"]}}))
    (run / "events.jsonl").write_text("")
    return run, data


def test_the_fine_tune_starts_from_the_parents_best_with_its_settings(tmp_path, capsys, monkeypatch) -> None:
    run, data = parent_run(tmp_path)
    seen = started_spec(monkeypatch)
    ws = tmp_path / "ws"
    assert main(["--workspace", str(ws), "train", "--from", "exp", "--epochs", "2", "--no-check"]) == 0
    [spec] = seen
    best = str((run / "weights" / "best.pt").resolve())
    assert spec["config"]["model"] == best and spec["resolved"]["weights"] == best and not spec["resolved"]["cfg"]
    assert spec["config"]["epochs"] == 2 and spec["config"]["imgsz"] == 96 and spec["config"]["cos_lr"] is True
    assert spec["config"]["data"] == str(data) and spec["from_run"] == str(run.resolve())
    assert Path(spec["run_dir"]).name == "exp-ft" and spec["trusted_weights"] == []  # nothing the file claimed
    assert json.loads((Path(spec["run_dir"]) / "config.json").read_text())["spec"]["from_run"] == str(run.resolve())


def test_refusals_before_any_worker(tmp_path, capsys, monkeypatch) -> None:
    run, _ = parent_run(tmp_path)
    seen = started_spec(monkeypatch)
    ws = ["--workspace", str(tmp_path / "ws")]
    assert main([*ws, "train", "--from", "exp", "--config", "x.json"]) == 2
    assert "--from" in capsys.readouterr().err
    assert main([*ws, "train", "--from", "nope"]) == 2
    marker = tmp_path / "EXECUTED"
    write_hostile_checkpoint(run / "weights" / "best.pt", marker)  # replaced since: not the workspace's own
    assert main([*ws, "train", "--from", "exp", "--no-check"]) == 2
    assert "best.pt" in capsys.readouterr().err and not marker.exists()
    (run / "weights" / "best.pt").unlink()
    assert main([*ws, "train", "--from", "exp", "--no-check"]) == 2
    assert "no best.pt" in capsys.readouterr().err and seen == []
