"""The protocol: events round-trip, partial lines are kept, junk becomes text, files can be tailed."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.job.protocol import (EVENT_TYPES, PROTOCOL_VERSION, EventFileTail, EventWriter, LineDecoder, encode, make_event,
                           parse_line, read_events)


def test_make_event_has_envelope_and_cleans_values():
    ev = make_event("batch", epoch=1, losses={"box": float("nan")}, window={"x": float("inf")}, t=5.0)
    assert ev["v"] == PROTOCOL_VERSION and ev["type"] == "batch" and ev["t"] == 5.0
    assert ev["losses"]["box"] is None and ev["window"]["x"] is None
    json.loads(encode(ev))  # allow_nan=False would raise on NaN


def test_numpy_scalars_become_numbers():
    np = pytest.importorskip("numpy")
    ev = make_event("epoch_end", fitness=np.float32(0.5), metrics={"a": np.array([0.25])[0]})
    assert ev["fitness"] == 0.5 and isinstance(ev["fitness"], float)
    assert ev["metrics"]["a"] == 0.25


def test_unknown_type_is_refused():
    with pytest.raises(ValueError):
        make_event("batchh")


def test_docs_list_every_event_type():
    from core import APP_ROOT

    text = (APP_ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    for name in EVENT_TYPES:
        assert f"| `{name}` |" in text, name


@pytest.mark.parametrize("line", ["not json", '{"no": "type"}', "[1,2]", '{"type": "log"}', "{broken"])
def test_non_protocol_lines_are_text(line):
    decoded = parse_line(line + "\n")
    assert decoded.event is None and decoded.text == line


def test_decoder_keeps_partial_line_between_chunks():
    line = encode(make_event("log", level="info", message="héllo 你好", t=1.0)).encode()
    dec = LineDecoder()
    assert dec.feed(line[:7]) == []
    assert dec.pending == 7
    out = dec.feed(line[7:] + b"plain text\n" + line[:3])
    assert out[0].event["message"] == "héllo 你好"
    assert out[1].text == "plain text"
    assert dec.pending == 3


def test_decoder_bounds_a_line_without_newline():
    dec = LineDecoder(max_line=100)
    out = dec.feed(b"x" * 150)
    assert len(out) == 1 and out[0].text == "x" * 150 and dec.pending == 0


@given(st.lists(st.text(min_size=0, max_size=30), min_size=1, max_size=8), st.data())
def test_decoder_any_chunking_gives_same_events(messages, data):
    stream = b"".join(encode(make_event("log", level="info", message=m, t=0.0)).encode() for m in messages)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    dec = LineDecoder()
    got = []
    prev = 0
    for cut in cuts + [len(stream)]:
        got += dec.feed(stream[prev:cut])
        prev = cut
    got += dec.flush()
    assert [d.event["message"] for d in got] == messages


def test_writer_survives_a_closed_stream(tmp_path):
    class Broken:
        def write(self, s):
            raise BrokenPipeError

        def flush(self):
            pass

    writer = EventWriter(Broken(), tmp_path / "events.jsonl")
    writer.emit("log", level="info", message="a")
    writer.emit("log", level="info", message="b")
    writer.close()
    assert [e["message"] for e in read_events(tmp_path / "events.jsonl")] == ["a", "b"]


def test_read_events_ignores_torn_last_line(tmp_path):
    path = tmp_path / "events.jsonl"
    good = encode(make_event("log", level="info", message="ok", t=1.0))
    path.write_text(good + good[:10], encoding="utf-8")
    assert len(read_events(path)) == 1


def test_tail_follows_appends_with_partial_writes(tmp_path):
    path = tmp_path / "events.jsonl"
    tail = EventFileTail(path)
    assert tail.poll() == []
    line = encode(make_event("stage", stage="training", t=2.0))
    with open(path, "a", encoding="utf-8") as f:
        f.write(line[:5])
    assert tail.poll() == []
    with open(path, "a", encoding="utf-8") as f:
        f.write(line[5:] + line)
    assert [e["stage"] for e in tail.poll()] == ["training", "training"]
    assert tail.poll() == []


def test_encode_is_one_line():
    text = encode(make_event("log", level="info", message="a\nb", t=0.0))
    assert text.count("\n") == 1 and not math.isnan(json.loads(text)["t"])


def test_tail_says_when_it_stopped_at_its_limit(tmp_path):
    path = tmp_path / "events.jsonl"
    line = encode(make_event("log", level="info", message="x" * 50, t=1.0))
    path.write_text(line * 10, encoding="utf-8")
    tail = EventFileTail(path)
    first = tail.poll(max_bytes=len(line.encode()) * 3)
    assert len(first) == 3 and not tail.caught_up
    rest = tail.poll()
    assert len(rest) == 7 and tail.caught_up
