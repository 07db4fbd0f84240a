"""Following a run on another machine: its events read over ssh from a byte offset, reconnecting after a drop.

``RemoteRunStream`` runs ``yolostudio machine events RUN --from OFFSET --skip K`` there (``core.remote.launch``)
and hands each complete line's event to ``on_event``. The remote writes ``#offset N`` after each batch (the byte
of its file after the batch); ``offset`` is the last one read, ``skip`` the lines handed on since (a batch cut
by a dropped link). When the link drops (ssh exits 255, or the client is killed) it says so (``on_note``) and
connects again from ``offset``, skipping those ``skip`` lines — every event once, none lost — until the run
has ended. A refused host key or a run that never began is a ``RemoteFollowError``, not a retry.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from typing import Any, Callable

from core.i18n import tr
from core.job.protocol import parse_line
from core.remote.launch import POSITION
from core.remote.machines import Machine
from core.remote.ssh import RemoteResult, failure_words, remote_words, ssh_argv

#: Seconds between attempts after a dropped link; attempts in a row without a byte read before giving up.
RECONNECT_DELAY_S = 2.0
MAX_FAILED_ATTEMPTS = 150  # five minutes of a link that does not come back (a laptop waking up, a VPN reconnecting)


class RemoteFollowError(RuntimeError):
    """The run cannot be followed (host key, no such run, launch failure); the message says why."""


class RemoteRunStream:
    def __init__(self, machine: Machine, run: str, on_event: Callable[[dict[str, Any]], None], *,
                 on_note: Callable[[str], None] = lambda text: None, offset: int = 0,
                 reconnect_delay_s: float = RECONNECT_DELAY_S) -> None:
        self.machine, self.run, self.on_event, self.on_note = machine, run, on_event, on_note
        self.offset = offset
        self.skip = 0
        self.reconnect_delay_s = reconnect_delay_s
        self.process: subprocess.Popen | None = None
        self.connections = 0
        self.closed = False

    def close(self) -> None:
        """Stop reading (another thread may call it): the ssh client is ended and ``follow`` returns; the run goes on
        there. A face leaving a run to train on its own (a closing window) calls it."""
        self.closed = True
        process = self.process
        if process is not None and process.poll() is None:
            process.kill()

    def follow(self) -> None:
        """Read until the run has ended (the remote's stream ends with exit 0)."""
        failed = 0
        while True:
            before = (self.offset, self.skip)
            code, err = self._read_once()
            if code == 0 or self.closed:
                return
            result = RemoteResult(code, "", err)
            if result.host_key_problem or (code not in (255,) and code >= 0):
                message, hint = failure_words(self.machine, result) if result.ssh_failed else (err.strip(), "")
                raise RemoteFollowError("\n".join(p for p in (message, hint) if p))
            failed = 0 if (self.offset, self.skip) != before else failed + 1
            if failed >= MAX_FAILED_ATTEMPTS:
                raise RemoteFollowError(tr("The link to {name} did not come back; the run goes on there. "
                                           "'yolostudio attach {run} --machine {name}' follows it again.",
                                           name=self.machine.name, run=self.run))
            self.on_note(tr("The link to {name} dropped; the run goes on there. Reconnecting (from byte {offset}) …",
                            name=self.machine.name, offset=self.offset))
            deadline = time.monotonic() + self.reconnect_delay_s
            while time.monotonic() < deadline and not self.closed:
                time.sleep(min(0.1, self.reconnect_delay_s))
            if self.closed:
                return

    def _read_once(self) -> tuple[int, str]:
        words = remote_words(self.machine, "machine", "events", self.run, "--from", str(self.offset),
                             "--skip", str(self.skip))
        with tempfile.TemporaryFile() as err:
            self.process = process = subprocess.Popen(ssh_argv(self.machine, words), stdin=subprocess.DEVNULL,
                                                      stdout=subprocess.PIPE, stderr=err)
            if self.closed:  # closed while connecting
                process.kill()
            self.connections += 1
            assert process.stdout is not None
            pending = bytearray()
            fd = process.stdout.fileno()
            while True:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    break
                pending.extend(chunk)
                while (newline := pending.find(b"\n")) >= 0:
                    line = bytes(pending[:newline + 1])
                    del pending[:newline + 1]
                    text = line.decode("utf-8", errors="replace")
                    if text.startswith(POSITION):
                        self.offset, self.skip = int(text[len(POSITION):]), 0
                        continue
                    self.skip += 1
                    decoded = parse_line(text)
                    if decoded.event is not None:
                        self.on_event(decoded.event)
            process.stdout.close()
            code = process.wait()
            err.seek(0)
            return code, err.read().decode("utf-8", errors="replace")
