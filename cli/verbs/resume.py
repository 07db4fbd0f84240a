"""``yolostudio resume RUN``: continue a stopped or failed run from its ``weights/last.pt``."""

from __future__ import annotations

import argparse
from pathlib import Path

from cli.common import EXIT_USAGE, exit_code_of, find_run
from cli.jobs import render_job
from cli.registry import Verb, register
from cli.verbs.train import job_renderer
from core.training.distributed import RESUME_CHANGES, launch_problems, resume_commands, resume_with
from core.findings import errors_of
from core.i18n import tr
from core.job.jobs import JobSpec
from core.environment.machine import quick_machine_facts
from core.run.owner import busy_words, lock_owner
from core.run.folder import RunFolder
from core.runs.store import read_run, resume_checkpoint_problem, resume_spec
from core.run.words import UNREADABLE
from core.training.options import TrainConfig, train_options
from core.trust import confirmed_entry, model_needs_trust, model_refusal, needs_trust, refusal


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
    info = read_run(run_dir)
    owner = lock_owner(run_dir)
    if owner is not None:
        renderer.error(*busy_words(run_dir, owner))
        return EXIT_USAGE
    if info.status == UNREADABLE:
        renderer.error(tr("run {name} cannot be read: {reason}", name=info.name,
                          reason=(info.error or {}).get("message", "")), (info.error or {}).get("hint", ""))
        return EXIT_USAGE
    if info.status == "running":
        renderer.error(tr("run {name} is still running; use 'yolostudio attach {name}'.", name=info.name))
        return EXIT_USAGE
    if info.status == "completed":
        renderer.error(tr("run {name} completed; start a new run from its best.pt instead.", name=info.name))
        return EXIT_USAGE
    last = RunFolder(run_dir).last_pt
    problem = resume_checkpoint_problem(run_dir)
    if problem is not None:
        renderer.error(tr("run {name} cannot be resumed: {problem}", name=info.name, problem=problem),
                       tr("Start a new run; to keep what it learned, train from its best.pt if that is whole."))
        return EXIT_USAGE
    confirmed: tuple[str, ...] = ()
    # a run folder from elsewhere: its checkpoint is not the app's own (machine 1+ of a several-machines run has
    # none yet: machine 0 sends its own when the ranks meet, recorded as it arrives)
    if last.exists() and needs_trust(last, workspace):
        if not args.trust_weights:
            renderer.error(refusal(last, workspace))
            return EXIT_USAGE
        confirmed = (confirmed_entry(last.parent),)  # the run's checkpoints (best.pt too), recorded as they load
    spec = resume_spec(run_dir, workspace, trusted_weights=confirmed, trusted_model=args.trust_model)
    model = str((spec.get("resolved") or {}).get("cfg") or "")
    if model and Path(model).is_file() and model_needs_trust(model) and not args.trust_model:
        renderer.error(model_refusal(model))  # the worker refuses the checkpoint's copy of it too; say it now
        return EXIT_USAGE
    spec, problems = resume_with(spec, quick_machine_facts(), {name: getattr(args, name) for name in RESUME_CHANGES})
    problems += launch_problems(TrainConfig.from_dict(spec["config"])) if not errors_of(problems) else []
    for problem in problems:
        (renderer.error if problem.severity == "error" else renderer.warning)(problem.message, problem.fix)
    if errors_of(problems):
        return EXIT_USAGE
    if not args.json:  # the others resume with machine 0's meeting point and run id
        for rank, command in resume_commands(TrainConfig.from_dict(spec["config"]), info.name):
            renderer.note(tr("On machine {rank}, run: {command}", rank=rank, command=command))
    outcome = render_job(renderer, JobSpec.for_run("train", run_dir, spec), forward_stdin=args.json)
    return exit_code_of(outcome)


register(Verb("resume", tr("resume a stopped or failed run from its last checkpoint"), add_arguments, run, order=20))
