"""A worker job from the launcher's side: the one path every job takes across the process boundary.

Both front ends run every job (train, probe, export, predict and those to come) the same way:

1. ``JobSpec`` — what to run and where its spec file lives; ``write()`` puts the spec there (a run's
   ``spec.json``, or a private temp file in the workspace cache that ``discard()`` removes), and
   ``argv()``/``env()`` are the command that runs it (``core.job.launch``). Pure until ``write()``.
2. ``JobTracker`` — fed every protocol event the launcher sees; keeps what decides the ending (the
   current worker start's ``done`` and its ``error``).
3. ``fold_outcome`` — (``done``, ``error``, exit code, crashed / killed / could not start / timed out) →
   one ``JobOutcome`` with words a user can act on. Every way a job can end without saying so itself has
   exactly one wording here, in ``core.i18n.tr``.

The CLI (``cli/jobs.py``, a subprocess) and the GUI (``gui/job_runner.py``, a QProcess) differ only in
how the process is driven. Control lines to the worker come from ``core.job.protocol.encode_control``.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.atomic import atomic_write_text
from core.i18n import tr
from core.job.launch import worker_argv, worker_env
from core.job.protocol import DONE_STATUSES

#: The spec file a run keeps in its folder (re-written for each worker start: train, resume).
RUN_SPEC_FILE = "spec.json"
#: Jobs whose worker ends with its launcher: the launcher's end (its stdin's EOF) is a stop, and the CLI passes
#: a SIGHUP on as one. A search is not re-attachable (no ``attach`` follows it), and its Ray instance and trials
#: hold GPUs no one would see; a stopped search resumes with ``--resume``. A training is the other way on
#: purpose: a dropped SSH link leaves it training and ``yolostudio attach`` follows it again (README).
ENDS_WITH_LAUNCHER = frozenset({"tune"})
#: The spec key that binds one worker to its launcher whatever its job (a search's trial trainings).
LAUNCHER_BOUND_KEY = "ends_with_launcher"


#: ``error`` kinds that are the worker refusing what it was given, not a failure of the work: a checkpoint it will
#: not unpickle, a model YAML whose strings it will not let yolov5 run. The CLI exits 2 for them, as for its own
#: refusals (``cli.common.exit_code_of``).
REFUSAL_KINDS = frozenset({"untrusted", "model"})


def ends_with_launcher(job: str, spec: dict[str, Any]) -> bool:
    """True when ``job``'s worker must not outlive whoever started it (``ENDS_WITH_LAUNCHER``, or the spec says)."""
    return job in ENDS_WITH_LAUNCHER or bool(spec.get(LAUNCHER_BOUND_KEY))


@dataclass
class JobSpec:
    """One worker job: its name (``core.worker`` JOBS), its spec, and the folder its spec file goes to."""

    job: str
    spec: dict[str, Any]
    folder: Path
    file_name: str | None = None  # fixed name (a run's spec.json); None: a fresh temp file, removed by discard()
    path: Path | None = None  # where write() put it

    @classmethod
    def for_run(cls, job: str, run_dir: Path, spec: dict[str, Any]) -> JobSpec:
        """A job of a run (train, resume): the spec stays in the run folder as ``spec.json``."""
        return cls(job, spec, Path(run_dir), RUN_SPEC_FILE)

    @classmethod
    def scratch(cls, job: str, spec: dict[str, Any], workspace: Path) -> JobSpec:
        """A short job without a run folder (probe, export, predict): a private spec file in the cache.

        Private per start, because the GUI and a terminal may run the same job at the same time."""
        from core.workspace import app_cache_dir

        return cls(job, spec, app_cache_dir(workspace) / "jobs")

    @property
    def run_dir(self) -> Path | None:
        return Path(self.spec["run_dir"]) if self.spec.get("run_dir") else None

    def write(self) -> Path:
        """Write the spec file (atomically for a run's, which outlives the job) and return its path."""
        text = json.dumps(self.spec, indent=2, ensure_ascii=False) + "\n"
        if self.file_name is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.path = self.folder / self.file_name
            atomic_write_text(self.path, text, backup=False)
        else:
            self.path = _private_spec_file(self.folder, self.job, text)
        return self.path

    def argv(self, python: str | None = None) -> list[str]:
        """The worker command; writes the spec first if that has not happened yet."""
        return worker_argv(self.job, self.path or self.write(), python, self.spec.get("topology"))

    def env(self, base: dict[str, str] | None = None) -> dict[str, str]:
        return worker_env(base, self.spec.get("topology"))

    def discard(self) -> None:
        """Remove a temp spec file once the job has ended (a run's spec.json stays)."""
        if self.file_name is None and self.path is not None:
            self.path.unlink(missing_ok=True)


def _private_spec_file(folder: Path, job: str, text: str) -> Path:
    """A fresh spec file in ``folder``, or in the system's temp folder when ``folder`` cannot be written (a
    read-only workspace: ``doctor`` must still run there — it is how a user learns what is wrong)."""
    for where in (folder, Path(tempfile.gettempdir()) / "yolostudio-jobs"):
        try:
            where.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(prefix=f"{job}-", suffix=".json", dir=where)
        except OSError:
            if where != folder:
                raise
            continue
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        return Path(name)
    raise AssertionError("unreachable")  # the last place raises instead of continuing


