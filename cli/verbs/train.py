"""``yolostudio train DATA.yaml [options]``: check the options, create the run, train it in a worker.

Options are checked with the same rules as the Train page (``core.training.config.validate_config``) on
this machine's facts (``--model yolov5s.pt`` is the weights store's file: never a download), then the
dataset the way the Train page checks it before Start (``core.dataset.training_gate``: errors that abort
training or make yolov5 drop images exit 2 within seconds, each with its file:line, before any run folder
exists; ``--no-check`` skips it knowingly). A wizard document whose recommendation is a prepared copy
(``--config wizard.json``) trains on that copy, made or refreshed first (``cli.prepared_copy``). The pre-flight,
the run folder and its spec come from the door (``core.usecases.train.TrainDoor``). ``--from RUN`` fine-tunes
from RUN's best.pt with its options on its dataset as it is now (``core.runs.fine_tune``; flags given override
them); the new run records its parent, and its dataset version says what changed since. The progress bar
(or, with ``--json``, the event stream) follows the worker until it ends.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from cli.common import EXIT_STOPPED, EXIT_USAGE, exit_code_of, find_run
from cli.prepared_copy import ensure_copy
from cli.jobs import render_job
from cli.registry import Verb, register
from cli.render import EventRenderer, JsonEvents
from cli.train_render import ConsoleRenderer
from core.dataset.prepare import PrepareCancelled
from core.dataset.scan import ScanCancelled
from core.dataset.training_gate import DatasetGate, check_for_training
from core.training.distributed import ENDPOINT_FIELDS, other_node_commands, unconfirmed_endpoints
from core.i18n import tr, tr_n
from core.environment.machine import quick_machine_facts
from core.training.config import validate_config
from core.training.defaults import dataset_defaults
from core.training.options import add_train_arguments, config_from_args, load_config_file, read_config_document
from core.run.folder import RunFolder
from core.runs.fine_tune import FromRunError, fine_tune_config
from core.wizard.prepared_copy import request_of
from core.usecases.train import TrainDoor


def add_arguments(train: argparse.ArgumentParser) -> None:
    add_train_arguments(train)  # every training option, from its one description (core.training.options)
    train.add_argument("--config", metavar="FILE", default=None,
                       help=tr("start from the options saved in FILE (JSON or YAML, e.g. from yolostudio wizard "
                               "--json); options given on the command line override it"))
    train.add_argument("--from", dest="from_run", metavar="RUN", default=None,
                       help=tr("fine-tune from RUN's best weights with its settings, on its dataset as it is now "
                               "(options given here override them)"))
    train.add_argument("--trust-weights", action="store_true",
                       help=tr("allow loading a .pt from outside your runs (a .pt is a pickle and can run code)"))
    train.add_argument("--trust-model", action="store_true",
                       help=tr("allow a model YAML whose strings yolov5 would run as code (anything beyond its "
                               "layers, torch activations and literals)"))
    train.add_argument("--no-check", action="store_true",
                       help=tr("skip the dataset check before training (yolov5 may then stop on a broken dataset "
                               "or train without the images it cannot read)"))
    train.add_argument("--json", action="store_true", help=tr("print the event stream as JSON lines"))
    train.add_argument("--machine", metavar="NAME", default=None,
                       help=tr("train on a machine added with 'yolostudio machine add' (the dataset is sent there; "
                               "the run keeps going if the link drops)"))

SHOWN_FINDINGS = 20


def report_gate(renderer: EventRenderer, gate: DatasetGate, data: str) -> None:
    """Each error that stops the start with its file:line (the first ``SHOWN_FINDINGS``), then the way out."""
    for found in gate.blockers[:SHOWN_FINDINGS]:
        renderer.error(f"{found.where}: {found.message}")
    more = len(gate.blockers) - SHOWN_FINDINGS
    if more > 0:
        renderer.error(tr("… and {n} more.", n=more))
    if gate.aborts:
        summary = tr_n("The dataset has {n} error that would stop training; nothing was started.",
                       "The dataset has {n} errors that would stop training; nothing was started.",
                       len(gate.blockers))
    else:
        summary = tr_n("yolov5 would train without {n} image it cannot read; nothing was started.",
                       "yolov5 would train without {n} images it cannot read; nothing was started.",
                       len(gate.drops))
    renderer.error(summary, tr("Fix them (yolostudio dataset check {data} lists them all; the Dataset page has "
                               "one-click fixes), or pass --no-check to train anyway.", data=data))


def job_renderer(json_mode: bool) -> EventRenderer:
    """How a training worker is shown: the event stream with ``--json``, else the progress bar."""
    return JsonEvents() if json_mode else ConsoleRenderer(sys.stdout)


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    renderer = job_renderer(args.json)
    if args.from_run and args.config:
        renderer.error(tr("Give --from or --config, not both."))
        return EXIT_USAGE
    parent: Path | None = None
    try:
        if args.from_run:  # a fine-tune: the run's options from its best.pt (core.runs.fine_tune)
            parent = find_run(workspace, args.from_run)
            base, document, copy = fine_tune_config(parent), None, None
        else:
            base = load_config_file(Path(args.config)) if args.config else None
            document = read_config_document(Path(args.config)) if args.config else None  # the wizard's, perhaps
            copy = request_of(document, args.config) if args.config else None  # the wizard's prepared copy
    except FileNotFoundError as exc:
        renderer.error(str(exc), tr("List the runs with 'yolostudio runs'."))
        return EXIT_USAGE
    except FromRunError as exc:
        renderer.error(exc.message, exc.hint)
        return EXIT_USAGE
    except ValueError as exc:
        renderer.error(str(exc), tr("Save the options again from the wizard or the Train page."))
        return EXIT_USAGE
    if base is not None and copy is not None:
        if args.data and not copy.concerns(args.data, workspace):
            renderer.note(tr("Training on {data} as given: the prepared copy {config} asks for is of {source}.",
                             data=args.data, config=args.config, source=copy.source))
        else:
            try:
                made = ensure_copy(renderer, copy, workspace)
            except PrepareCancelled:
                return EXIT_STOPPED
            if made is None:
                return EXIT_USAGE
            base = replace(base, data=str(made.data_yaml))
            if isinstance(document, dict) and isinstance(document.get("config"), dict):  # predicted for the copy
                document = {**document, "config": {**document["config"], "data": base.data}}
            args.data = None  # the copy is the dataset (a DATA naming the source or the copy itself means it)
    typed = {name for name in ENDPOINT_FIELDS if getattr(args, name, None) not in (None, "")}
    source = str(RunFolder(parent).config) if parent is not None else str(args.config)
    refused = unconfirmed_endpoints(base, typed, source)  # a file never picks where this machine connects
    for problem in refused:
        renderer.error(problem.message, problem.fix)
    if refused:
        return EXIT_USAGE
    # With no --config, the options left off take the dataset's defaults (the demo's own size and epochs), the
    # table the Train page uses too: the same inputs start the same run from either face.
    defaults = dataset_defaults(args.data, workspace) if base is None else None
    if args.machine:  # checked there, on that machine's facts, by its own door (cli.remote_train)
        from cli.remote_train import run_remote_train  # noqa: PLC0415 - only this path needs ssh

        return run_remote_train(args, workspace, config_from_args(args, base, defaults), renderer)
    checked = validate_config(config_from_args(args, base, defaults), quick_machine_facts(), workspace)
    # the door's pre-flight: the option rules' findings, what only this machine can tell just before its share
    # starts (ports, the rendezvous), a changed weights-store file, trust (core.usecases.train)
    door = TrainDoor(checked, workspace, trust_weights=args.trust_weights, trust_model=args.trust_model,
                     wizard=document if isinstance(document, dict) else None,  # predicted vs measured
                     from_run=parent)
    for problem in door.preflight():
        (renderer.error if problem.is_error else renderer.warning)(problem.message, problem.hint)
    if not door.ok:
        return EXIT_USAGE
    if not args.no_check and checked.data_path is not None:
        try:
            gate = check_for_training(checked.data_path, workspace)
        except (ScanCancelled, KeyboardInterrupt):
            renderer.error(tr("Dataset check cancelled; nothing was started."))
            return EXIT_USAGE
        if not gate.ok:
            report_gate(renderer, gate, args.data or checked.config.data)
            return EXIT_USAGE
    door.spec()  # the run folder is made here: named before the job starts
    run_dir = door.run_dir
    if not args.json:
        renderer.note(tr("Run {name}: {path}", name=run_dir.name, path=run_dir))
        for rank, command in other_node_commands(checked.config):
            renderer.note(tr("On machine {rank}, run: {command}", rank=rank, command=command))
    outcome = render_job(renderer, door, forward_stdin=args.json)
    return exit_code_of(outcome)


register(Verb("train", tr("train a model (runs in a worker process)"), add_arguments, run, order=10))
