"""Tolerant run readers: one damaged run is listed ``unreadable`` with the reason; every other run is unaffected.

Torn event lines (a killed writer) are skipped, and the next writer starts on a line of its own. The
reader is fuzzed with hypothesis: whatever a run's files hold, listing never raises.
"""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.job.protocol import EventWriter, encode, iter_events, make_event, parse_line
from core.runs.index import RunIndex
from core.runs.store import create_run, list_runs, read_run
from core.run.files import CONFIG_FILE, EVENTS_FILE
from core.run.words import UNREADABLE
from core.training.config import MachineFacts, TrainConfig, validate_config


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    data = tmp_path / "data.yaml"
    data.write_text("train: a\nval: b\nnames: [x]\n", encoding="utf-8")
    return tmp_path / "ws"


def make_run(workspace: Path, name: str) -> Path:
    checked = validate_config(TrainConfig(data=str(workspace.parent / "data.yaml"), name=name, device="cpu"),
                              MachineFacts(0))
    return create_run(workspace, checked)


def done_run(workspace: Path, name: str) -> Path:
    run = make_run(workspace, name)
    (run / EVENTS_FILE).write_text(encode(make_event("stage", stage="starting", pid=123, t=1.0))
                                   + encode(make_event("done", status="completed", elapsed_s=3.0)), encoding="utf-8")
    return run


BAD_LINES = [
    '{"v":1,"type":"epoch_end","t":2,"epoch":null,"epochs":3}',
    '{"v":1,"type":"epoch_end","t":2,"epoch":"abc","epochs":3}',
    '{"v":1,"type":"epoch_end","t":2,"epoch":1e400,"epochs":3,"metrics":{"mAP50":"x","mAP50-95":1e400}}',
    '{"v":1,"type":"stage","t":2,"stage":"starting","pid":-4,"create_time":"now"}',
    '{"v":1,"type":"stage","t":2,"stage":"starting","pid":"abc"}',
    '{"v":1,"type":"done","t":3,"status":"completed","efficiency":[1,2]}',
    '{"v":1,"type":"done","t":3,"status":"completed","efficiency":"fast","elapsed_s":"long"}',
    '{"v":1,"type":"epoch_end","t":' + "[" * 5000 + "]" * 5000 + "}",
]


@pytest.mark.parametrize("line", BAD_LINES)
def test_a_bad_events_line_never_fails_the_listing(workspace, line):
    good = done_run(workspace, "good")
    bad = make_run(workspace, "bad")
    (bad / EVENTS_FILE).write_text(encode(make_event("stage", stage="starting", pid=123, t=1.0)) + line + "\n",
                                   encoding="utf-8")
    runs = {r.name: r for r in list_runs(workspace)}
    assert runs["good"].status == "completed" and runs["bad"].status in ("running", "failed", "completed")
    assert read_run(good).status == "completed"
    json.dumps([r.__dict__ for r in runs.values()], allow_nan=False)  # what `runs --json` prints


@pytest.mark.parametrize(("damage", "reason"), [
    (lambda run: (run / CONFIG_FILE).write_text("[1, 2]"), "list"),
    (lambda run: (run / CONFIG_FILE).write_text("{not json"), "not valid JSON"),
    (lambda run: (run / CONFIG_FILE).write_text('{"spec": 3}'), "spec"),
    (lambda run: ((run / EVENTS_FILE).unlink(missing_ok=True), (run / EVENTS_FILE).mkdir()), EVENTS_FILE),
])
def test_an_unreadable_run_is_listed_as_such_with_the_reason(workspace, damage, reason):
    done_run(workspace, "good")
    bad = make_run(workspace, "bad")
    damage(bad)
    for runs in (list_runs(workspace), RunIndex().list_runs(workspace)):
        by_name = {r.name: r for r in runs}
        assert by_name["good"].status == "completed"
        assert by_name["bad"].status == UNREADABLE and reason in by_name["bad"].error["message"]
        assert by_name["bad"].can_resume is False


def test_non_numeric_results_csv_is_skipped(workspace):
    run = make_run(workspace, "csv")
    (run / "results.csv").write_text("epoch, metrics/mAP_0.5, metrics/mAP_0.5:0.95\nabc, x, y\n1e400, nan, 0.9\n2, 0.5, 0.3\n", encoding="utf-8")
    info = read_run(run)
    assert info.best_epoch == 2 and info.best_map50 == 0.5


def test_a_resumed_writer_starts_on_a_new_line_after_a_torn_tail(tmp_path):
    events = tmp_path / EVENTS_FILE
    events.write_text(encode(make_event("stage", stage="starting", pid=5, t=1.0)) + '{"v":1,"type":"epoch_e',
                      encoding="utf-8")  # the killed writer's last bytes
    writer = EventWriter(None, events)
    writer.emit("stage", stage="starting", pid=6)
    writer.close()
    kinds = [(e["type"], e.get("pid")) for e in iter_events(events)]
    assert kinds == [("stage", 5), ("stage", 6)]
    assert events.read_text(encoding="utf-8").count("\n") == 3  # the fragment is a line of its own


