"""WorkerProcess and RunFollower against a real subprocess (tests/fixtures/fake_worker.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from PySide6.QtCore import QProcess

from core.job.protocol import read_events
from core.runs.store import request_stop
from core.run.files import EVENTS_FILE
from gui.run_follower import RunFollower
from gui.worker_process import WorkerProcess, detached_processes
from tests.waits import TIMEOUT_MS

RECORDED = Path(__file__).parents[1] / "fixtures" / "recorded_train_events.jsonl"


class Collector:
    def __init__(self, source: WorkerProcess | RunFollower) -> None:
        self.events: list[dict] = []
        self.texts: list[str] = []
        self.finished: list[tuple[int, bool]] = []
        source.event.connect(self.events.append)
        source.finished.connect(lambda code, crashed: self.finished.append((code, crashed)))
        if isinstance(source, WorkerProcess):
            source.text.connect(self.texts.append)


def _without_identity(event: dict) -> dict:
    return {k: v for k, v in event.items() if k not in ("pid", "create_time")}


@pytest.fixture
def worker(qtbot):
    process = WorkerProcess()
    yield process
    if process.running:
        process.kill()
        qtbot.waitUntil(lambda: not process.running, timeout=TIMEOUT_MS)


def test_events_arrive_intact_with_partial_chunks(qtbot, worker, fake_worker):
    got = Collector(worker)
    with qtbot.waitSignal(worker.finished, timeout=TIMEOUT_MS):
        worker.start(fake_worker("--partial-chunks"), dict(os.environ))
    recorded = read_events(RECORDED)
    assert [_without_identity(e) for e in got.events] == [_without_identity(e) for e in recorded]
    assert got.events[0]["pid"] != recorded[0]["pid"]  # the fake worker's own pid, as a real worker's
    assert got.texts == []  # no half line ever leaked out as text
    assert got.finished == [(0, False)]


def test_non_json_lines_arrive_as_text(qtbot, worker, fake_worker, tmp_path):
    stream = tmp_path / "mixed.jsonl"
    event = {"v": 1, "type": "log", "t": 1.0, "level": "info", "message": "hi"}
    stream.write_text("plain words from a library\n" + json.dumps(event) + "\n{not json\n"
                      + json.dumps({"type": "log"}) + "\n", encoding="utf-8")
    got = Collector(worker)
    with qtbot.waitSignal(worker.finished, timeout=TIMEOUT_MS):
        worker.start(fake_worker(events=stream), dict(os.environ))
    assert got.events == [event]
    assert got.texts == ["plain words from a library", "{not json", '{"type": "log"}']


def test_stop_ends_with_done_stopped_and_second_stop_is_harmless(qtbot, worker, fake_worker):
    got = Collector(worker)
    worker.start(fake_worker("--pause-after", "60"), dict(os.environ))
    qtbot.waitUntil(lambda: len(got.events) == 60, timeout=TIMEOUT_MS)
    with qtbot.waitSignal(worker.finished, timeout=TIMEOUT_MS):
        assert worker.send_stop() is True
        assert worker.send_stop() is False
    assert [e["type"] for e in got.events[-2:]] == ["checkpoint", "done"]
    assert got.events[-2]["reason"] == "stop"
    assert got.events[-1]["status"] == "stopped"
    assert got.finished == [(0, False)]
    assert worker.send_stop() is False  # after the end: nothing to stop, nothing raised


def test_sigkill_mid_run_reports_a_crash(qtbot, worker, fake_worker):
    got = Collector(worker)
    with qtbot.waitSignal(worker.finished, timeout=TIMEOUT_MS):
        worker.start(fake_worker("--die-after", "30"), dict(os.environ))
    assert len(got.events) == 30
    assert got.finished[0][1] is True
    assert not worker.running


def test_failed_to_start_is_reported(qtbot, worker, tmp_path):
    with qtbot.waitSignal(worker.failed_to_start, timeout=TIMEOUT_MS) as blocker:
        worker.start([str(tmp_path / "no-such-python"), "-c", "pass"], dict(os.environ))
    assert blocker.args[0]


def test_detach_keeps_the_worker_running(qtbot, worker, fake_worker, tmp_path):
    """The detached worker carries on (it answers a stop through its control file and writes its events file
    to the end), and its window hears nothing of it any more, not even its end."""
    got = Collector(worker)
    events_file = tmp_path / "run" / "events.jsonl"
    worker.start(fake_worker("--pause-after", "5", "--events-out", str(events_file)), dict(os.environ))
    qtbot.waitUntil(lambda: len(got.events) == 5, timeout=TIMEOUT_MS)
    pid = worker.pid
    worker.detach()
    (proc,) = [p for p in detached_processes() if p.processId() == pid]
    request_stop(events_file.parent)  # a stop only a live worker can answer
    qtbot.waitUntil(lambda: proc.state() == QProcess.ProcessState.NotRunning, timeout=TIMEOUT_MS)
    assert '"status": "stopped"' in events_file.read_text(encoding="utf-8").splitlines()[-1]
    assert got.finished == [] and len(got.events) == 5  # no signals after detaching


# -- RunFollower -------------------------------------------------------------------------------------


def _spawn(fake_worker, run_dir: Path, *options: str) -> subprocess.Popen:
    return subprocess.Popen(fake_worker("--events-out", str(run_dir / EVENTS_FILE), *options),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)


def test_follower_replays_a_finished_run(qtbot, tmp_path):
    shutil.copy(RECORDED, tmp_path / EVENTS_FILE)
    follower = RunFollower(tmp_path)
    got = Collector(follower)
    with qtbot.waitSignal(follower.finished, timeout=TIMEOUT_MS):
        follower.start()
    assert len(got.events) == len(read_events(RECORDED))
    assert got.finished == [(0, False)]


def test_follower_follows_a_live_run_and_stops_it(qtbot, tmp_path, fake_worker):
    proc = _spawn(fake_worker, tmp_path, "--pause-after", "40")
    try:
        qtbot.waitUntil(lambda: len(read_events(tmp_path / EVENTS_FILE)) >= 40, timeout=TIMEOUT_MS)
        follower = RunFollower(tmp_path)
        got = Collector(follower)
        follower.start()
        qtbot.waitUntil(lambda: len(got.events) == 40, timeout=TIMEOUT_MS)
        assert follower.pid == proc.pid
        with qtbot.waitSignal(follower.finished, timeout=TIMEOUT_MS):
            request_stop(tmp_path)
        assert got.events[-1]["type"] == "done" and got.events[-1]["status"] == "stopped"
        assert got.finished == [(0, False)]
    finally:
        proc.kill()
        proc.wait()


def test_follower_notices_a_worker_that_died_without_a_word(qtbot, tmp_path, fake_worker):
    proc = _spawn(fake_worker, tmp_path, "--die-after", "30")
    proc.wait()
    follower = RunFollower(tmp_path)
    got = Collector(follower)
    with qtbot.waitSignal(follower.finished, timeout=TIMEOUT_MS):
        follower.start()
    assert len(got.events) == 30
    assert got.finished == [(-1, True)]
