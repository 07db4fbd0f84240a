"""The one data.yaml reader refuses what would cost gigabytes or hang, before building the value, naming the limit."""

from __future__ import annotations

import os
import resource
from pathlib import Path

import pytest

from core.dataset.data_yaml import read_data_yaml
from core.dataset.yaml_doc import MAX_YAML_BYTES, MAX_YAML_DEPTH, parse_text

LAUGHS = ('a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]\n'
          + "".join(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 10))
          + "train: a\nval: a\nnames: *a9\n")
MERGE_BOMB = ("b0: &b0 {k0: 1, k1: 2}\n"
              + "".join(f"b{i}: &b{i}\n  <<: *b{i - 1}\n  " + "\n  ".join(f"z{j}: *b{i - 1}" for j in range(8)) + "\n"
                        for i in range(1, 9))
              + "names: [a]\ntrain: a\nval: a\n")
DEEP_BLOCK = "train: a\nval: a\nnames: [a]\nx:\n" + "".join("  " * i + "- \n" for i in range(1, 200))
DEEP_FLOW = "train: a\nval: a\nnames: [a]\nx: " + "[" * 50_000 + "]" * 50_000 + "\n"


@pytest.mark.parametrize(("text", "words"), [
    (LAUGHS, "200,000 values"), (MERGE_BOMB, "200,000 values"),
    ("train: a\nval: a\nnames: [" + ",".join(f"c{i}" for i in range(200_001)) + "]\n", "200,000 values"),
    (DEEP_BLOCK, f"more than {MAX_YAML_DEPTH} levels"), (DEEP_FLOW, ""),
])
def test_bombs_and_deep_nesting_are_refused_before_the_value_is_built(text, words):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    doc = parse_text(text)
    assert doc.data is None and doc.findings and doc.findings[0].severity.value == "error"
    assert words in doc.findings[0].message
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200 * 1024  # kB: no expansion happened


def test_a_huge_file_and_a_fifo_are_refused_without_reading_them(tmp_path):
    big = tmp_path / "big.yaml"
    with open(big, "wb") as handle:
        handle.write(b"names: [a]\n#")
        handle.truncate(MAX_YAML_BYTES + 10)  # sparse: no 8 MB written
    [problem] = read_data_yaml(big).findings
    assert problem.code == "yaml-too-large" and "8 MB" in problem.message
    fifo = tmp_path / "data.yaml"
    os.mkfifo(fifo)
    [problem] = read_data_yaml(fifo).findings  # returns at once: nobody writes into the pipe
    assert problem.code == "yaml-too-large" and "not a regular file" in problem.message


@pytest.mark.parametrize("nc", ["-3", "0", "1e29", "1.0e29", "true", "100001"])
def test_an_impossible_class_count_is_refused(nc):
    doc = parse_text(f"train: a\nval: a\nnames: [a]\nnc: {nc}\n")
    from core.dataset.spec import read_spec

    spec = read_spec(doc, Path("/tmp/data.yaml"))
    assert any(f.code == "names-nc-mismatch" and f.severity.value == "error" and "from 1 to" in f.message
               for f in spec.findings)


def test_a_normal_data_yaml_is_untouched():
    doc = parse_text("path: ../d\ntrain: images/train\nval: images/val\nnames:\n  0: cat\n  1: dog\n")
    assert doc.findings == [] and doc.data["names"] == {0: "cat", 1: "dog"}
