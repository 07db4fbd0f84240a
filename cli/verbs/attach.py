"""``yolostudio attach RUN``: follow a run through its events file until it ends (or replay a finished one).

Ctrl+C only detaches: the run goes on, and ``yolostudio stop RUN`` stops it. A resumed run's events hold
every worker start; the earlier ones are history (one line each: how it ended, where), and only the
newest start is shown as the run's current state. The run is followed through ``core.runs.follow.RunFollow``:
its events file is read once, then only what is appended, and its status is the one fold's with the one
liveness probe (an idle run costs a lock test and an empty read per tick).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from cli.common import EXIT_OK, EXIT_USAGE, exit_code_of, find_run
from cli.registry import Verb, register
from cli.verbs.train import job_renderer
from core.i18n import tr
from core.run.files import EVENTS_FILE, UnreadableRun
from core.run.words import UNREADABLE, status_word
from core.runs.follow import RunFollow
from core.runs.store import read_run, unreadable_run

#: How often a followed run's events file and worker are looked at.
POLL_S = 0.5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", help=tr("run name or folder"))
    parser.add_argument("--json", action="store_true", help=tr("print the event stream as JSON lines"))
    parser.add_argument("--machine", metavar="NAME", default=None, help=tr("the run is on this machine (SSH)"))


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    renderer = job_renderer(args.json)
    if args.machine:
        from cli.remote_train import attach_remote  # noqa: PLC0415 - only this path needs ssh
        from core.remote.machines import get_machine  # noqa: PLC0415

        from core.remote.machines import MachineError  # noqa: PLC0415

        try:
            machine = get_machine(workspace, args.machine)
        except MachineError as exc:
            renderer.error(str(exc))
            return EXIT_USAGE
        return attach_remote(renderer, workspace, machine, args.run)
    run_dir = find_run(workspace, args.run)
    follow = RunFollow(run_dir)
    try:
        events = follow.read_to_end()
        info = read_run(run_dir, summary=follow.summary)
    except UnreadableRun as exc:
        info = unreadable_run(run_dir, str(exc))
    except OSError as exc:
        info = unreadable_run(run_dir, tr("{file} cannot be read: {reason}", file=EVENTS_FILE,
                                          reason=exc.strerror or exc))
    if info.status == UNREADABLE:  # damaged files: say which and why, instead of following nothing
        renderer.error(tr("run {name} cannot be read: {reason}", name=info.name,
                          reason=(info.error or {}).get("message", "")), (info.error or {}).get("hint", ""))
        return EXIT_USAGE

    def show(events: list[dict[str, Any]]) -> None:
        for event in events:
            renderer.event(event)

    latest = max((i for i, e in enumerate(events) if e.get("type") == "stage" and e.get("stage") == "starting"),
                 default=0)
    for line in history_lines(events[:latest]):
        renderer.note(line)
    show(events[latest:])
    try:
        while True:
            show(follow.read_to_end())
            if follow.status() != "running":
                show(follow.read_to_end())
                # The current worker start's ending (the fold's): no done means it died without a word.
                outcome = follow.summary.segment.outcome()
                renderer.finish(outcome)
                return exit_code_of(outcome)
            time.sleep(POLL_S)
    except UnreadableRun as exc:  # its events file was replaced by something else while followed
        renderer.error(tr("run {name} cannot be read: {reason}", name=run_dir.name, reason=str(exc)), "")
        return EXIT_USAGE
    except KeyboardInterrupt:
        renderer.note(tr("Detached; the run keeps going. 'yolostudio stop {name}' stops it.", name=run_dir.name))
        return EXIT_OK


def history_lines(events: list[dict[str, Any]]) -> list[str]:
    """One line per earlier worker start that ended: how, when in the run, and that the run went on."""
    lines, epoch = [], None
    for event in events:
        if event.get("type") in ("epoch_start", "batch", "epoch_end"):
            epoch = event.get("epoch", epoch)
        if event.get("type") == "done":
            where = tr(" in epoch {epoch}", epoch=int(epoch) + 1) if isinstance(epoch, int) else ""
            lines.append(tr("Earlier: the run {status}{where} after {elapsed} s, then was resumed.",
                            status=status_word(str(event.get("status", "failed"))), where=where,
                            elapsed=f"{float(event.get('elapsed_s') or 0):.0f}"))
    return lines


register(Verb("attach", tr("follow a run's progress (or replay a finished one)"), add_arguments, run, order=30))
