"""``yolostudio tune DATA.yaml --time-budget 8h``: a hyperparameter search on Ray Tune, trials as ordinary runs.

The options that are not searched are ``yolostudio train``'s flags, checked by the same rules
(``core.training.config.validate_config``) and the same dataset gate; ``--epochs`` is the most a trial may run.
What is searched comes from yolov5's own evolve table (``core.tune.space``) or ``--space FILE``. The checks and
the folder are the door's (``core.usecases.tune.TuneDoor``, the Tune page's too); the search itself is the
``tune`` worker job (``core/worker/tune_job.py``) in the tuning folder ``<workspace>/tune/NAME``;
Ray is an optional extra and is imported only there — this verb only asks whether it is installed.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from cli.common import EXIT_USAGE, exit_code_of
from cli.jobs import render_job
from cli.registry import Verb, register
from cli.render import EventRenderer, JsonEvents, shown_event
from cli.verbs.train import report_gate
from cli.verbs.wizard import parse_duration
from core.i18n import tr, tr_n
from core.training.options import add_train_arguments, config_from_args, load_config_file
from core.tune.budget import wizard_epoch_s
from core.tune.extra import install_words, missing_tune_packages
from core.tune.ray_temp import remove_dead_ray_temps
from core.tune.space import SpaceError, default_space, load_space
from core.usecases.tune import TuneDoor

def add_arguments(p: argparse.ArgumentParser) -> None:
    if missing_tune_packages():
        p.description = install_words()
    add_train_arguments(p)
    p.add_argument("--config", metavar="FILE", default=None,
                   help=tr("start from the options saved in FILE (a wizard document also gives the measured "
                           "epoch time for the trial estimate)"))
    p.add_argument("--time-budget", type=parse_duration, required=True, metavar="DURATION",
                   help=tr("how long the search may run (8h, 90m, 1h30m)"))
    p.add_argument("--trials", type=int, default=None, metavar="N",
                   help=tr("the most trials to run (default: as many as the budget allows)"))
    p.add_argument("--space", default="default", metavar="default|FILE",
                   help=tr("what is searched: yolov5's evolve bounds, or a YAML file of 'name: [low, high]' "
                           "(imgsz, model, batch: lists of values)"))
    p.add_argument("--gpus-per-trial", type=float, default=None, metavar="N",
                   help=tr("GPUs each trial gets (default: 1 on a machine with GPUs, else 0)"))
    p.add_argument("--cpus-per-trial", type=float, default=1.0, metavar="N",
                   help=tr("CPU slots each trial gets (on a machine without GPUs: trials side by side = "
                           "cores / this)"))
    p.add_argument("--ray-address", default=os.environ.get("RAY_ADDRESS", ""), metavar="ADDR",
                   help=tr("an existing Ray cluster (ray start --head …); default: RAY_ADDRESS, else a local "
                           "instance on this machine only"))
    p.add_argument("--resume", metavar="NAME", default=None,
                   help=tr("continue the interrupted search in <workspace>/tune/NAME"))
    p.add_argument("--trust-weights", action="store_true",
                   help=tr("allow loading a .pt from outside your runs (a .pt is a pickle and can run code)"))
    p.add_argument("--json", action="store_true", help=tr("print the event stream as JSON lines"))


class TuneJson(JsonEvents):
    """The event stream; its last line, the search's ``done``, names the best trial ``best`` (docs/protocol.md)."""

    def event(self, ev: dict[str, Any]) -> None:
        if ev["type"] == "done" and "best_trial" in ev:
            ev = dict(ev)
            ev["best"] = ev.pop("best_trial")
        super().event(ev)


class TuneConsole(EventRenderer):
    """One line per trial as it starts, improves and ends; the best at the end."""

    def event(self, ev: dict[str, Any]) -> None:
        ev = shown_event(ev)  # a trial's reason, a run's name: escaped
        if ev["type"] == "trial" and ev["state"] != "running" or ev["type"] == "trial" and ev.get("epochs", 0) == 0:
            fitness = "-" if ev.get("fitness") is None else f"{ev['fitness']:.4f}"
            line = tr_n("trial {trial}: {state}, {n} epoch, fitness {fitness}",
                        "trial {trial}: {state}, {n} epochs, fitness {fitness}", int(ev.get("epochs") or 0),
                        trial=ev["trial"], state=ev["state"], fitness=fitness)
            print(line + (f" ({ev['reason']})" if ev.get("reason") else ""), file=self.out, flush=True)
        elif ev["type"] == "error":
            self.error(ev["message"], ev.get("hint", ""))
        elif ev["type"] == "done" and ev.get("best_trial"):
            best = ev["best_trial"]
            self.note(tr("Best: {run} (fitness {fitness:.4f}). Train with it: yolostudio train --config {file}",
                         run=best["run"], fitness=best["fitness"], file=best["config_file"]))


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    renderer: EventRenderer = TuneJson() if args.json else TuneConsole(False)
    if missing_tune_packages():
        renderer.error(tr("Ray Tune is not installed ({names} missing).", names=", ".join(missing_tune_packages())),
                       install_words())
        return EXIT_USAGE
    try:
        base = load_config_file(Path(args.config)) if args.config else None
        space = default_space() if args.space == "default" else load_space(Path(args.space))
    except (ValueError, SpaceError) as exc:
        renderer.error(str(exc), tr("Correct the file, or leave the option off for the defaults."))
        return EXIT_USAGE
    door = TuneDoor(config_from_args(args, base), workspace, args.time_budget, space=space, trials=args.trials,
                    epoch_s=wizard_epoch_s(Path(args.config)) if args.config else None, ray_address=args.ray_address,
                    gpus_per_trial=args.gpus_per_trial, cpus_per_trial=args.cpus_per_trial, resume=args.resume,
                    trust_weights=args.trust_weights)
    for problem in door.preflight():
        if door.gate is not None and problem.is_error:
            continue  # the dataset gate's findings: listed whole below
        (renderer.error if problem.is_error else renderer.warning)(problem.message, problem.hint)
    if door.gate is not None:
        report_gate(renderer, door.gate, args.data)
    if not door.ok:
        return EXIT_USAGE
    door.spec()  # the search folder is made here: named before the job starts
    tune_dir, slots = door.tune_dir, door.slots
    if not args.json:
        renderer.note(tr("Search {name}: {path}; searching {names}; {slots} trials side by side.",
                         name=tune_dir.name, path=tune_dir, names=", ".join(space.names()), slots=slots.count))
    outcome = render_job(renderer, door, forward_stdin=args.json)
    remove_dead_ray_temps()  # a worker that was killed leaves its local Ray's session folder: it goes now
    return exit_code_of(outcome)


register(Verb("tune", tr("search for better hyperparameters on Ray Tune (an optional extra)"), add_arguments, run,
              order=15))
