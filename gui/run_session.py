"""One training run as the window sees it: its event source, its progress model, and how it ended.

A session hides whether the run's events come from a worker this window started (``WorkerProcess``)
or from a run it re-attached to (``RunFollower``): both feed the same ``core.progress.RunProgress`` and
end in the same ``RunOutcome``. The outcome is never lost — a worker that dies without its ``done``
event, one that cannot start, and one the user killed all end as a failure with a message and a hint.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal

from core.progress import RunProgress
from core.runs import kill_run
from gui.run_follower import RunFollower
from gui.worker_process import WorkerProcess


def _tr(text: str) -> str:
    return QCoreApplication.translate("RunSession", text)


@dataclass
class RunOutcome:
    """How a worker start ended, in words a user can act on."""

    status: str  # completed | stopped | failed
    message: str = ""
    hint: str = ""
    kind: str = ""
    traceback: str = ""
    done: dict[str, Any] = field(default_factory=dict)
    exit_code: int | None = None
    crashed: bool = False

    @property
    def failed(self) -> bool:
        return self.status == "failed"


def outcome_of(progress: RunProgress, error: dict[str, Any] | None, exit_code: int | None, crashed: bool,
               *, killed: bool = False, start_error: str = "") -> RunOutcome:
    """Fold what the worker said (done / error) and how its process ended into one outcome."""
    done = progress.done or {}
    error = error or {}
    status = done.get("status") if done.get("status") in ("completed", "stopped", "failed") else "failed"
    outcome = RunOutcome(status=status, done=dict(done), exit_code=exit_code, crashed=crashed,
                         kind=str(error.get("kind") or ""), message=str(error.get("message") or ""),
                         hint=str(error.get("hint") or ""), traceback=str(error.get("traceback") or ""))
    if status != "failed" or outcome.message:
        return outcome
    if start_error:
        outcome.kind = "launch"
        outcome.message = _tr("The training process could not be started: {reason}").format(reason=start_error)
        outcome.hint = _tr("Check that YOLO Studio's Python environment is complete (the Environment page will "
                           "check it), then try again.")
    elif killed:
        outcome.kind = "killed"
        outcome.message = _tr("The training process was killed.")
        outcome.hint = _tr("Everything saved so far is kept; resume from the last checkpoint.")
    elif crashed or exit_code in (None, -1) or not done:
        outcome.kind = "worker_died"
        outcome.message = _tr("The training process ended without a word (killed or crashed).")
        if exit_code not in (None, -1, 0) and not crashed:
            outcome.message = _tr("The training process exited with code {code} without finishing.").format(
                code=exit_code)
        outcome.hint = _tr("The last lines of worker.log may say why. Everything saved so far is kept; "
                           "resume from the last checkpoint.")
    return outcome


class RunSession(QObject):
    """The active (or last) run of the Train page."""

    event = Signal(object)  # every protocol event, after the progress model has seen it
    text = Signal(str)  # worker output that is not a protocol event
    ended = Signal(object)  # RunOutcome

    def __init__(self, run_dir: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.run_dir = Path(run_dir)
        self.progress = RunProgress()
        self.outcome: RunOutcome | None = None
        self.followed = False
        self._source: WorkerProcess | RunFollower | None = None
        self._error: dict[str, Any] | None = None
        self._killed = False
        self._stopping = False

    @property
    def name(self) -> str:
        return self.run_dir.name

    @property
    def active(self) -> bool:
        return self._source is not None

    @property
    def stopping(self) -> bool:
        return self._stopping

    # -- starting -----------------------------------------------------------------------------------
    def launch(self, argv: list[str], env: dict[str, str]) -> None:
        """Start a worker (a new run, or a resume of this one: events continue the same model)."""
        self.progress.begin_segment()  # a resume must not inherit the last ending
        worker = WorkerProcess(self)
        worker.text.connect(self.text)
        worker.failed_to_start.connect(self._on_failed_to_start)
        self._begin(worker)
        worker.start(argv, env)

    def follow(self) -> None:
        """Re-attach to (or replay) the run from its events file."""
        follower = RunFollower(self.run_dir, self)
        self.followed = True
        self._begin(follower)
        follower.start()

    def _begin(self, source: WorkerProcess | RunFollower) -> None:
        self._source, self.outcome = source, None
        self._error, self._killed, self._stopping = None, False, False
        source.event.connect(self._on_event)
        source.finished.connect(self._on_finished)

    # -- control ------------------------------------------------------------------------------------
    def stop(self) -> bool:
        """Graceful stop; pressing it again while stopping does nothing. True when a stop was sent."""
        if self._source is None or self._stopping:
            return False
        self._stopping = self._source.send_stop()
        return self._stopping

    def kill(self) -> None:
        """Hard stop: the worker loses the batch in flight; its last checkpoint stays."""
        if isinstance(self._source, WorkerProcess):
            self._killed = True
            self._source.kill()
        elif isinstance(self._source, RunFollower):
            # The follower notices the death within a second and ends the session.
            self._killed = kill_run(self._source.pid, self._source.create_time)

    def detach(self) -> None:
        """Leave the run training in the background; this session stops listening."""
        source, self._source = self._source, None
        if isinstance(source, WorkerProcess):
            source.detach()
        elif isinstance(source, RunFollower):
            source.stop_following()

    # -- events -------------------------------------------------------------------------------------
    def _on_event(self, event: dict[str, Any]) -> None:
        self.progress.feed(event)
        if event.get("type") == "error":
            self._error = event
        elif event.get("type") == "stage" and event.get("stage") == "starting":
            self._error = None
        self.event.emit(event)

    def _on_failed_to_start(self, reason: str) -> None:
        self._finish(outcome_of(self.progress, None, None, False, start_error=reason))

    def _on_finished(self, exit_code: int, crashed: bool) -> None:
        self._finish(outcome_of(self.progress, self._error, exit_code, crashed, killed=self._killed))

    def _finish(self, outcome: RunOutcome) -> None:
        if self._source is None:
            return
        self._source = None
        self._stopping = False
        self.outcome = outcome
        self.ended.emit(outcome)
