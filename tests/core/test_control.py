"""The worker's control channel: stop via a pipe fd or the control file; EOF is not a stop."""

from __future__ import annotations

import os
import struct
import threading
import time

from core.runs.store import request_stop
from core.worker.control import ControlChannel
from tests.waits import TIMEOUT_S


def wait_for(predicate, timeout=TIMEOUT_S):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def _reader_of(channel: ControlChannel, fd: int) -> threading.Thread:
    """Start ``channel`` on ``fd`` and return the thread that reads it (to wait for its end, not for a time)."""
    before = set(threading.enumerate())
    channel.start(fd)
    (reader,) = [t for t in threading.enumerate() if t not in before and t.name == "control-stdin"]
    return reader


def _unread(fd: int) -> int:
    """Bytes waiting in a pipe (FIONREAD); 0 where it cannot be asked."""
    try:
        import fcntl
        import termios
    except ImportError:
        return 0
    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]


def test_stop_on_stdin_fd_with_split_writes():
    read_fd, write_fd = os.pipe()
    sources = []
    channel = ControlChannel(None, on_stop=sources.append)
    reader = _reader_of(channel, read_fd)
    os.write(write_fd, b'{"v":1,"ty')  # half a line: read whole with its end, or the first stop is lost
    assert wait_for(lambda: _unread(read_fd) == 0)  # the reader took the half line on its own
    assert not channel.stop_requested.is_set()
    os.write(write_fd, b'pe":"stop"}\n{"type":"stop"}\n')
    os.close(write_fd)
    reader.join(TIMEOUT_S)  # EOF after the last line: everything written has been read
    assert not reader.is_alive()
    assert sources == ["stdin", "stdin (again)"]


def test_eof_is_not_a_stop():
    read_fd, write_fd = os.pipe()
    channel = ControlChannel(None)
    reader = _reader_of(channel, read_fd)  # started before the EOF: a reader that already ended can't be found
    os.close(write_fd)
    reader.join(TIMEOUT_S)  # the reader saw the EOF and ended
    assert not reader.is_alive() and not channel.stop_requested.is_set()


def test_stop_through_control_file(tmp_path):
    (tmp_path / "control.jsonl").write_text('{"type":"stop"}\n')  # an old request: not for this worker
    sources: list[str] = []
    channel = ControlChannel(tmp_path / "control.jsonl", on_stop=sources.append, poll_interval_s=0.02)
    channel.start(None)
    request_stop(tmp_path)
    assert wait_for(channel.stop_requested.is_set)
    channel.close()
    assert sources == ["control file"]  # only the new request: the old one would have come first


def test_junk_lines_are_ignored():
    channel = ControlChannel(None)
    channel.handle_line("hello", "stdin")
    channel.handle_line('{"type":"pause"}', "stdin")
    assert not channel.stop_requested.is_set()
