"""The runs on a machine: ``yolostudio runs --json`` there, read back as this side's ``RunInfo`` (both faces: the
CLI's ``runs --machine NAME`` and the Runs page's "Runs on machines")."""

from __future__ import annotations

import json
from dataclasses import fields

from core.i18n import tr
from core.remote.machines import Machine
from core.remote.ssh import failure_words, remote_words, run_remote
from core.runs.store import RunInfo

LIST_TIMEOUT_S = 120.0


class RemoteRunsError(RuntimeError):
    """The runs there could not be listed; ``message`` and ``hint`` say why."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(" ".join(p for p in (message, hint) if p))
        self.message, self.hint = message, hint


def list_remote_runs(machine: Machine) -> list[RunInfo]:
    listed = run_remote(machine, remote_words(machine, "runs", "--json"), timeout_s=LIST_TIMEOUT_S)
    if listed.returncode != 0:
        raise RemoteRunsError(*(failure_words(machine, listed) if listed.ssh_failed or listed.returncode == 124
                                else ((listed.stderr.strip().splitlines() or [""])[-1], "")))
    known = {f.name for f in fields(RunInfo)}
    try:
        return [RunInfo(**{k: v for k, v in row.items() if k in known}) for row in json.loads(listed.stdout)]
    except (ValueError, TypeError, AttributeError) as exc:
        raise RemoteRunsError(tr("The run list from {name} is not readable: {reason}", name=machine.name,
                                 reason=exc)) from exc
