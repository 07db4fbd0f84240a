"""The job path's pure parts: a spec that writes itself, the control line, and the one fold to an outcome."""

from __future__ import annotations

import json
import sys

import pytest

from core.i18n import set_catalogue
from core.job.jobs import RUN_SPEC_FILE, JobSpec, JobTracker, fold_outcome, worker_died_words
from core.job.protocol import CONTROL_TYPES, encode_control, parse_control

DONE_COMPLETED = {"type": "done", "status": "completed", "elapsed_s": 3.0}
DONE_STOPPED = {"type": "done", "status": "stopped", "elapsed_s": 3.0}
DONE_FAILED = {"type": "done", "status": "failed", "elapsed_s": 3.0}
ERROR = {"type": "error", "kind": "out_of_memory", "message": "CUDA out of memory", "hint": "Lower the batch size",
         "traceback": "Traceback ...", "exception": "OutOfMemoryError"}


@pytest.mark.parametrize(("events", "how", "status", "kind", "synthetic"), [
    ([DONE_COMPLETED], {"exit_code": 0}, "completed", "", False),
    ([DONE_STOPPED], {"exit_code": 0}, "stopped", "", False),
    ([ERROR, DONE_FAILED], {"exit_code": 1}, "failed", "out_of_memory", False),
    ([ERROR], {"exit_code": -1, "crashed": True}, "failed", "out_of_memory", False),  # said why, then died
    ([], {"exit_code": 9, "crashed": True}, "failed", "worker_died", True),
    ([], {"exit_code": 3}, "failed", "worker_died", True),
    ([], {"exit_code": None}, "failed", "worker_died", True),  # a followed run whose process is gone
    ([], {"exit_code": 9, "crashed": True, "killed": True}, "failed", "killed", True),
    ([], {"start_error": "No such file"}, "failed", "launch", True),
    ([], {"timed_out_s": 120.0}, "failed", "timeout", True),
    ([DONE_FAILED], {"exit_code": 1}, "failed", "", False),  # e.g. exports written but not verified
])
def test_every_ending_folds_to_one_outcome(events, how, status, kind, synthetic):
    tracker = JobTracker()
    for event in events:
        tracker.feed(event)
    outcome = tracker.outcome(**how)
    assert (outcome.status, outcome.kind, outcome.synthetic) == (status, kind, synthetic)
    assert outcome.reported == any(e["type"] == "done" for e in events)
    if kind:  # every failure with a kind says what happened and what to do
        assert outcome.message and outcome.hint and outcome.error() == {"kind": kind, "message": outcome.message,
                                                                          "hint": outcome.hint}
    else:
        assert outcome.error() is None


def test_a_worker_that_died_has_one_wording_naming_its_exit_code():
    assert fold_outcome(None, None, exit_code=3).message == worker_died_words(3)[0]
    assert "3" in worker_died_words(3)[0] and "unknown" in worker_died_words(None)[0]
    assert fold_outcome(None, None, exit_code=9, crashed=True).message == worker_died_words(None)[0]
    assert fold_outcome(None, None, exit_code=3).hint == worker_died_words(3)[1]


def test_the_wording_goes_through_the_translation_catalogue(tmp_path):
    english = worker_died_words(7)[0]
    template = ("The worker process ended without its final report (exit code {code}): it was killed or it "
                "crashed.")
    translated = "工作进程未给出最终报告就结束了（退出码 {code}）：它被终止或崩溃了。"
    set_catalogue({template: translated})
    try:
        assert worker_died_words(7)[0] == translated.format(code=7)
    finally:
        set_catalogue({})
    assert worker_died_words(7)[0] == english


def test_a_resumed_worker_that_dies_does_not_inherit_the_previous_ending():
    tracker = JobTracker()
    for event in (ERROR, DONE_STOPPED, {"type": "stage", "stage": "starting", "pid": 1}):
        tracker.feed(event)
    outcome = tracker.outcome(exit_code=-1, crashed=True)
    assert outcome.status == "failed" and outcome.kind == "worker_died"


def test_a_format_error_is_not_the_jobs_failure():
    tracker = JobTracker()
    tracker.feed({**ERROR, "format": "engine"})
    tracker.feed(DONE_FAILED)
    assert tracker.outcome(exit_code=1).error() is None


def test_a_run_spec_stays_in_the_run_and_a_scratch_spec_is_private_and_removed(tmp_path):
    run = JobSpec.for_run("train", tmp_path / "runs" / "exp", {"run_dir": str(tmp_path / "runs" / "exp"), "x": 1})
    path = run.write()
    assert path == tmp_path / "runs" / "exp" / RUN_SPEC_FILE and json.loads(path.read_text())["x"] == 1
    assert run.argv() == [sys.executable, "-m", "core.worker", "train", str(path)]
    assert run.run_dir == tmp_path / "runs" / "exp"
    run.discard()
    assert path.exists()  # a run's spec outlives its worker (resume, rename)

    first = JobSpec.scratch("export", {"workspace": str(tmp_path)}, tmp_path)
    second = JobSpec.scratch("export", {"workspace": str(tmp_path)}, tmp_path)
    argv = first.argv()  # writes it
    assert first.path is not None and first.path.exists() and argv[-1] == str(first.path)
    assert second.write() != first.path  # a GUI and a terminal may run the same job at once
    assert first.env()["PYTHONUNBUFFERED"] == "1"
    first.discard()
    assert not first.path.exists()


def test_control_lines_round_trip_and_garbage_is_ignored():
    line = encode_control("stop")
    assert line.endswith("\n") and parse_control(line) == "stop"
    assert set(json.loads(line)) == {"v", "type", "t"}
    assert CONTROL_TYPES == ("stop",)
    with pytest.raises(ValueError):
        encode_control("reboot")
    for garbage in ("", "{not json", '{"type": "reboot"}', "[1, 2]", '"stop"'):
        assert parse_control(garbage) is None
