"""``yolostudio attach RUN``: follow a run through its events file until it ends (or replay a finished one).

Ctrl+C only detaches: the run goes on, and ``yolostudio stop RUN`` stops it.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from cli.common import EXIT_FAILED, EXIT_OK, STATUS_EXIT, find_run
from cli.registry import Verb, register
from cli.verbs.train import job_renderer
from core.i18n import tr
from core.protocol import EventFileTail
from core.runs import EVENTS_FILE, read_run


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", help=tr("run name or folder"))
    parser.add_argument("--json", action="store_true", help=tr("print the event stream as JSON lines"))


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    run_dir = find_run(workspace, args.run)
    renderer = job_renderer(args.json)
    tail = EventFileTail(run_dir / EVENTS_FILE)
    try:
        while True:
            for event in tail.poll():
                renderer.event(event)
            info = read_run(run_dir)
            if info.status != "running":
                for event in tail.poll():
                    renderer.event(event)
                if info.status == "failed" and (info.error or {}).get("kind") == "worker_died":
                    renderer.died(None)
                return STATUS_EXIT.get(info.status, EXIT_FAILED)
            time.sleep(0.5)
    except KeyboardInterrupt:
        renderer.note(tr("Detached; the run keeps going. 'yolostudio stop {name}' stops it.", name=run_dir.name))
        return EXIT_OK


register(Verb("attach", tr("follow a run's progress (or replay a finished one)"), add_arguments, run, order=30))
