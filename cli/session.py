"""Running one worker job from a terminal: a plain subprocess, its events fed to a renderer.

The worker runs in its own session/process group, so Ctrl+C and a dropped SSH connection don't reach
it; Ctrl+C here asks it to stop gracefully (a second one kills it). With ``forward_stdin`` (``--json``
mode) control lines written to the CLI's stdin are passed on to the worker, so a program driving the CLI
can stop a job the same way the GUI does. No Qt.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from typing import Any

from cli.common import EXIT_FAILED, STATUS_EXIT
from cli.render import EventRenderer
from core.i18n import tr
from core.launch import worker_env
from core.protocol import LineDecoder


class WorkerSession:
    """Runs one worker subprocess and feeds its events to a renderer; Ctrl+C means stop, twice means kill."""

    def __init__(self, argv: list[str], renderer: EventRenderer, *, forward_stdin: bool = False) -> None:
        self.argv = argv
        self.renderer = renderer
        self.forward_stdin = forward_stdin
        self.interrupts = 0
        self.proc: subprocess.Popen[bytes] | None = None

    def _on_sigint(self, signum: int, frame: Any) -> None:
        self.interrupts += 1
        if self.proc is None:
            return
        if self.interrupts == 1:
            self.renderer.note(tr("Stopping after the current batch and saving a checkpoint… "
                                  "(Ctrl+C again to kill the worker)"))
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write(b'{"v":1,"type":"stop"}\n')
                self.proc.stdin.flush()
            except (OSError, ValueError):
                pass
        else:
            self.renderer.note(tr("Killing the worker; the last saved checkpoint is kept."))
            self.proc.kill()

    def _forward_stdin(self) -> None:
        """In --json mode a controlling program may write control lines ({"type": "stop"}) to our stdin."""
        try:
            fd = sys.stdin.fileno()
        except (AttributeError, OSError, ValueError):
            return
        while self.proc is not None:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                return
            if not chunk:
                return  # EOF is not a stop
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write(chunk)
                self.proc.stdin.flush()
            except (OSError, ValueError):
                return

    def run(self) -> int:
        popen_kw: dict[str, Any] = {}
        if os.name == "posix":
            popen_kw["start_new_session"] = True  # Ctrl+C and a dropped SSH session don't reach the worker
        else:
            popen_kw["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP  # type: ignore[attr-defined]
        previous = signal.signal(signal.SIGINT, self._on_sigint)
        decoder = LineDecoder()
        status: str | None = None
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         env=worker_env(), **popen_kw)
            assert self.proc.stdout is not None
            if self.forward_stdin:
                threading.Thread(target=self._forward_stdin, name="forward-stdin", daemon=True).start()
            while True:
                chunk = self.proc.stdout.read1(65536)
                lines = decoder.feed(chunk) if chunk else decoder.flush()
                for decoded in lines:
                    if decoded.event is not None:
                        if decoded.event.get("type") == "done":
                            status = decoded.event.get("status")
                        self.renderer.event(decoded.event)
                    elif decoded.text:
                        self.renderer.text(decoded.text)
                if not chunk:
                    break
            code = self.proc.wait()
        finally:
            signal.signal(signal.SIGINT, previous)
        if status is None:
            self.renderer.died(code)
            return EXIT_FAILED
        return STATUS_EXIT.get(status, EXIT_FAILED)
