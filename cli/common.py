"""What several verbs share: the exit codes, finding a run by its name or folder, and asking yes or no.

Exit codes (the same for every verb): 0 completed (or listed), 1 the job failed or found errors,
2 usage or configuration error, 3 stopped.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

from cli.render import Output
from core.i18n import tr
from core.jobs import JobOutcome
from core.workspace import runs_dir

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_STOPPED = 0, 1, 2, 3
STATUS_EXIT = {"completed": EXIT_OK, "stopped": EXIT_STOPPED, "failed": EXIT_FAILED}


def exit_code_of(outcome: JobOutcome) -> int:
    return STATUS_EXIT.get(outcome.status, EXIT_FAILED)


def find_run(workspace: Path, run: str) -> Path:
    """A run folder given as a path, or by its name in the workspace's runs."""
    candidate = Path(run).expanduser()
    if candidate.is_dir():
        return candidate.resolve()
    named = runs_dir(workspace) / run
    if named.is_dir():
        return named
    raise FileNotFoundError(tr("No run named {run} in {folder}.", run=run, folder=runs_dir(workspace)))


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
