"""``yolostudio attach RUN``: follow a run through its events file until it ends (or replay a finished one).

Ctrl+C only detaches: the run goes on, and ``yolostudio stop RUN`` stops it. A resumed run's events hold
every worker start; the earlier ones are history (one line each: how it ended, where), and only the
newest start is shown as the run's current state.
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
from core.job.jobs import JobTracker
from core.job.protocol import EventFileTail
from core.runs.store import read_run
from core.run.files import EVENTS_FILE
from core.run.words import UNREADABLE, status_word


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", help=tr("run name or folder"))
    parser.add_argument("--json", action="store_true", help=tr("print the event stream as JSON lines"))


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    run_dir = find_run(workspace, args.run)
    renderer = job_renderer(args.json)
    info = read_run(run_dir)
    if info.status == UNREADABLE:  # damaged files: say which and why, instead of following nothing
        renderer.error(tr("run {name} cannot be read: {reason}", name=info.name,
                          reason=(info.error or {}).get("message", "")), (info.error or {}).get("hint", ""))
        return EXIT_USAGE
    tail = EventFileTail(run_dir / EVENTS_FILE)
    tracker = JobTracker()

    def show(events: list[dict[str, Any]]) -> None:
        for event in events:
            tracker.feed(event)
            renderer.event(event)

    events = tail.poll()
    latest = max((i for i, e in enumerate(events) if e.get("type") == "stage" and e.get("stage") == "starting"),
                 default=0)
    for line in history_lines(events[:latest]):
        renderer.note(line)
    show(events[latest:])
    try:
        while True:
            show(tail.poll())
            if read_run(run_dir).status != "running":
                show(tail.poll())
                outcome = tracker.outcome()  # its process is gone: no done means it died without a word
                renderer.finish(outcome)
                return exit_code_of(outcome)
            time.sleep(0.5)
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
