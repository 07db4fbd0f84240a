"""The one way every page runs a worker job — or follows one it did not start — and learns how it ended.

``JobRunner.start(door)`` takes the job's door (``core.usecases``), writes its ``spec()`` and starts the worker
through the injectable launcher (``(JobSpec) -> (argv, env)``; tests hand in one that replays recorded events) on
a ``WorkerProcess`` (QProcess). ``follow(run_dir)`` re-attaches to a run that trains without this window, or
replays a finished one, through ``RunFollower`` (the run's events file; its door: ``Followed``);
``follow_remote(follower, door)`` follows a run on another machine through ``RemoteFollower`` (ssh, reconnecting
after a dropped link), its door the one that started it there (``core.usecases.remote``). Either way every
event goes to ``door.fold`` and the page gets the same ``event`` / ``text`` signals and exactly one
``ended(JobOutcome)``: the door's ``result()`` of what the worker said and how its process ended — also when it
could not start, died without a word, was killed, or ran past ``timeout_s`` (then it is killed); the CLI's
``cli.jobs.run_job`` ends the same way. A temp spec file is removed when the job ends.
Control: ``stop()`` (the protocol's stop line, or the run's control file when following), ``kill()``,
``detach()`` (leave it running in the background when the window closes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QObject, QTimer, Signal

from core.job.jobs import JobOutcome, JobSpec
from core.runs.store import kill_run
from core.usecases.door import Door, Followed
from gui.remote_follower import RemoteFollower
from gui.run_follower import RunFollower
from gui.worker_process import WorkerProcess

#: (the job, its spec file written) -> (argv, environment) of the worker process.
Launcher = Callable[[JobSpec], tuple[list[str], dict[str, str]]]


def default_launcher(job: JobSpec) -> tuple[list[str], dict[str, str]]:
    return job.argv(), job.env()


class JobRunner(QObject):
    event = Signal(object)  # every protocol event (dict)
    text = Signal(str)  # worker output that is not a protocol event
    ended = Signal(object)  # JobOutcome, exactly once per start()/follow()

    def __init__(self, parent: QObject | None = None, *, launcher: Launcher = default_launcher,
                 timeout_s: float | None = None) -> None:
        super().__init__(parent)
        self.launcher = launcher
        self.timeout_s = timeout_s
        self.door: Door = Followed()
        self.job: JobSpec | None = None
        self.outcome: JobOutcome | None = None
        self.followed = False
        self._source: WorkerProcess | RunFollower | RemoteFollower | None = None
        self._killed = False
        self._timed_out = False
        self._stopping = False
        self._timer = QTimer(self, singleShot=True, timeout=self._on_timeout)

    # -- state --------------------------------------------------------------------------------------
    @property
    def active(self) -> bool:
        return self._source is not None

    @property
    def stopping(self) -> bool:
        return self._stopping

    # -- starting -----------------------------------------------------------------------------------
    def start(self, door: Door) -> None:
        """Write the door's job spec (unless the caller did) and start its worker; OSError when it cannot be
        written, ``core.usecases.door.Refused`` when the door's preflight found an error."""
        if self.active:
            raise RuntimeError("this runner's job is still running")
        job = door.spec()
        if job.path is None:
            job.write()
        argv, env = self.launcher(job)
        self.job, self.door = job, door
        worker = WorkerProcess(self)
        worker.text.connect(self.text)
        worker.failed_to_start.connect(self._on_failed_to_start)
        self._begin(worker)
        if self.timeout_s is not None:
            self._timer.start(int(self.timeout_s * 1000))
        worker.start(argv, env)

    def follow(self, run_dir: Path) -> None:
        """Re-attach to (or replay) a run from its events file."""
        follower = RunFollower(run_dir, self)
        self.followed = True
        self.door = Followed()
        self._begin(follower)
        follower.start()

    def follow_remote(self, follower: RemoteFollower, door: Door | None = None) -> None:
        """Follow a run on another machine (``RemoteFollower``); ``door`` folds its events (the one that started it
        there, or ``Followed`` for a run re-attached to)."""
        self.followed = True
        self.door = door if door is not None else Followed()
        self._begin(follower)
        follower.start()

    def _begin(self, source: WorkerProcess | RunFollower | RemoteFollower) -> None:
        self._source, self.outcome = source, None
        self.door.begin()
        self._killed = self._timed_out = self._stopping = False
        source.event.connect(self._on_event)
        source.finished.connect(self._on_finished)

    # -- control ------------------------------------------------------------------------------------
    def stop(self) -> bool:
        """Graceful stop; asking again while stopping does nothing. True when a stop was sent."""
        if self._source is None or self._stopping:
            return False
        self._stopping = self._source.send_stop()
        return self._stopping

    def stop_refused(self) -> None:
        """The stop did not reach the run (a remote one, the link down): Stop may be asked again."""
        self._stopping = False

    def kill(self) -> None:
        """Hard stop: the worker loses the step in flight; what it saved stays."""
        if isinstance(self._source, WorkerProcess):
            self._killed = True
            self._source.kill()
        elif isinstance(self._source, RemoteFollower):
            self._stopping = self._source.send_stop()  # no kill over ssh: the run there stops at its next batch
        elif isinstance(self._source, RunFollower):
            # The follower notices the death within a second and ends the job.
            self._killed = kill_run(self._source.pid, self._source.create_time)

    def detach(self) -> None:
        """Leave the job running in the background; this runner stops listening (no ``ended``)."""
        source, self._source = self._source, None
        self._timer.stop()
        if isinstance(source, WorkerProcess):
            source.detach()
        elif isinstance(source, (RunFollower, RemoteFollower)):
            source.stop_following()

    # -- what happens -------------------------------------------------------------------------------
    def _on_event(self, event: dict[str, Any]) -> None:
        self.door.fold(event)
        self.event.emit(event)

    def _on_timeout(self) -> None:
        if isinstance(self._source, WorkerProcess) and self._source.running:
            self._timed_out = True
            self._source.kill()

    def _on_failed_to_start(self, reason: str) -> None:
        self._finish(self.door.result(start_error=reason))

    def _on_finished(self, exit_code: int, crashed: bool) -> None:
        followed = isinstance(self._source, (RunFollower, RemoteFollower))
        timed_out = self.timeout_s if self._timed_out else None
        self._finish(self.door.result(exit_code=None if followed or timed_out else exit_code, crashed=crashed,
                                           killed=self._killed, timed_out_s=timed_out))

    def _finish(self, outcome: JobOutcome) -> None:
        if self._source is None:
            return
        self._source = None
        self._stopping = False
        self._timer.stop()
        if self.job is not None:
            self.job.discard()
        self.outcome = outcome
        self.ended.emit(outcome)
