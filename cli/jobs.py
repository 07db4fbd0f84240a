"""``run_job``: the CLI's one way to run a worker job — a plain subprocess, no Qt.

Every verb that needs the worker (train, resume, export, doctor's probe, and those to come) calls
``run_job(door, on_event, timeout_s)`` with the job's door (``core.usecases``) and gets a
``core.job.jobs.JobOutcome`` back — the door's ``result()``: it runs the door's ``spec()``, feeds every event to
``door.fold`` and folds the process's ending there, as the GUI's ``JobRunner`` does (one fold of an ending):

- the worker runs in its own session / process group, so a Ctrl+C or a dropped SSH connection aimed at
  the terminal doesn't reach it; Ctrl+C here sends it the protocol's stop line (it saves and ends with
  ``done: stopped``), a second Ctrl+C kills it; a SIGTERM to this process does the same (``stop_signals``),
  and a SIGHUP too for a job that ends with its launcher (a search; a training keeps going);
- with ``forward_stdin`` (``--json`` mode), control lines written to the CLI's stdin are passed on, so
  a program driving the CLI stops a job the way the GUI does;
- after ``timeout_s`` the worker is killed and the outcome says so (a wedged GPU driver must never
  hang a terminal);
- its stderr (and any non-protocol stdout line) goes to ``on_text`` and the last lines are kept in the
  outcome's ``output_tail``.
Control goes through stdin only (no POSIX signals to the worker), so this runs the same on Windows.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from typing import IO, Any, Callable

from cli.render import EventRenderer
from core.i18n import tr
from core.job.jobs import JobOutcome, JobSpec, ends_with_launcher
from core.job.protocol import LineDecoder, encode_control
from core.usecases.door import Door

TAIL_LINES = 20
#: Once the worker has exited (or closed stdout), how long its pipes may take to deliver their last lines (a
#: crash's own words on stderr); bounded because a process it started may hold them open.
DRAIN_S = 10.0


class _Run:
    """The state of one job while it runs (the signal handler and the threads share it)."""

    def __init__(self, proc: subprocess.Popen[bytes], on_note: Callable[[str], None] | None) -> None:
        self.proc = proc
        self.on_note = on_note
        self.interrupts = 0
        self.killed = False
        self.stdin_lock = threading.Lock()

    def write_control(self, data: bytes) -> bool:
        with self.stdin_lock:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write(data)
                self.proc.stdin.flush()
            except (OSError, ValueError):
                return False
        return True

    def on_sigint(self, signum: int, frame: Any) -> None:
        self.interrupts += 1
        if self.interrupts == 1:
            self._note(tr("Stopping gracefully (a training run saves a checkpoint after the current batch)… "
                          "Ctrl+C again kills the worker."))
            self.write_control(encode_control("stop").encode("utf-8"))
        else:
            self._note(tr("Killing the worker; the last saved checkpoint is kept."))
            self.kill()

    def on_term(self, signum: int, frame: Any) -> None:
        """SIGTERM (and, for a job bound to its launcher, SIGHUP): a stop as the first Ctrl+C, a kill the second
        time — the stop line goes first, since the terminal may already be gone for the note."""
        self.interrupts += 1
        if self.interrupts > 1:
            self.kill()
            return
        self.write_control(encode_control("stop").encode("utf-8"))
        try:
            self._note(tr("Stopping the worker (signal {signal})…", signal=signal.Signals(signum).name))
        except OSError:
            pass  # a hung-up terminal

    def kill(self) -> None:
        self.killed = True
        try:
            self.proc.kill()
        except OSError:
            pass

    def _note(self, text: str) -> None:
        if self.on_note is not None:
            self.on_note(text)


def stop_signals(spec: JobSpec) -> list[signal.Signals]:
    """The signals to this CLI that stop its worker (the worker runs in a session of its own, so they would not
    reach it): SIGTERM for every job — ``kill``, ``timeout`` or a scheduler ending the command ends its work —
    and SIGHUP for a job bound to its launcher (``core.job.jobs.ends_with_launcher``). A training is not bound:
    a dropped SSH link (SIGHUP) leaves it training, and ``yolostudio attach`` follows it again."""
    wanted = [getattr(signal, "SIGTERM", None)]
    if ends_with_launcher(spec.job, spec.spec):
        wanted.append(getattr(signal, "SIGHUP", None))
    return [s for s in wanted if s is not None]


def _popen_isolation() -> dict[str, Any]:
    if os.name == "posix":
        return {"start_new_session": True}
    return {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}  # type: ignore[attr-defined]


def _pump(stream: IO[bytes], out: queue.Queue[tuple[str, bytes | None]], name: str) -> None:
    read = getattr(stream, "read1", stream.read)
    for chunk in iter(lambda: read(65536), b""):
        out.put((name, chunk))
    out.put((name, None))


def _forward_stdin(run: _Run) -> None:
    """Our stdin → the worker's, as it comes; our EOF is not a stop (the worker's stdin stays open)."""
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):
        return
    while run.proc.poll() is None:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            return
        if not chunk or not run.write_control(chunk):
            return


def run_job(door: Door, on_event: Callable[[dict[str, Any]], None], timeout_s: float | None = None, *,
            on_text: Callable[[str], None] | None = None, on_note: Callable[[str], None] | None = None,
            forward_stdin: bool = False, argv: list[str] | None = None) -> JobOutcome:
    """Run ``door``'s job (or ``argv``, for tests) to its end; events go to ``door.fold`` and ``on_event`` as they
    arrive; the outcome is ``door.result()``. ``Refused`` when the door's preflight found an error."""
    spec = door.spec()
    door.begin()
    tail: list[str] = []

    def text(line: str) -> None:
        tail.append(line)
        del tail[:-TAIL_LINES]
        if on_text is not None:
            on_text(line)

    try:
        proc = subprocess.Popen(argv or spec.argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=spec.env(), **_popen_isolation())
    except OSError as exc:
        spec.discard()
        return door.result(start_error=str(exc))
    run = _Run(proc, on_note)
    chunks: queue.Queue[tuple[str, bytes | None]] = queue.Queue()
    assert proc.stdout is not None and proc.stderr is not None
    threading.Thread(target=_pump, args=(proc.stdout, chunks, "out"), name="job-stdout", daemon=True).start()
    threading.Thread(target=_pump, args=(proc.stderr, chunks, "err"), name="job-stderr", daemon=True).start()
    if forward_stdin:
        threading.Thread(target=_forward_stdin, args=(run,), name="job-stdin", daemon=True).start()
    in_main = threading.current_thread() is threading.main_thread()
    previous = {}
    if in_main:
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, run.on_sigint)
        for signum in stop_signals(spec):
            previous[signum] = signal.signal(signum, run.on_term)
    decoders = {"out": LineDecoder(), "err": LineDecoder()}
    open_streams = {"out", "err"}
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    drain: float | None = None
    timed_out = False
    try:
        while open_streams:
            limit = deadline
            if "out" not in open_streams or proc.poll() is not None:
                # The worker is ending: what is left in its pipes gets a bounded wait, because a process it
                # started may have inherited them and keep them open long after it is gone.
                drain = drain or time.monotonic() + DRAIN_S
                limit = drain if limit is None else min(limit, drain)
            wait = 0.5 if limit is None else min(0.5, limit - time.monotonic())
            if wait <= 0:
                if deadline is not None and time.monotonic() >= deadline:
                    timed_out = True
                    run.kill()
                break  # else a grandchild keeps a pipe open: don't hang on it
            try:
                name, chunk = chunks.get(timeout=wait)
            except queue.Empty:
                continue
            decoded = decoders[name].feed(chunk) if chunk is not None else decoders[name].flush()
            if chunk is None:
                open_streams.discard(name)
            for line in decoded:
                if line.event is not None and name == "out":
                    door.fold(line.event)
                    on_event(line.event)
                elif line.event is not None:
                    text(json.dumps(line.event, ensure_ascii=False))  # stderr is never protocol
                elif line.text:
                    text(line.text)
        code = proc.wait()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        spec.discard()
    if timed_out:
        outcome = door.result(exit_code=None, timed_out_s=timeout_s)
    else:
        outcome = door.result(exit_code=code, crashed=code < 0, killed=run.killed)
    outcome.output_tail = tail
    return outcome


def render_job(renderer: EventRenderer, door: Door, *, timeout_s: float | None = None,
               forward_stdin: bool = False) -> JobOutcome:
    """``run_job`` of ``door``'s job shown through a verb's renderer: events, other output, notes, and how it
    ended (the door's result)."""
    outcome = run_job(door, renderer.event, timeout_s, on_text=renderer.text, on_note=renderer.note,
                      forward_stdin=forward_stdin)
    renderer.finish(outcome)
    return outcome
