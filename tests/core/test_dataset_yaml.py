"""data.yaml round trip (byte-identical, edits touch only the edited text), bad input, and a fuzz."""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.dataset.spec import read_spec
from core.dataset.yaml_doc import load_document, parse_bytes, parse_text, save_document
from core.dataset.yaml_edit import EditError, names_of, set_names, set_value

YOLOV5_DATA = Path(importlib.util.find_spec("yolov5").origin).parent / "data"  # found, not imported
YAMLS = sorted(YOLOV5_DATA.rglob("*.yaml"))


def changed_lines(before: str, after: str) -> list[str]:
    return [line for line in difflib.unified_diff(before.splitlines(True), after.splitlines(True), n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def test_there_are_yolov5_yamls():
    assert len(YAMLS) >= 10


@pytest.mark.parametrize("path", YAMLS, ids=lambda p: p.name)
def test_yolov5_yaml_round_trips_byte_identical(path, tmp_path):
    doc = load_document(path)
    assert doc.ok and not doc.findings
    target = tmp_path / path.name
    target.write_bytes(path.read_bytes())
    save_document(target, doc)
    assert target.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("path", [p for p in YAMLS if "names" in p.read_text()], ids=lambda p: p.name)
def test_one_field_edits_change_only_that_text(path):
    doc = load_document(path)
    names = names_of(doc.data)
    renamed = list(names)
    renamed[-1] = "renamed class"
    text = set_names(doc, renamed)
    diff = changed_lines(doc.text, text)
    assert len(diff) == 2 and "renamed class" in diff[1], diff
    assert names_of(yaml.safe_load(text)) == renamed
    text = set_value(doc, ["val"], "elsewhere/val")
    diff = changed_lines(doc.text, text)
    assert yaml.safe_load(text)["val"] == "elsewhere/val"
    assert len([d for d in diff if d.startswith("-")]) >= 1
    assert all("val" in d or d.strip(" -+\n").startswith(("images/", "-")) for d in diff), diff
    back = set_names(parse_text(set_names(doc, names + ["extra"])), names)
    assert back == doc.text  # adding then deleting a class gives the file back


def test_edit_keeps_comments_quoting_and_crlf():
    raw = b"# my set\r\npath: '/data/x'  # root\r\ntrain: images/train\r\nval: images/val\r\nnames: ['cat', \"dog\"]\r\n"
    doc = parse_bytes(raw)
    text = set_names(doc, ["cat", "hot dog"])
    assert text.encode() == raw.replace(b'"dog"', b'"hot dog"')
    text = set_value(doc, ["path"], "/new root")
    assert text.encode() == raw.replace(b"'/data/x'", b"'/new root'")


def test_names_map_and_nc_follow_a_delete():
    doc = parse_text("nc: 3  # classes\nnames:\n  0: a\n  1: b  # bee\n  2: c\ntrain: t\nval: v\n")
    text = set_names(doc, ["a", "c"])
    assert text == "nc: 2  # classes\nnames:\n  0: a\n  1: c\ntrain: t\nval: v\n"


def test_new_values_that_need_quotes_get_them():
    doc = parse_text("names: [a, b]\ntrain: x\nval: y\n")
    for name in ("with, comma", "colon: here", "#hash", "yes", "123", "'quoted'", "tab\there"):
        text = set_names(doc, ["a", name])
        assert names_of(yaml.safe_load(text)) == ["a", name], text


def test_missing_key_is_appended():
    doc = parse_text("train: x\nval: y\nnames: [a]")
    assert set_value(doc, ["test"], "z").endswith("names: [a]\ntest: z\n")


def test_save_is_atomic_with_backup(tmp_path):
    target = tmp_path / "data.yaml"
    target.write_text("train: a\nval: b\nnames: [x]\n")
    doc = load_document(target)
    doc.text = set_value(doc, ["train"], "c")
    save_document(target, doc)
    assert target.read_text() == "train: c\nval: b\nnames: [x]\n"
    assert (tmp_path / "data.yaml.bak").read_text() == "train: a\nval: b\nnames: [x]\n"
    doc.text = set_value(parse_text(doc.text), ["train"], "d")
    save_document(target, doc)
    assert (tmp_path / "data.yaml.bak").read_text() == "train: a\nval: b\nnames: [x]\n"  # the original is kept


@pytest.mark.parametrize("raw, code, line", [
    (b"- just\n- a list\n", "yaml-not-mapping", 1),
    (b"", "yaml-not-mapping", 1),
    (b"train: a\nnames:\n\t- x\n", "yaml-syntax", 3),
    (b"train: a\nval: b\ntrain: c\nnames: [x]\n", "yaml-duplicate-key", 3),
    (b"train: a\nval: b\nnames: [caf\xe9]\n", "yaml-encoding", 3),
    (b"train: [a\nval: b\n", "yaml-syntax", 2),
])
def test_bad_yaml_becomes_findings(raw, code, line):
    doc = parse_bytes(raw)
    hits = [f for f in doc.findings if f.code == code]
    assert hits and hits[0].line == line, doc.findings
    assert doc.to_bytes() == raw  # never altered by reading


def test_tab_finding_says_tab():
    [hit] = parse_bytes(b"train: a\nnames:\n\t- x\n").findings
    assert "tab" in hit.message


def test_edits_refused_while_the_yaml_is_broken():
    with pytest.raises(EditError):
        set_value(parse_text("train: [a\n"), ["train"], "b")


def codes(spec) -> list[str]:
    return [f.code for f in spec.findings if f.code != "path-relative"]  # these specs are relative on purpose


def test_names_forms(tmp_path):
    for text, expected in (("names: [a, b]", ["a", "b"]), ("names:\n  0: a\n  1: b", ["a", "b"]),
                           ("names:\n  - a\n  - b", ["a", "b"])):
        spec = read_spec(parse_text(text + "\ntrain: x\nval: y\n"), tmp_path / "d.yaml")
        assert spec.names == expected and codes(spec) == []
    spec = read_spec(parse_text("names:\n  0: a\n  2: b\ntrain: x\nval: y\n"), tmp_path / "d.yaml")
    assert codes(spec) == ["names-invalid"]
    spec = read_spec(parse_text("names: [a, b]\nnc: 2\ntrain: x\nval: y\n"), tmp_path / "d.yaml")
    assert codes(spec) == []
    spec = read_spec(parse_text("train: 'C:\\\\data\\\\x'\nval: y\nnames: [a]\npath: 'D:\\\\sets'\n"),
                     tmp_path / "d.yaml")
    assert codes(spec) == ["path-foreign"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_fuzz_yaml_loader_never_raises(raw):
    doc = parse_bytes(raw)
    assert doc.to_bytes() == raw
    assert doc.ok or doc.findings  # a file that is not a usable mapping always says why


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab:-[]{}#'\" \n\t,0123456789")), max_size=80))
def test_fuzz_yaml_text_never_raises(text):
    doc = parse_text(text)
    assert doc.ok or doc.findings


def test_remove_key_takes_its_whole_lines_and_nothing_else():
    from core.dataset.yaml_doc import parse_text
    from core.dataset.yaml_edit import remove_key

    text = "path: /x  # root\ntrain: a\ntest:\n  - b\n  - c\n# kept\nnames: [a]\n"
    assert remove_key(parse_text(text), "test") == "path: /x  # root\ntrain: a\n# kept\nnames: [a]\n"
    assert remove_key(parse_text(text), "absent") == text
