"""The shape every job takes through the door: request → ``preflight()`` → problems | ``spec()`` → ``fold(event)``
→ ``result()``.

Why one shape: each face (the CLI's verbs, the GUI's pages) used to write its own copy of a job's flow, and the
copies drifted — a guard (trust, a free port, a changed store file) one face made, the other skipped. A door
object owns the whole flow of one job kind; a face builds the request, renders the problems, and hands the door
itself to its runner (``cli/jobs.py``, ``gui/job_runner.py``), which runs ``spec()``, feeds every event to
``fold`` and shows ``result()`` — so a job's ending is folded once, here, for both faces. ``preflight`` may read
files (a face with a GUI thread calls it in the background); ``spec`` is called only when it found no error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from core.findings import Finding
from core.job.jobs import JobOutcome, JobSpec, JobTracker


@dataclass(frozen=True)
class Problem:
    """Why a job cannot start as asked (``error``) or what the user should know first (``warning``)."""

    message: str
    hint: str = ""
    severity: str = "error"

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def text(self) -> str:
        """Message and way out in one line (a GUI status label)."""
        return " ".join(part for part in (self.message, self.hint) if part)

    @classmethod
    def of(cls, finding: Finding) -> Problem:
        return cls(finding.message, finding.fix, "error" if finding.severity == "error" else "warning")


def errors(problems: Iterable[Problem]) -> list[Problem]:
    return [p for p in problems if p.is_error]


class Refused(Exception):
    """``spec()`` asked of a door whose preflight found errors (a face must render those first)."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(p.text() for p in problems))
        self.problems = problems


class Door:
    """One job kind's flow; subclasses set ``kind`` (a ``core.worker`` JOBS name) and implement ``check`` and
    ``build``. ``preflight`` runs ``check`` once and keeps its problems; ``spec`` refuses while any is an error."""

    kind: str = ""

    def __init__(self) -> None:
        self.problems: list[Problem] | None = None
        self.tracker = JobTracker()
        self.job: JobSpec | None = None

    def check(self) -> list[Problem]:
        return []

    def build(self) -> JobSpec:
        raise NotImplementedError

    def preflight(self) -> list[Problem]:
        if self.problems is None:
            self.problems = list(self.check())
        return self.problems

    @property
    def ok(self) -> bool:
        return not errors(self.preflight())

    def spec(self) -> JobSpec:
        """The worker job to run; the preflight first (once). Raises ``Refused`` on an error."""
        found = errors(self.preflight())
        if found:
            raise Refused(found)
        if self.job is None:
            self.job = self.build()
        return self.job

    def begin(self) -> None:
        """A worker start of this job begins (the runner calls it): the previous start's ending is forgotten."""
        self.tracker = JobTracker()

    def fold(self, event: dict[str, Any]) -> None:
        """Every event the runner sees of this job (its ending is decided by ``core.job.jobs.JobTracker``)."""
        self.tracker.feed(event)

    def result(self, **how: Any) -> JobOutcome:
        """How the job ended, as the face shows it (``how``: the process's ending — exit code, crash, kill,
        timeout, start error — as ``core.job.jobs.fold_outcome`` takes it)."""
        return self.tracker.outcome(**how)


class Followed(Door):
    """A run a face follows but did not start (re-attached, replayed): nothing to spec, only its ending to fold."""
