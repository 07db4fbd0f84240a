"""``yolostudio resume RUN``: continue a stopped or failed run from its ``weights/last.pt``."""

from __future__ import annotations

import argparse
from pathlib import Path

from cli.common import EXIT_USAGE, exit_code_of, find_run
from cli.jobs import render_job
from cli.registry import Verb, register
from cli.verbs.train import job_renderer
from core.training.distributed import RESUME_CHANGES, resume_commands
from core.i18n import tr
from core.training.options import train_options
from core.usecases.train import ResumeDoor


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", help=tr("run name or folder"))
    parser.add_argument("--trust-weights", action="store_true",
                        help=tr("resume a run from outside this workspace's runs (its last.pt is a pickle and can "
                                "run code)"))
    parser.add_argument("--trust-model", action="store_true",
                        help=tr("allow a model definition whose strings yolov5 would run as code (the run was "
                                "started with such a model YAML)"))
    parser.add_argument("--json", action="store_true", help=tr("print the event stream as JSON lines"))
    for opt in train_options():  # where the ranks run may change (core.training.distributed.RESUME_CHANGES), from the table
        if opt.name in RESUME_CHANGES:
            parser.add_argument(*opt.cli_flags, dest=opt.name, default=None,
                                type=int if opt.widget == "int" else str, help=tr(opt.help).replace("%", "%%"))


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    run_dir = find_run(workspace, args.run)
    renderer = job_renderer(args.json)
    door = ResumeDoor(run_dir, workspace, trust_weights=args.trust_weights, trust_model=args.trust_model,
                      changes={name: getattr(args, name) for name in RESUME_CHANGES})
    for problem in door.preflight():
        (renderer.error if problem.is_error else renderer.warning)(problem.message, problem.hint)
    if not door.ok:
        return EXIT_USAGE
    door.spec()  # built before the commands are noted: a failure to build comes first
    if not args.json:  # the others resume with machine 0's meeting point and run id
        for rank, command in resume_commands(door.config, run_dir.name):
            renderer.note(tr("On machine {rank}, run: {command}", rank=rank, command=command))
    outcome = render_job(renderer, door, forward_stdin=args.json)
    return exit_code_of(outcome)


register(Verb("resume", tr("resume a stopped or failed run from its last checkpoint"), add_arguments, run, order=20))
