"""A facts file that no rule could use is refused in words ("this facts file is not valid: …"), never a traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cli.main import main
from core.environment.facts import load_facts

SAMPLE = Path(__file__).parents[1] / "fixtures" / "facts" / "cpu-vm.json"


def _with_python_version(tmp_path: Path, value: object) -> Path:
    raw = json.loads(SAMPLE.read_text(encoding="utf-8"))
    raw["system"]["python_version"] = value
    path = tmp_path / "facts.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


@pytest.mark.parametrize("value", ["", "abc"])
def test_a_version_that_is_not_one_makes_the_file_invalid(tmp_path, value, capsys):
    path = _with_python_version(tmp_path, value)
    with pytest.raises(ValueError, match="not valid: field system.python_version"):
        load_facts(path)
    assert main(["--workspace", str(tmp_path / "ws"), "doctor", "--facts", str(path)]) == 2
    assert "this facts file is not valid" in capsys.readouterr().err


def test_deep_json_and_a_fifo_are_refused(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    with pytest.raises(ValueError, match="nests too deeply"):
        load_facts(deep)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="not a regular file"):
        load_facts(fifo)  # returns at once: nobody writes into the pipe


def test_a_real_facts_file_still_loads(tmp_path):
    facts, problems = load_facts(_with_python_version(tmp_path, "3.11.9"))
    assert facts.system.python_version == "3.11.9"


def test_a_facts_file_that_is_not_an_object_is_invalid(tmp_path):
    path = tmp_path / "list.json"
    path.write_text("[1, 2, 3]")
    with pytest.raises(ValueError, match="not valid: it holds a list"):
        load_facts(path)
