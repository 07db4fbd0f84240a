"""The remote end of a followed run (core/remote/launch.py): complete lines from a byte offset, a position line after
each batch, and ``skip`` for the lines a reader already had when its link dropped — each event once."""

from __future__ import annotations

import io

from core.job.protocol import encode, make_event
from core.remote.launch import POSITION, stream_events


def _run(workspace, lines: list[str], tail: str = ""):
    run_dir = workspace / "runs" / "r1"
    run_dir.mkdir(parents=True)
    (run_dir / "events.jsonl").write_text("".join(lines) + tail)
    return run_dir


def _read(workspace, offset=0, skip=0):
    out, err = io.StringIO(), io.StringIO()
    assert stream_events(workspace, "r1", offset, out, err, skip=skip, poll_s=0.01) == 0, err.getvalue()
    events, positions = [], []
    for line in out.getvalue().split("\n")[:-1]:  # not splitlines: U+0085 is a line end there, not here
        (positions if line.startswith(POSITION) else events).append(line)
    return events, [int(p[len(POSITION):]) for p in positions]


def test_every_complete_line_once_and_a_position_after_each_batch(tmp_path):
    lines = [encode(make_event("stage", stage="starting")), encode(make_event("log", text="née ✓ \u0085")),
             encode(make_event("done", status="completed", elapsed_s=1.0))]
    _run(tmp_path, lines, tail='{"v": 1, "type": "lo')  # a torn last line is never sent
    events, positions = _read(tmp_path)
    assert len(events) == 3 and '"done"' in events[-1]
    assert positions[-1] == sum(len(line.encode()) for line in lines)

    # the link dropped after the first two lines of a batch: ask again from the batch's start, skipping them
    rest, _ = _read(tmp_path, offset=0, skip=2)
    assert rest == events[2:]
    # or from the last position: nothing more
    assert _read(tmp_path, offset=positions[-1])[0] == []
