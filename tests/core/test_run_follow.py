"""The one run-state fold: every reader derives the same status from the same events, and a follower reads
each byte of the events file once (``core.runs.follow.RunFollow``, used by ``attach`` and the GUI follower)."""

from __future__ import annotations

import threading

import pytest

from bench.attach_idle import build_idle_run
from cli.main import main
from core.job.protocol import encode, make_event
from core.run.files import EVENTS_FILE
from core.run.owner import RunLock
from core.runs.follow import RunFollow
from core.runs.index import RunIndex
from core.runs.store import create_run, read_run
from core.training.config import MachineFacts, TrainConfig, validate_config

GONE = 2 ** 22 + 12345  # no process has this pid here (above the kernel's default pid_max)


def _run(tmp_path):
    data = tmp_path / "data.yaml"
    data.write_text("path: .\ntrain: a\nval: a\nnames: [x]\n", encoding="utf-8")
    return create_run(tmp_path / "ws", validate_config(TrainConfig(data=str(data), device="cpu", epochs=2),
                                                      MachineFacts(0)))


def _append(run, *events) -> None:
    with open(run / EVENTS_FILE, "a", encoding="utf-8") as handle:
        handle.write("".join(encode(e) for e in events))


STARTING = make_event("stage", stage="starting", pid=GONE, create_time=1.0)
ERROR = make_event("error", kind="out_of_memory", message="CUDA out of memory", hint="smaller batch")
CASES = {
    "completed": [STARTING, make_event("done", status="completed", elapsed_s=3.0)],
    "stopped then resumed, then gone": [STARTING, make_event("done", status="stopped", elapsed_s=3.0), STARTING],
    "failed with two errors": [STARTING, ERROR, make_event("error", kind="other", message="then this", hint=""),
                               make_event("done", status="failed", elapsed_s=1.0)],
    "gone without a word": [STARTING, make_event("epoch_start", epoch=0, epochs=2, batches=4)],
}


def _statuses(run) -> dict[str, object]:
    """What each reader says: ``runs`` (read_run and the GUI's kept index) and a follower (attach, GUI)."""
    follow = RunFollow(run)
    follow.read_to_end()
    listed = RunIndex().list_runs(run.parent.parent)
    return {"read_run": (read_run(run).status, read_run(run).error),
            "index": (listed[0].status, listed[0].error),
            "follow": (follow.status(), read_run(run, summary=follow.summary).error)}


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_reader_folds_the_same_status_from_the_same_events(tmp_path, case):
    run = _run(tmp_path)
    _append(run, *CASES[case])
    seen = _statuses(run)
    assert len(set(map(repr, seen.values()))) == 1, seen
    if case == "failed with two errors":  # the one ending rule: the first job error is the failure
        assert seen["follow"][1]["message"] == "CUDA out of memory"


def test_a_held_lock_is_running_for_every_reader_and_its_release_is_not(tmp_path):
    run = _run(tmp_path)
    _append(run, *CASES["gone without a word"])
    lock = RunLock.acquire(run, job="train")
    try:
        assert {status for status, _ in _statuses(run).values()} == {"running"}
    finally:
        lock.release()
    assert {status for status, _ in _statuses(run).values()} == {"failed"}


def test_an_appended_event_reaches_the_follower_and_a_partial_line_waits(tmp_path):
    run = _run(tmp_path)
    _append(run, STARTING)
    follow = RunFollow(run)
    assert [e["type"] for e in follow.read_to_end()] == ["stage"]
    line = encode(make_event("done", status="completed", elapsed_s=2.0)).encode("utf-8")
    with open(run / EVENTS_FILE, "ab") as handle:
        handle.write(line[:10])
        handle.flush()
        assert follow.poll() == [] and follow.status() == "failed"  # GONE is no worker; the half line waits
        handle.write(line[10:])
    [done] = follow.poll()
    assert done["status"] == "completed" and follow.status() == "completed"


def test_a_20_mb_events_file_is_read_once_while_followed(tmp_path):
    run = build_idle_run(tmp_path / "ws", 20)
    size = (run / EVENTS_FILE).stat().st_size
    lock = RunLock.acquire(run, job="train")
    try:
        follow = RunFollow(run)
        follow.read_to_end()
        assert follow.bytes_read == size and follow.summary.epochs_total == 300
        for _ in range(5):  # idle ticks: nothing appended, nothing read again
            assert follow.poll() == [] and follow.status() == "running"
        assert follow.bytes_read == size
        done = make_event("done", status="stopped", elapsed_s=9.0)
        _append(run, done)
        assert [e["type"] for e in follow.poll()] == ["done"]
        assert follow.bytes_read == size + len(encode(done).encode("utf-8")) and follow.status() == "stopped"
    finally:
        lock.release()


def test_attach_on_a_live_run_ends_with_its_appended_done(tmp_path, capsys):
    run = _run(tmp_path)
    _append(run, STARTING)
    lock = RunLock.acquire(run, job="train")  # live: its folder's lock is held
    code: list[int] = []
    follower = threading.Thread(target=lambda: code.append(main(["--workspace", str(tmp_path / "ws"),
                                                                  "attach", run.name])))
    try:
        follower.start()
        _append(run, make_event("done", status="completed", elapsed_s=4.0))
        follower.join(timeout=60)
    finally:
        lock.release()
    assert code == [0]
