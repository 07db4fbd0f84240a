"""JobRunner, the one way pages run a worker job: exactly one ``ended(JobOutcome)`` however the job ends."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from core.job.jobs import JobSpec, worker_died_words
from core.job.protocol import read_events
from core.run.files import EVENTS_FILE
from gui.job_runner import JobRunner
from tests.fixtures.doors import SayingDoor, SpecDoor

RECORDED = Path(__file__).parents[1] / "fixtures" / "recorded_train_events.jsonl"
TIMEOUT_MS = 20_000


class Ends:
    def __init__(self, runner: JobRunner) -> None:
        self.outcomes: list = []
        self.events: list[dict] = []
        runner.ended.connect(self.outcomes.append)
        runner.event.connect(self.events.append)


@pytest.fixture
def scratch(tmp_path):
    return JobSpec.scratch("export", {"workspace": str(tmp_path)}, tmp_path)


def runner_for(argv: list[str], **kwargs) -> JobRunner:
    return JobRunner(launcher=lambda job: (argv, dict(os.environ)), **kwargs)


def test_a_completed_job_ends_once_and_its_temp_spec_is_removed(qtbot, fake_worker, scratch):
    runner = runner_for(fake_worker())
    ends = Ends(runner)
    with qtbot.waitSignal(runner.ended, timeout=TIMEOUT_MS):
        runner.start(SpecDoor(scratch))
    assert len(ends.events) == len(read_events(RECORDED))
    [outcome] = ends.outcomes
    assert outcome.status == "completed" and outcome.reported and not runner.active
    assert scratch.path is not None and not scratch.path.exists()
    runner._on_finished(0, False)  # a late second "finished" (or a start failure) ends nothing again
    runner._on_failed_to_start("late")
    assert len(ends.outcomes) == 1


def test_the_page_gets_the_doors_result_folded_from_every_event_and_the_process_ending(qtbot, fake_worker,
                                                                                      scratch):
    door = SayingDoor(scratch)
    runner = runner_for(fake_worker("--die-after", "30"))
    ends = Ends(runner)
    with qtbot.waitSignal(runner.ended, timeout=TIMEOUT_MS):
        runner.start(door)
    assert door.folded == ends.events and len(ends.events) == 30  # every event the page saw went to the door
    [how] = door.asked  # …and the process's ending, once
    assert how["killed"] is False and how["timed_out_s"] is None
    [outcome] = ends.outcomes
    assert outcome is runner.outcome and outcome.message == f"{SayingDoor.WORDS}: failed"
    assert outcome.kind == "worker_died"


def test_a_worker_that_dies_gets_the_one_wording(qtbot, fake_worker, scratch):
    runner = runner_for(fake_worker("--die-after", "30"))
    ends = Ends(runner)
    with qtbot.waitSignal(runner.ended, timeout=TIMEOUT_MS):
        runner.start(SpecDoor(scratch))
    [outcome] = ends.outcomes
    assert outcome.kind == "worker_died" and outcome.message == worker_died_words(None)[0]


def test_a_job_that_cannot_start_says_why(qtbot, scratch, tmp_path):
    runner = runner_for([str(tmp_path / "no-such-python"), "-c", "pass"])
    ends = Ends(runner)
    with qtbot.waitSignal(runner.ended, timeout=TIMEOUT_MS):
        runner.start(SpecDoor(scratch))
    [outcome] = ends.outcomes
    assert outcome.kind == "launch" and "could not be started" in outcome.message and outcome.hint


def test_a_hung_job_is_killed_after_its_timeout(qtbot, scratch):
    runner = runner_for([sys.executable, "-c", "import time; time.sleep(600)"], timeout_s=0.5)
    ends = Ends(runner)
    with qtbot.waitSignal(runner.ended, timeout=TIMEOUT_MS):
        runner.start(SpecDoor(scratch))
    [outcome] = ends.outcomes
    assert outcome.kind == "timeout" and outcome.timed_out_s == 0.5 and "within 0.5 s" in outcome.message


def test_stop_is_graceful_and_asking_twice_does_nothing(qtbot, fake_worker, scratch):
    runner = runner_for(fake_worker("--pause-after", "20"))
    ends = Ends(runner)
    runner.start(SpecDoor(scratch))
    qtbot.waitUntil(lambda: len(ends.events) == 20, timeout=TIMEOUT_MS)
    with qtbot.waitSignal(runner.ended, timeout=TIMEOUT_MS):
        assert runner.stop() is True
        assert runner.stop() is False and runner.stopping
    assert ends.outcomes[0].status == "stopped" and not runner.stopping


def test_kill_is_a_killed_outcome(qtbot, fake_worker, scratch):
    runner = runner_for(fake_worker("--pause-after", "20", "--ignore-stop"))
    ends = Ends(runner)
    runner.start(SpecDoor(scratch))
    qtbot.waitUntil(lambda: len(ends.events) == 20, timeout=TIMEOUT_MS)
    with qtbot.waitSignal(runner.ended, timeout=TIMEOUT_MS):
        runner.kill()
    assert ends.outcomes[0].kind == "killed"


def test_following_a_finished_run_replays_it_through_the_same_interface(qtbot, tmp_path):
    shutil.copy(RECORDED, tmp_path / EVENTS_FILE)
    runner = JobRunner()
    ends = Ends(runner)
    with qtbot.waitSignal(runner.ended, timeout=TIMEOUT_MS):
        runner.follow(tmp_path)
    assert runner.followed and len(ends.events) == len(read_events(RECORDED))
    assert ends.outcomes[0].status == "completed" and ends.outcomes[0].reported
