"""Every class name the shared YAML writer (``yaml_edit.format_scalar``) writes reads back as it was (issue 37):
a C1 control (U+0080–U+009F) made a data.yaml no YAML reader opens, and U+0085 (NEL) changed on the round
trip; ``0?`` written plain read in libyaml but not in PyYAML's pure-Python parser. Checked with hypothesis
over any text, through the import's data.yaml, the Dataset page's names edit (``set_names``) and
``yaml.safe_load``, the reader yolov5 uses."""

from __future__ import annotations

from pathlib import Path

import yaml
from hypothesis import given, settings, strategies as st

from core.dataset.importers.writer import data_yaml_text
from core.dataset.yaml_doc import parse_text, safe_load
from core.dataset.yaml_edit import format_scalar, set_names

NAMES = st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=4, unique=True)
C1 = st.lists(st.text(alphabet=st.characters(min_codepoint=0x7F, max_codepoint=0x9F), min_size=1, max_size=3)
              .map(lambda t: f"bolt{t}"), min_size=1, max_size=3, unique=True)
#: YAML's indicators, where libyaml and PyYAML's pure-Python parser (yolov5's) disagree on plain scalars.
INDICATORS = st.lists(st.text(alphabet="0a -?:,[]{}#&*!|>'\"%@`", min_size=1, max_size=6), min_size=1, max_size=4,
                      unique=True)


@settings(max_examples=300, deadline=None)
@given(NAMES | C1 | INDICATORS)
def test_import_data_yaml_names_read_back_as_written(names):
    text = data_yaml_text(Path("/data/out"), names, {"train", "val"})
    assert safe_load(text)["names"] == names
    assert yaml.safe_load(text)["names"] == names


@settings(max_examples=200, deadline=None)
@given(NAMES | C1 | INDICATORS)
def test_dataset_page_names_edit_reads_back(names):
    doc = parse_text("path: /data\ntrain: images/train\nval: images/val\nnc: 1\nnames: [a]\n")
    text = set_names(doc, names)
    assert yaml.safe_load(text)["names"] == names


@given(st.text(max_size=20), st.booleans())
def test_any_scalar_reads_back(text, flow):
    written = format_scalar(text, flow=flow)
    probe = f"k: [{written}]" if flow else f"k: {written}"
    assert yaml.safe_load(probe) == {"k": [text] if flow else text}


def test_nel_and_c1_are_escaped_not_written_raw():
    assert format_scalar("a\x85b") == '"a\\u0085b"' and format_scalar("x\x80", flow=True) == '"x\\u0080"'
