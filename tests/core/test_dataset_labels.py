"""The label-line parser: table-driven cases and a hypothesis fuzz (never raises, always explains)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.dataset.labels import parse_label_bytes


@pytest.mark.parametrize("text, codes", [
    ("0 0.5 0.5 0.2 0.2\n", []),
    ("0 0.5 0.5 0.2 0.2\r\n\r\n1 0.1 0.1 0.1 0.1   \n\n", []),
    ("", []),
    ("   \n", []),
    ("0 .5 .5 .1 .1\n   \n1 .5 .5 .2 .2\n", ["label-columns/error"]),  # yolov5 drops this image
    ("0 0.1 0.1 0.4 0.1 0.4 0.5\n", []),  # a triangle
    ("0 0.1 0.1 0.4 0.1 0.4\n", ["label-columns/error"]),  # 6 values: neither box nor polygon
    ("0 .1 .1 .4 .1 .4 .5 .3\n", ["label-columns/error"]),  # odd number of polygon coordinates
    ("0 .1 .1 .4 .1 .4 .5\n1\n", ["label-columns/error"]),  # a class alone among polygons
    ("0 .1 .1 .4 .1 .4 .5\n1 .5 .5\n", ["label-mixed-formats/warning", "label-nonpositive-size/warning"]),
    ("0 -.01 .1 .5 .1 .5 .5\n", []),  # a polygon point outside: its box is in range, yolov5 keeps it
    ("-1 .5 .5 .1 .1\n", ["label-class-range/error"]),
    ("1.5 .5 .5 .1 .1\n", ["label-class-range/warning"]),  # yolov5 keeps it (trains class 1)
    ("0 .5 .5 .1 inf\n", ["label-nan/error"]),
    ("0 nan .5 .1 .1\n", ["label-nan/error"]),
    ("0 1.01 .5 .1 .1\n", ["label-not-normalized/error"]),
    ("0 1.00000001 .5 .1 .1\n", []),  # 1.0 as float32, as yolov5 compares it
    ("0 -.1 .5 .1 .1\n", ["label-not-normalized/error"]),
    ("0 .5 .5 -.1 .1\n", ["label-nonpositive-size/error"]),
    ("0 1.2 .5 -.1 .1\n", ["label-nonpositive-size/error"]),  # yolov5's negative check runs first
    ("0 .5 .5 0 .1\n", ["label-nonpositive-size/warning"]),
    ("0 .5 .5 .1 .1\n0 .50000001 .5 .1 .1\n", ["label-duplicate-row/warning"]),  # equal as float32
    ("0 .1 .1 .4 .1 .4 .5\n0 .1 .5 .4 .1 .1 .1 .4 .5\n", ["label-duplicate-row/warning"]),  # same box
    ("0 x .5 .1 .1\n", ["label-value/error"]),
])
def test_label_lines(text, codes):
    assert [f"{f.code}/{f.severity}" for f in parse_label_bytes(text.encode()).findings] == codes


@pytest.mark.parametrize("text, quote", [
    ("0 .5 .5 .1 .1\n   \n1 .5 .5 .2 .2\n", "inhomogeneous shape"),
    ("0 .1 .1 .4 .1 .4 .5\n  \n1 .5 .5 .2 .2\n", "list index out of range"),
    ("0 .5 .5 .1\n1 .5 .5 .1\n", "labels require 5 columns, 4 columns detected"),
    ("0 .5 .5 .1\n1 .5 .5 .1 .1\n", "inhomogeneous shape"),
    ("0 nan .5 .1 .1\n", "negative label values []"),
    ("0 inf .5 .1 .1\n", "non-normalized or out of bounds coordinates [inf]"),
    ("0 -inf .5 .1 .1\n", "negative label values [-inf]"),
    ("0 1.2 .5 -.1 .1\n", "negative label values [-0.1]"),
])
def test_each_finding_quotes_the_message_yolov5_gives_for_the_file(text, quote):
    assert quote in parse_label_bytes(text.encode()).findings[0].message


def test_slightly_out_and_pixel_coordinates_get_different_advice():
    slight = parse_label_bytes(b"0 1.01 .5 .1 .1\n").findings[0].message
    pixels = parse_label_bytes(b"0 320 200 40 40\n").findings[0].message
    assert "clip" in slight and "pixel" in pixels


def test_non_utf8_is_an_encoding_finding_and_the_rest_is_still_read():
    result = parse_label_bytes(b"0 .5 .5 .1 .1\n1 .5 .5 .1 .1 \xff\n")
    assert [f.code for f in result.findings] == ["label-encoding", "label-value"]
    assert result.findings[0].line == 2
    assert len(result.rows) == 1


_token = st.one_of(st.sampled_from(["0", "1", "0.5", "1.0", "-1", "nan", "inf", "1e9", "x", "", "\t", "\ufeff"]),
                   st.floats(allow_nan=True).map(repr), st.text(max_size=4))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_token, max_size=10).map(" ".join), max_size=8).map("\n".join))
def test_fuzz_label_text_never_raises(text):
    result = parse_label_bytes(text.encode("utf-8", errors="surrogatepass"))
    for f in result.findings:
        assert f.line >= 1 and f.message
    for line, cls, x, y, w, h in result.rows:
        assert 0 <= x <= 1 and 0 <= y <= 1 and cls >= 0


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_label_bytes_never_raises(raw):
    result = parse_label_bytes(raw)
    assert all(f.message for f in result.findings)