def test_an_event_glued_onto_a_torn_fragment_by_an_older_writer_is_still_read():
    line = '{"v":1,"type":"epoch_e' + encode(make_event("done", status="stopped", elapsed_s=1.0))
    decoded = parse_line(line)
    assert decoded.event is not None and decoded.event["status"] == "stopped"


def test_a_stop_request_after_a_torn_control_tail_is_a_line_of_its_own(workspace):
    from core.runs.store import request_stop
    from core.run.folder import CONTROL_FILE

    run = make_run(workspace, "ctl")
    (run / CONTROL_FILE).write_text('{"type":"sto', encoding="utf-8")
    request_stop(run)
    assert json.loads((run / CONTROL_FILE).read_text(encoding="utf-8").splitlines()[-1])["type"] == "stop"


_json_scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
                          st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12))
_json_values = st.recursive(_json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)), max_leaves=12)
_event_keys = st.sampled_from(["epoch", "epochs", "pid", "create_time", "t", "status", "metrics", "efficiency",
                               "stage", "best", "last", "elapsed_s", "index", "count", "reason", "stopped_at"])
_events = st.builds(lambda kind, fields: {"v": 1, "type": kind, **fields},
                    st.sampled_from(["stage", "epoch_start", "epoch_end", "batch", "checkpoint", "done", "error",
                                     "metrics", "efficiency", "warning"]),
                    st.dictionaries(_event_keys, _json_values, max_size=6))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(events=st.lists(_events, max_size=6), config=_json_values, csv_text=st.text(max_size=60),
       garbage=st.binary(max_size=40))
def test_fuzzed_run_files_never_break_the_reader(workspace, events, config, csv_text, garbage):
    run = workspace / "runs" / "fuzz"
    run.mkdir(parents=True, exist_ok=True)
    (run / CONFIG_FILE).write_text(json.dumps(config) if config != "skip" else "", encoding="utf-8")
    body = "".join(json.dumps(e) + "\n" for e in events).encode() + garbage
    (run / EVENTS_FILE).write_bytes(body)
    (run / "results.csv").write_text(csv_text, encoding="utf-8")
    info = read_run(run, alive=lambda pid, ct: False)
    assert info.status in ("running", "completed", "stopped", "failed", UNREADABLE)
    json.dumps(info.__dict__, allow_nan=False)
    assert [r.name for r in RunIndex().list_runs(workspace)] == ["fuzz"]


class _FillingDisk:
    """A real events file whose writes fail half-way with ENOSPC while ``full`` (a disk that filled)."""

    def __init__(self, handle) -> None:
        self.handle, self.full = handle, True

    def write(self, data: bytes) -> int:
        if self.full:
            self.handle.write(data[: len(data) // 2])
            self.handle.flush()
            raise OSError(errno.ENOSPC, "No space left on device")
        return self.handle.write(data)

    def __getattr__(self, name):
        return getattr(self.handle, name)


def test_a_full_disk_never_tears_an_events_line_and_the_runs_last_words_are_kept(tmp_path):
    events = tmp_path / EVENTS_FILE
    released = []
    writer = EventWriter(None, events, on_disk_full=lambda: released.append(True) or True)
    writer.emit("stage", stage="starting", pid=5)
    disk = _FillingDisk(writer._file)
    writer._file = disk
    writer.emit("batch", epoch=0, index=1)  # fails half-way: truncated back, the reserve is given up
    disk.full = False  # the reserve's space
    writer.emit("batch", epoch=0, index=2)  # short of space now: only what says how the run ends is written
    writer.emit("error", kind="disk_full", message="No space left on device: writing last.pt needs about 8 MB")
    writer.emit("done", status="failed", elapsed_s=1.0)
    writer.close()
    text = events.read_text(encoding="utf-8")
    assert released == [True] and text.endswith("\n")
    assert [e["type"] for e in iter_events(events)] == ["stage", "error", "done"]
    assert all(json.loads(line) for line in text.splitlines())  # no torn line anywhere


def test_a_run_killed_after_its_last_epoch_says_resume_completes_it(workspace):
    run = make_run(workspace, "finished")
    (run / EVENTS_FILE).write_text(
        encode(make_event("stage", stage="starting", pid=123, create_time=1.0, t=1.0))
        + encode(make_event("epoch_end", epoch=0, epochs=1, metrics={}, t=2.0))
        + encode(make_event("checkpoint", path=str(run / "weights" / "last.pt"), epoch=0, reason="epoch")),
        encoding="utf-8")
    info = read_run(run, alive=lambda pid, ct: False)
    assert info.status == "failed" and "Resume completes it" in info.error["hint"]
