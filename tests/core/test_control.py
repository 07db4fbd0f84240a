"""The worker's control channel: stop via a pipe fd or the control file; EOF is not a stop."""

from __future__ import annotations

import os
import time

from core.runs import request_stop
from core.worker.control import ControlChannel
from tests.waits import TIMEOUT_S


def wait_for(predicate, timeout=TIMEOUT_S):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def test_stop_on_stdin_fd_with_split_writes():
    read_fd, write_fd = os.pipe()
    sources = []
    channel = ControlChannel(None, on_stop=sources.append)
    channel.start(read_fd)
    os.write(write_fd, b'{"v":1,"ty')
    time.sleep(0.05)
    assert not channel.stop_requested.is_set()
    os.write(write_fd, b'pe":"stop"}\n{"type":"stop"}\n')
    assert wait_for(lambda: len(sources) == 2)
    assert sources == ["stdin", "stdin (again)"]
    os.close(write_fd)


def test_eof_is_not_a_stop():
    read_fd, write_fd = os.pipe()
    channel = ControlChannel(None)
    channel.start(read_fd)
    os.close(write_fd)
    time.sleep(0.1)
    assert not channel.stop_requested.is_set()


def test_stop_through_control_file(tmp_path):
    (tmp_path / "control.jsonl").write_text('{"type":"stop"}\n')  # an old request: not for this worker
    channel = ControlChannel(tmp_path / "control.jsonl", poll_interval_s=0.02)
    channel.start(None)
    time.sleep(0.1)
    assert not channel.stop_requested.is_set()
    request_stop(tmp_path)
    assert wait_for(channel.stop_requested.is_set)
    channel.close()


def test_junk_lines_are_ignored():
    channel = ControlChannel(None)
    channel.handle_line("hello", "stdin")
    channel.handle_line('{"type":"pause"}', "stdin")
    assert not channel.stop_requested.is_set()
