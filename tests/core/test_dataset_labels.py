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
    ("0 .5 .5 .1 .1\n   \n1 .5 .5 .2 .2\n", ["label-columns"]),  # yolov5 drops this image
    ("0 0.1 0.1 0.4 0.1 0.4 0.5\n", []),  # a triangle
    ("0 0.1 0.1 0.4 0.1 0.4\n", ["label-columns"]),  # 6 values: neither box nor polygon
    ("0 .1 .1 .4 .1 .4 .5 .3\n", ["label-columns"]),  # odd number of polygon coordinates
    ("-1 .5 .5 .1 .1\n", ["label-class-range"]),
    ("1.5 .5 .5 .1 .1\n", ["label-class-range"]),
    ("0 .5 .5 .1 inf\n", ["label-nan"]),
    ("0 1.01 .5 .1 .1\n", ["label-not-normalized"]),
    ("0 .5 .5 -.1 .1\n", ["label-not-normalized"]),
    ("0 x .5 .1 .1\n", ["label-value"]),
])
def test_label_lines(text, codes):
    assert [f.code for f in parse_label_bytes(text.encode()).findings] == codes


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
