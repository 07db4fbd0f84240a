"""One training run as the Train page sees it: a ``JobRunner`` plus the run's progress model.

A session hides whether the run's events come from a worker this window started or from a run it
re-attached to (both through ``gui.job_runner.JobRunner``): either way they feed the same
``core.run.progress.RunProgress`` and end in the same ``core.job.jobs.JobOutcome``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject

from core.remote.machines import Machine
from core.usecases.door import Door
from core.run.progress import RunProgress
from gui.job_runner import JobRunner, Launcher, default_launcher
from gui.remote_follower import RemoteFollower


class RunSession(JobRunner):
    """The active (or last) run of the Train page; ``event`` fires after the progress model saw it."""

    def __init__(self, run_dir: Path, parent: QObject | None = None, *, launcher: Launcher = default_launcher) -> None:
        super().__init__(parent, launcher=launcher)
        self.run_dir = Path(run_dir)
        self.progress = RunProgress()
        self.remote: RemoteFollower | None = None  # a run on another machine: its follower (ssh)

    @property
    def name(self) -> str:
        return self.run_dir.name

    def launch(self, door: Door) -> None:
        """Start the door's worker (a new run, or a resume of this one: events continue the same model)."""
        self.progress.begin_segment()  # a resume must not inherit the last ending
        self.start(door)

    def follow(self, run_dir: Path | None = None) -> None:
        """Re-attach to (or replay) this run from its events file."""
        super().follow(run_dir or self.run_dir)

    def follow_machine(self, machine: Machine, run: str, door: Door | None = None) -> RemoteFollower:
        """Follow run ``run`` on ``machine`` (this session's ``run_dir`` is where ``fetch`` brings it back)."""
        self.remote = RemoteFollower(machine, run, self)
        self.progress.begin_segment()
        super().follow_remote(self.remote, door)
        return self.remote

    @property
    def machine(self) -> str:
        """The machine the run trains on; '' for this one."""
        return self.remote.machine.name if self.remote is not None else ""

    def _on_event(self, event: dict[str, Any]) -> None:
        self.progress.feed(event)
        super()._on_event(event)
