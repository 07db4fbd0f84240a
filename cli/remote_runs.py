"""``yolostudio runs --machine NAME``: the runs on a machine, listed there (``yolostudio runs --json``) and shown here
in the same table as this machine's, each row with its machine."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Callable

from cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from cli.render import Output
from core.i18n import tr
from core.remote.machines import MachineError, get_machine
from core.remote.runs import RemoteRunsError, list_remote_runs
from core.runs.store import RunInfo


def remote_runs(args: argparse.Namespace, workspace: Path, document: Callable[[list[RunInfo]], list[dict[str, Any]]],
                table: Callable[[list[RunInfo], Path], str]) -> int:
    out = Output(args.json)
    try:
        machine = get_machine(workspace, args.machine)
    except MachineError as exc:
        out.error(str(exc))
        return EXIT_USAGE
    try:
        runs = list_remote_runs(machine)
    except RemoteRunsError as exc:
        out.error(exc.message, exc.hint)
        return EXIT_FAILED
    rows = [dict(row, machine=machine.name) for row in document(runs)]
    out.result(rows, lambda: tr("Machine {name} ({dest}):", name=machine.name, dest=machine.ssh) + "\n"
               + table(runs, Path(machine.remote_dir)))
    return EXIT_OK
