"""``yolostudio runs --machine NAME``: the runs on a machine, listed there (``yolostudio runs --json``) and shown here
in the same table as this machine's, each row with its machine."""

from __future__ import annotations

import argparse
import json
from dataclasses import fields
from pathlib import Path
from typing import Any, Callable

from cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from cli.render import Output
from core.i18n import tr
from core.remote.machines import MachineError, get_machine
from core.remote.ssh import failure_words, remote_words, run_remote
from core.runs.store import RunInfo


def remote_runs(args: argparse.Namespace, workspace: Path, document: Callable[[list[RunInfo]], list[dict[str, Any]]],
                table: Callable[[list[RunInfo], Path], str]) -> int:
    out = Output(args.json)
    try:
        machine = get_machine(workspace, args.machine)
    except MachineError as exc:
        out.error(str(exc))
        return EXIT_USAGE
    listed = run_remote(machine, remote_words(machine, "runs", "--json"), timeout_s=120)
    if listed.returncode != 0:
        message, hint = failure_words(machine, listed) if listed.ssh_failed else (listed.stderr.strip(), "")
        out.error(message, hint)
        return EXIT_FAILED
    known = {f.name for f in fields(RunInfo)}
    try:
        runs = [RunInfo(**{k: v for k, v in row.items() if k in known}) for row in json.loads(listed.stdout)]
    except (ValueError, TypeError, AttributeError) as exc:
        out.error(tr("The run list from {name} is not readable: {reason}", name=machine.name, reason=exc))
        return EXIT_FAILED
    rows = [dict(row, machine=machine.name) for row in document(runs)]
    out.result(rows, lambda: tr("Machine {name} ({dest}):", name=machine.name, dest=machine.ssh) + "\n"
               + table(runs, Path(machine.remote_dir)))
    return EXIT_OK
