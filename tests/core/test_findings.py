"""One finding record and one severity scale, shared by every kind of check."""

from __future__ import annotations

import json

import pytest

from core.training.bottleneck import verdict
from core.dataset.findings import finding, finding_json
from core.environment.findings import finding_json as environment_json
from core.findings import Change, Finding, Severity, by_severity, changes, has_errors, problem


def test_severity_is_its_word_everywhere():
    assert Severity("error") is Severity.ERROR and Severity.ERROR == "error"
    assert f"{Severity.WARNING}" == "warning" and str(Severity.INFO) == "info"
    assert json.dumps({"s": Severity.OK}) == '{"s": "ok"}'
    with pytest.raises(ValueError):
        Severity("fatal")


def test_order():
    assert [s.rank for s in (Severity.ERROR, Severity.WARNING, Severity.INFO, Severity.OK)] == [0, 1, 2, 3]


def test_every_kind_of_check_makes_the_same_record():
    """Environment finding, dataset finding, option problem and bottleneck verdict: one type, one scale."""
    environment = Finding("shm-too-small", "warning", "/dev/shm is too small", "why", {"/dev/shm": "64 MB"},
                          "mount …", "command", changes({"workers": 2}))
    dataset = finding("names-invalid", "/d/data.yaml", "'names' lists no classes", line=4, column=2)
    option = problem("error", "epochs", "Epochs must be from 1 to 10000 (got 0).", "Passes over the images.")
    bottleneck = verdict("input-bound-workers", "warning", "Training waits", "detail", {"data_wait_share": 0.3},
                         [Change("workers", 8, "idle cores")])
    everything = [environment, dataset, option, bottleneck]
    assert all(type(f) is Finding and isinstance(f.severity, Severity) for f in everything)
    assert [f.code for f in by_severity(everything)] == ["names-invalid", "epochs", "shm-too-small",
                                                         "input-bound-workers"]
    assert has_errors(everything) and not has_errors([environment, bottleneck])
    assert dataset.where == "/d/data.yaml:4:2" and option.where == "epochs" and environment.where == ""
    assert environment.settings() == {"workers": 2} and bottleneck.settings() == {"workers": 8}


def test_front_ends_keep_the_json_they_promised():
    env = Finding("ram-low", "warning", "Not enough RAM", "why", {"RAM": "4 GB"}, "--cache disk", "setting",
                  changes({"cache": "disk"}))
    assert environment_json(env) == {"id": "ram-low", "severity": "warning", "title": "Not enough RAM",
                                     "detail": "why", "evidence": {"RAM": "4 GB"}, "fix": "--cache disk",
                                     "fix_kind": "setting", "setting": {"cache": "disk"}}
    data = finding("split-empty", "/d.yaml", "val holds no images", 3)
    assert finding_json(data) == {"code": "split-empty", "severity": "error", "file": "/d.yaml", "line": 3,
                                  "message": "val holds no images", "column": 0}


def test_a_fix_kind_outside_the_three_is_a_programming_error():
    with pytest.raises(AssertionError):
        Finding("x", "info", "m", fix_kind="magic")
