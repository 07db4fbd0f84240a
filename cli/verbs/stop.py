"""``yolostudio stop RUN``: ask a running run to stop gracefully (through its control file)."""

from __future__ import annotations

import argparse
from pathlib import Path

from cli.common import EXIT_OK, EXIT_USAGE, find_run
from cli.registry import Verb, register
from cli.render import Output
from core.i18n import tr
from core.runs.store import read_run, request_stop


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", help=tr("run name or folder"))
    parser.add_argument("--machine", metavar="NAME", default=None, help=tr("the run is on this machine (SSH)"))


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    out = Output()
    if args.machine:
        from cli.remote_train import stop_remote  # noqa: PLC0415 - only this path needs ssh
        from cli.render import EventRenderer  # noqa: PLC0415
        from core.remote.machines import get_machine  # noqa: PLC0415

        from core.remote.machines import MachineError  # noqa: PLC0415

        try:
            machine = get_machine(workspace, args.machine)
        except MachineError as exc:
            out.error(str(exc))
            return EXIT_USAGE
        return EXIT_OK if stop_remote(EventRenderer(), machine, args.run) else EXIT_USAGE
    run_dir = find_run(workspace, args.run)
    if read_run(run_dir).status != "running":
        print(tr("Run {name} is not running.", name=run_dir.name), file=out.err)
        return EXIT_USAGE
    request_stop(run_dir)
    out.note(tr("Asked run {name} to stop; it saves a checkpoint after the current batch.", name=run_dir.name))
    return EXIT_OK


register(Verb("stop", tr("ask a running run to stop gracefully"), add_arguments, run, order=40))