@dataclass
class JobOutcome:
    """How one worker start ended, in words a user can act on."""

    status: str  # completed | stopped | failed
    message: str = ""
    hint: str = ""
    kind: str = ""
    traceback: str = ""
    done: dict[str, Any] = field(default_factory=dict)
    exit_code: int | None = None
    crashed: bool = False
    timed_out_s: float | None = None  # set when the launcher killed it after that many seconds
    synthetic: bool = False  # the words are this fold's (the worker never said them)
    output_tail: list[str] = field(default_factory=list)  # the last lines it wrote that were not events

    @property
    def failed(self) -> bool:
        return self.status == "failed"

    @property
    def reported(self) -> bool:
        """True when the worker said how it ended (its ``done`` event); False when this fold decided."""
        return bool(self.done)

    def error(self) -> dict[str, Any] | None:
        """``{kind, message, hint}`` of a failure that has words (as an ``error`` event carries them)."""
        if not self.failed or not self.message:
            return None
        return {"kind": self.kind, "message": self.message, "hint": self.hint}


def worker_died_words(exit_code: int | None = None) -> tuple[str, str]:
    """(message, hint) for a worker that ended without its final ``done`` event — the one wording."""
    code = tr("unknown") if exit_code is None else exit_code
    return (tr("The worker process ended without its final report (exit code {code}): it was killed or it "
               "crashed.", code=code),
            tr("Everything saved so far is kept. The last lines of the job's log (worker.log in a run's folder) "
               "may say why; a training run can be resumed from its last checkpoint."))


def fold_outcome(done: dict[str, Any] | None, error: dict[str, Any] | None, *, exit_code: int | None = None,
                 crashed: bool = False, killed: bool = False, start_error: str = "",
                 timed_out_s: float | None = None) -> JobOutcome:
    """What the worker said (its ``done`` and ``error`` events) and how its process ended → one outcome.

    ``exit_code`` is None when unknown (a followed run); ``crashed`` means killed by a signal or died
    abnormally; ``killed`` that this launcher killed it on request; ``timed_out_s`` that it killed it after
    that many seconds; ``start_error`` that the process never started.
    """
    done = dict(done or {})
    error = error or {}
    status = done.get("status") if done.get("status") in DONE_STATUSES else "failed"
    outcome = JobOutcome(status=status, done=done, exit_code=exit_code, crashed=crashed, timed_out_s=timed_out_s,
                         kind=str(error.get("kind") or ""), message=str(error.get("message") or ""),
                         hint=str(error.get("hint") or ""), traceback=str(error.get("traceback") or ""))
    if status != "failed" or outcome.message:
        return outcome
    if start_error:
        outcome.kind = "launch"
        outcome.synthetic = True
        outcome.message = tr("The worker process could not be started: {reason}", reason=start_error)
        outcome.hint = tr("Check that YOLO Studio's Python environment is complete ('yolostudio doctor' or the "
                          "Environment page checks it), then try again.")
    elif timed_out_s is not None:
        outcome.kind = "timeout"
        outcome.synthetic = True
        outcome.message = tr("The worker did not finish within {seconds:g} s and was stopped.", seconds=timed_out_s)
        outcome.hint = tr("Something it waits for (often the GPU driver) hangs; what it reported before is kept.")
    elif killed:
        outcome.kind = "killed"
        outcome.synthetic = True
        outcome.message = tr("The worker process was killed.")
        outcome.hint = tr("Everything saved so far is kept; a training run can be resumed from its last checkpoint.")
    elif crashed or not done:
        outcome.kind = "worker_died"
        outcome.synthetic = True
        outcome.message, outcome.hint = worker_died_words(None if crashed else exit_code)
    return outcome


def is_job_error(event: dict[str, Any]) -> bool:
    """An ``error`` event that is the job's own failure; a per-format export error belongs to that format's
    report. Of a worker start's job errors the first one is its failure (what follows is its consequence)."""
    return event.get("type") == "error" and not event.get("format")


@dataclass
class JobTracker:
    """The ending of one worker start, folded from its events: its ``done`` and the first job error.

    Each worker start (``stage: starting``) begins afresh, so a resumed run never inherits the previous start's
    ending. This is the one ending fold: the launchers feed it, and a run's fold (``core.runs.status``) keeps one
    per worker start."""

    done: dict[str, Any] | None = None
    error: dict[str, Any] | None = None

    def feed(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "stage" and event.get("stage") == "starting":
            self.done, self.error = None, None
        elif kind == "done":
            self.done = event
        elif is_job_error(event) and self.error is None:
            self.error = event

    def outcome(self, **how: Any) -> JobOutcome:
        """``fold_outcome`` of what was seen, with how the process ended (its keyword arguments)."""
        return fold_outcome(self.done, self.error, **how)
