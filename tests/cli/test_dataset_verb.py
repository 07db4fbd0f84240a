"""``yolostudio dataset check``: readable report, ``--json``, and exit codes 0 / 1 / 2."""

from __future__ import annotations

import json

import pytest

from cli.main import main
from tests.core.test_dataset_validate import BOX, build


def test_clean_dataset_exits_0_with_a_readable_report(tmp_path, capsys):
    assert main(["dataset", "check", str(build(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert "OK: no errors" in out and "train: 2 images" in out


def test_errors_exit_1_and_name_file_and_line(tmp_path, capsys):
    yaml_file = build(tmp_path, train={"t1": "0 0.5 0.5 0.2 0.2\n5 0.5 0.5 0.1 0.1\n", "t2": BOX})
    assert main(["dataset", "check", str(yaml_file)]) == 1
    out = capsys.readouterr().out
    assert "ERROR label-class-range" in out and "t1.txt:2" in out


def test_json_output(tmp_path, capsys):
    yaml_file = build(tmp_path, train={"t1": "0 0.5 0.5 0.2\n", "t2": BOX})
    assert main(["dataset", "check", str(yaml_file), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    [hit] = [f for f in data["findings"] if f["code"] == "label-columns"]
    assert set(hit) == {"code", "severity", "file", "line", "message"}
    assert hit["line"] == 1 and hit["file"].endswith("t1.txt")
    assert data["stats"]["splits"]["train"]["images"] == 2


def test_missing_file_and_usage_errors_exit_2(tmp_path, capsys):
    assert main(["dataset", "check", str(tmp_path / "nope.yaml")]) == 2
    with pytest.raises(SystemExit) as exc:
        main(["dataset"])
    assert exc.value.code == 2


def test_second_check_uses_the_cache(tmp_path, capsys):
    yaml_file = build(tmp_path)
    main(["--workspace", str(tmp_path / "ws"), "dataset", "check", str(yaml_file)])
    capsys.readouterr()
    main(["--workspace", str(tmp_path / "ws"), "dataset", "check", str(yaml_file)])
    assert "(3 unchanged since the last check)" in capsys.readouterr().out
