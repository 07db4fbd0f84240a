"""Control channel of a worker: stop requests from stdin (the launching GUI/CLI) or a control file.

stdin is the live channel while the launcher is attached. When the GUI is closed and the run goes on in
the background, stdin reaches EOF — that is *not* a stop — and a GUI that re-attaches later has no pipe
to the worker, so it appends ``{"type": "stop"}`` to ``<run_dir>/control.jsonl``, which is polled here.
No POSIX signals: they don't exist on Windows and can't carry a graceful stop.

stdin is read with ``os.read`` on a private duplicate of fd 0, never through ``sys.stdin``: a thread
blocked inside ``sys.stdin.readline`` holds the buffer's lock, and every data-loader worker forked
meanwhile deadlocks in multiprocessing's ``sys.stdin.close()`` at start-up (seen here: training froze
at its first batch).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Callable

from core.job.protocol import parse_control


class ControlChannel:
    def __init__(self, control_file: Path | None, on_stop: Callable[[str], None] | None = None,
                 poll_interval_s: float = 0.5, eof_is_stop: bool = False) -> None:
        """``eof_is_stop``: the launcher's end is a stop (``core.job.jobs.ends_with_launcher``)."""
        self.stop_requested = threading.Event()
        self._eof_is_stop = eof_is_stop
        self._control_file = control_file
        self._offset = control_file.stat().st_size if control_file and control_file.exists() else 0
        self._on_stop = on_stop
        self._poll_interval_s = poll_interval_s
        self._closed = threading.Event()

    def start(self, stdin_fd: int | None = None) -> None:
        if stdin_fd is not None:
            threading.Thread(target=self._read_fd, args=(stdin_fd,), name="control-stdin", daemon=True).start()
        if self._control_file is not None:
            threading.Thread(target=self._poll_file, name="control-file", daemon=True).start()

    def close(self) -> None:
        self._closed.set()

    def handle_line(self, line: str, source: str) -> None:
        if parse_control(line) == "stop":
            self._request_stop(source)

    def _request_stop(self, source: str) -> None:
        first = not self.stop_requested.is_set()
        self.stop_requested.set()
        if self._on_stop is not None:
            self._on_stop(source if first else f"{source} (again)")

    def _read_fd(self, fd: int) -> None:
        pending = b""
        while True:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                return
            if not chunk:  # EOF: the launcher went away
                if self._eof_is_stop:
                    self._request_stop("launcher gone")
                return  # else keep running, the control file still works
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                self.handle_line(line.decode("utf-8", errors="replace"), "stdin")

    def _poll_file(self) -> None:
        assert self._control_file is not None
        while not self._closed.wait(self._poll_interval_s):
            try:
                with open(self._control_file, "rb") as handle:
                    handle.seek(self._offset)
                    chunk = handle.read()
            except FileNotFoundError:
                continue
            end = chunk.rfind(b"\n")
            if end < 0:
                continue  # a line still being written: read it whole next time
            self._offset += end + 1
            for line in chunk[: end + 1].decode("utf-8", errors="replace").splitlines():
                self.handle_line(line, "control file")
