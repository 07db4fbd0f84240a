"""What several verbs share: the exit codes, finding a run (or a model) by its name or path, and asking yes or no.

Exit codes (the same for every verb): 0 completed (or listed), 1 the job failed or found errors,
2 usage or configuration error, 3 stopped.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Callable

from cli.render import Output
from core.i18n import tr
from core.job.jobs import REFUSAL_KINDS, JobOutcome
from core.workspace import runs_dir

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_STOPPED = 0, 1, 2, 3
STATUS_EXIT = {"completed": EXIT_OK, "stopped": EXIT_STOPPED, "failed": EXIT_FAILED}


def exit_code_of(outcome: JobOutcome) -> int:
    """The exit code of a job's outcome; a worker's refusal of its configuration (``REFUSAL_KINDS``: an
    untrusted checkpoint or model) is 2, like the CLI's own refusals."""
    if outcome.status == "failed" and outcome.kind in REFUSAL_KINDS:
        return EXIT_USAGE
    return STATUS_EXIT.get(outcome.status, EXIT_FAILED)


def looks_like_path(text: str) -> bool:
    """A run given as a path (``./g0``, ``/data/runs/exp``, ``~/x``) rather than by its name (``g0``)."""
    return any(sep and sep in text for sep in (os.sep, os.altsep, "/")) or text in (".", "..") or text.startswith("~")


def find_run(workspace: Path, run: str) -> Path:
    """A run folder by its name in the workspace's runs, or by its path when ``run`` looks like one.

    A bare name is only ever the workspace's run: a folder of that name in the current directory is not
    taken for it (``stop g0`` must not write into ``./g0``)."""
    if looks_like_path(run):
        candidate = Path(run).expanduser()
        if candidate.is_dir():
            return candidate.resolve()
        raise FileNotFoundError(tr("No run folder at {path}.", path=candidate))
    named = runs_dir(workspace) / run
    if named.is_dir():
        return named
    raise FileNotFoundError(tr("No run named {run} in {folder}.", run=run, folder=runs_dir(workspace)))


def model_and_run(target: str, workspace: Path, *, folders: bool = False) -> tuple[Path, Path | None]:
    """``RUN|MODEL`` as evaluate and predict take it: (the model file — or, with ``folders``, an OpenVINO export's
    folder —, its run folder or None); a run by name gives its best (else last) weights. Raises
    FileNotFoundError with words: a path with a suffix that does not exist, a run with no weights yet."""
    from core.evaluation.plan import run_of, run_weights

    path = Path(target).expanduser()
    if path.is_file():
        return path.resolve(), run_of(path)
    if folders and path.is_dir() and any(path.glob("*.xml")):
        return path.resolve(), None
    if looks_like_path(target) and path.suffix and not path.is_dir():  # a file named, not a run (exp.2 is one)
        raise FileNotFoundError(tr("{path} does not exist.", path=path))
    run = find_run(workspace, target)
    weights = run_weights(run)
    if weights is None:
        raise FileNotFoundError(tr("Run {run} has no weights yet (weights/best.pt or weights/last.pt).", run=run))
    return weights, run


def existing_file(out: Output, value: str) -> Path | None:
    """``value`` as a file that exists, or None after saying so (the verb then exits with ``EXIT_USAGE``)."""
    path = Path(value).expanduser()
    if path.is_file():
        return path
    out.error(tr("{path} does not exist.", path=path))
    return None


def ask_yes(question: str, *, yes: bool, ask: Callable[[str], str] | None = None,
            stdin_tty: bool | None = None) -> bool | None:
    """The user's answer to a ``[y/N]`` question: True, False — or None when nobody can answer (stdin is
    not a terminal) and ``--yes`` was not given; the verb then says which flag does it."""
    if yes:
        return True
    if not (sys.stdin.isatty() if stdin_tty is None else stdin_tty):
        return None
    try:
        answer = (ask or input)(question)
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")
