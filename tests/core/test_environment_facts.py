"""Facts files: round trip, and bad input (malformed, newer, missing or mistyped fields) named clearly."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.environment.facts import FACTS_VERSION, abbreviate_home, facts_from_dict, load_facts, save_facts
from core.environment.rules import RULES, evaluate
from core.environment.tables import parse_arch, version_tuple
from tests.core.environment_builders import healthy_gpu_machine


def test_round_trip(tmp_path):
    facts = healthy_gpu_machine(gpus=2)
    path = tmp_path / "facts.json"
    save_facts(facts, path)
    loaded, problems = load_facts(path)
    assert problems == []
    assert loaded == facts


def test_malformed_json_is_a_clear_error(tmp_path):
    path = tmp_path / "facts.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="not a JSON facts file"):
        load_facts(path)


def test_newer_version_is_named_and_still_loads():
    raw = healthy_gpu_machine().to_dict()
    raw["version"] = FACTS_VERSION + 1
    raw["torch"]["future_field"] = 1
    facts, problems = facts_from_dict(raw)
    assert any("newer" in p for p in problems)
    assert facts.torch.version == "2.14.1+cu130"


def test_missing_and_mistyped_fields_are_named():
    raw = healthy_gpu_machine().to_dict()
    del raw["torch"]["cuda"]
    raw["nvml"]["gpus"][0]["memory_total_gb"] = "lots"
    raw["disks"] = "nope"
    facts, problems = facts_from_dict(raw)
    assert "torch.cuda: missing" in problems
    assert any(p.startswith("nvml.gpus[0].memory_total_gb: unexpected value") for p in problems)
    assert "disks: expected a list" in problems
    assert facts.torch.cuda is None and facts.nvml.gpus[0].memory_total_gb is None
    assert facts.nvml.gpus[0].name == "NVIDIA GeForce RTX 4090"


def test_not_an_object():
    facts, problems = facts_from_dict([1, 2])
    assert problems and "not a facts object" in problems[0]
    assert facts.probe.completed is False


def test_a_saved_report_is_accepted_as_facts():
    raw = {"facts": healthy_gpu_machine().to_dict(), "findings": []}
    facts, problems = facts_from_dict(raw)
    assert problems == [] and facts.nvml.driver_version == "580.82.07"


def test_abbreviate_home():
    assert abbreviate_home({"a": ["/home/ann/x", 3]}, "/home/ann") == {"a": ["~/x", 3]}
    assert json.dumps(abbreviate_home(healthy_gpu_machine(), "/home/ann")).count("/home/ann") == 0


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                        max_size=3), max_leaves=12)
section_names = st.sampled_from(["version", "system", "nvml", "torch", "disks", "dataset", "probe", "packages"])


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(section_names, json_values, max_size=6))
def test_any_json_object_loads_and_is_judged_without_crashing(raw):
    facts, problems = facts_from_dict(raw)
    result = evaluate(facts, notes=problems)
    assert len(result.checks) == len(RULES)
    assert all(isinstance(p, str) for p in problems)


@given(st.text(max_size=20))
def test_version_and_arch_parsers_never_raise(text):
    version_tuple(text)
    parse_arch(text)


def test_a_facts_file_from_before_dist_version_loads_without_a_problem():
    """``torch.dist_version`` (installed-but-cannot-load) joined later: an older file lacks it and is not defective."""
    raw = healthy_gpu_machine().to_dict()
    del raw["torch"]["dist_version"]
    facts, problems = facts_from_dict(raw)
    assert problems == [] and facts.torch.dist_version is None
