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


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    out = Output()
    run_dir = find_run(workspace, args.run)
    if read_run(run_dir).status != "running":
        print(tr("Run {name} is not running.", name=run_dir.name), file=out.err)
        return EXIT_USAGE
    request_stop(run_dir)
    out.note(tr("Asked run {name} to stop; it saves a checkpoint after the current batch.", name=run_dir.name))
    return EXIT_OK


register(Verb("stop", tr("ask a running run to stop gracefully"), add_arguments, run, order=40))
