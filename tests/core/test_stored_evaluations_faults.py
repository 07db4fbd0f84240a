"""Issue 37, stored evaluations: a FIFO in a store never hangs a reader, a damaged value is refused in words.

The FIFO cases run the real CLI as a process (a hang would be a timeout, not a pass); the value cases run the
verb in-process and read what the user sees.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli.main import main as cli_main
from core.evaluation.request import plan_run_evaluation
from core.evaluation.store import list_evaluations, load_evaluation, save_evaluation
from core.evaluation.stored_result import StoredEvaluationError
from core.run_compare import gather
from core.runs.store import read_run
from core.stored_file import NotRegularFile, read_regular_bytes
from tests.fixtures.evaluable_run import evaluable_run

ROOT = Path(__file__).resolve().parents[2]
GOOD = {"created": 2.0, "split": "val", "images": 2, "instances": 2, "weights": "best.pt",
        "metrics": {"map50": 0.75, "map": 0.5}}


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    run, data_yaml = evaluable_run(tmp_path, train=3, val=2)
    config = {"data": str(data_yaml), "imgsz": 64, "batch": 4, "epochs": 3, "device": "cpu", "name": "exp"}
    spec = {"config": config, "resolved": {"data": config["data"], "cfg": "yolov5n.yaml", "weights": "",
                                           "hyp": "hyp.yaml"}, "trusted_weights": [], "trusted_model": False}
    (run / "config.json").write_text(json.dumps({"spec": spec}))
    return run


def _planned_folder(run: Path) -> Path:
    return plan_run_evaluation(run, run.parents[1]).plan.folder


needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")


@needs_fifo
def test_the_shared_reader_refuses_a_fifo_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "result.json"
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFile, match="not a regular file"):
        read_regular_bytes(fifo)
    with pytest.raises(NotRegularFile):
        read_regular_bytes(tmp_path)  # a folder in a file's place
    (tmp_path / "ok.json").write_bytes(b"{}")
    assert read_regular_bytes(tmp_path / "ok.json") == b"{}"
    assert read_regular_bytes(tmp_path / "ok.json", max_bytes=1) == b"{}"


@needs_fifo
@pytest.mark.parametrize("verb", [["--list"], ["--list", "--json"]])
def test_a_fifo_named_result_json_hangs_no_evaluate(run_dir, verb):
    folder = _planned_folder(run_dir)
    folder.mkdir(parents=True)
    os.mkfifo(folder / "result.json")
    assert load_evaluation(folder) is None  # what `evaluate` reads first: nothing stored, so it evaluates
    env = dict(os.environ, YOLOSTUDIO_WORKSPACE=str(run_dir.parents[1]))
    result = subprocess.run([sys.executable, "-m", "cli", "evaluate", "exp", *verb], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert ("no stored evaluation yet" in result.stdout) if "--json" not in verb else json.loads(result.stdout) == []


@pytest.mark.parametrize("key, value", [("images", "lots"), ("created", "yesterday"), ("metrics", [1]),
                                        ("instances", -3), ("created", 1e999)])
def test_a_damaged_stored_value_is_refused_naming_the_file_and_the_value(run_dir, monkeypatch, capsys, key, value):
    folder = _planned_folder(run_dir)
    save_evaluation(folder, {**GOOD, key: value}, [])
    with pytest.raises(StoredEvaluationError) as damaged:
        load_evaluation(folder)
    assert str(folder / "result.json") in str(damaged.value) and key in str(damaged.value)
    assert str(folder) in damaged.value.hint
    monkeypatch.setenv("YOLOSTUDIO_WORKSPACE", str(run_dir.parents[1]))
    for verb in (["evaluate", "exp"], ["evaluate", "exp", "--list"], ["evaluate", "exp", "--list", "--json"]):
        assert cli_main(verb) == 2
        err = capsys.readouterr().err
        assert "result.json" in err and key in err and "Traceback" not in err


def test_compare_reads_the_same_store_and_says_the_same_words(run_dir):
    save_evaluation(_planned_folder(run_dir), {**GOOD, "created": "yesterday"}, [])
    with pytest.raises(StoredEvaluationError, match="created is 'yesterday'"):
        gather([read_run(run_dir)])


def test_a_good_stored_result_reads_back_and_lists(run_dir, monkeypatch, capsys):
    folder = _planned_folder(run_dir)
    save_evaluation(folder, GOOD, [])
    assert load_evaluation(folder) == GOOD
    assert [r["images"] for r in list_evaluations(run_dir)] == [2]
    monkeypatch.setenv("YOLOSTUDIO_WORKSPACE", str(run_dir.parents[1]))
    assert cli_main(["evaluate", "exp"]) == 0
    assert "read back from the store" in capsys.readouterr().out
