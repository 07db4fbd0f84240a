"""A Stop of a search lets each running trial save and end as a stopped run (core.tune.stopping, the trial's
watch of the search's stop flag in core/worker/tune_trial.py, the book's last word in core/worker/tune_hooks.py):
Ray Tune alone killed trials that needed more than 5 s to save — "failed", weights/ empty (issue 32)."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from core.job.jobs import JobTracker
from core.job.protocol import encode, make_event
from core.tune.folder import TuneFolder
from core.tune.stopping import still_running, wait_for_runs


def run_with(tmp_path: Path, name: str, *types: str) -> Path:
    run = tmp_path / "runs" / name
    run.mkdir(parents=True)
    (run / "events.jsonl").write_text("".join(encode(make_event(t, status="stopped")) for t in types),
                                      encoding="utf-8")
    return run


def test_the_driver_waits_for_runs_without_their_done_and_for_runs_not_made_yet(tmp_path):
    ended = run_with(tmp_path, "ended", "hello", "done")
    saving = run_with(tmp_path, "saving", "hello")
    starting = tmp_path / "runs" / "starting"  # the actor has not made its run yet
    assert still_running([ended, saving, starting], waited_s=1.0, grace_s=10.0) == [saving, starting]
    assert still_running([ended, saving, starting], waited_s=11.0, grace_s=10.0) == [saving]


def test_the_wait_ends_when_the_runs_end_or_at_its_bound(tmp_path):
    saving = run_with(tmp_path, "saving", "hello")
    now = [0.0]
    slept: list[float] = []

    def sleep(s: float) -> None:
        slept.append(s)
        now[0] += s
        if now[0] >= 2.0:  # the worker writes its done two seconds on
            (saving / "events.jsonl").write_text(encode(make_event("done", status="stopped")), encoding="utf-8")

    assert wait_for_runs([saving], 30.0, poll_s=0.5, clock=lambda: now[0], sleep=sleep) == []
    assert sum(slept) == 2.0
    stuck = run_with(tmp_path, "stuck", "hello")
    now[0] = 0.0
    assert wait_for_runs([stuck], 3.0, poll_s=1.0, clock=lambda: now[0],
                         sleep=lambda s: now.__setitem__(0, now[0] + s)) == [stuck]


class Ended(Exception):
    """The trial reached its wait for Ray's end (a test cannot wait forever)."""


def test_a_trial_passes_the_searchs_stop_to_its_worker_and_reports_nothing_after(tmp_path, monkeypatch):
    from core.worker import tune_trial

    tune_dir = tmp_path / "tune" / "t"
    tune_dir.mkdir(parents=True)
    # A stand-in train worker: an epoch, then it waits for the stop line and ends "stopped", as train_job does.
    worker = tmp_path / "worker.py"
    epoch = encode(make_event("epoch_end", epoch=0, epochs=3, fitness=0.1, metrics={}))
    stopped = encode(make_event("done", status="stopped"))
    worker.write_text(f"import sys\nsys.stdout.write({epoch!r}); sys.stdout.flush()\n"
                      f"line = sys.stdin.readline()\nsys.stdout.write({stopped!r} if 'stop' in line else '')\n",
                      encoding="utf-8")
    trial = tune_trial.TrainTrial.__new__(tune_trial.TrainTrial)  # Ray's actor machinery is not needed here
    trial.events, trial.tracker, trial.last, trial.run_dir = queue.Queue(), JobTracker(), {}, tmp_path / "run"
    trial.stop_flag, trial.stop_sent = TuneFolder(tune_dir).stop_flag, False
    trial.proc = subprocess.Popen([sys.executable, "-S", str(worker)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    threading.Thread(target=trial._read, daemon=True).start()
    monkeypatch.setattr(tune_trial.TrainTrial, "_wait_for_the_end", lambda self: (_ for _ in ()).throw(Ended()))
    assert trial.step()["epoch"] == 1  # an epoch of three: reported
    trial.stop_flag.write_text("stop\n", encoding="utf-8")
    with pytest.raises(Ended):  # stopped and saved: no result (Ray would count it the trial's end), no error
        trial.step()
    assert trial.stop_sent and trial.proc.wait(timeout=30) == 0


def test_the_searchs_end_says_each_unfinished_trial_stopped_at_its_last_epoch(tmp_path):
    from core.worker.tune_hooks import TrialBook

    said: list[tuple[str, dict]] = []
    book = TrialBook(lambda kind, **fields: said.append((kind, fields)), "t", tmp_path, 3, 0.0, lambda: True)
    book.rows = {"a": {"trial": "a", "run": "r/a", "state": "running", "fitness": 0.2, "epochs": 2, "config": {},
                       "metrics": {}, "reason": ""},
                 "b": {"trial": "b", "run": "r/b", "state": "completed", "fitness": 0.3, "epochs": 3, "config": {},
                       "metrics": {}, "reason": ""}}
    closed = book.close_unfinished()
    assert [r["trial"] for r in closed] == ["a"] and book.rows["a"]["state"] == "stopped"
    assert said == [("trial", {"trial": "a", "run": "r/a", "state": "stopped", "fitness": 0.2, "epochs": 2,
                               "config": {}, "reason": ""})]
