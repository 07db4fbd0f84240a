"""``yolostudio train DATA.yaml --machine NAME``, ``attach RUN --machine NAME``: a run on a machine reached by SSH.

The face of ``core.usecases.remote.RemoteTrainDoor``: its pre-flight, then the dataset sent (only what changed,
``core.remote.sync``), the run launched detached there (``machine launch``: it survives the link, this terminal
and the laptop's sleep), and its events followed back into the same progress bar (or ``--json`` stream) as a
local run's (``core.remote.follow``: a dropped link is reconnected from where it stopped reading, each event
shown once). Ctrl+C asks the run to stop there (``yolostudio stop`` on the remote); a second Ctrl+C detaches.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cli.common import EXIT_FAILED, EXIT_OK, EXIT_STOPPED, EXIT_USAGE, exit_code_of
from cli.progress_line import ProgressLine
from cli.render import EventRenderer, shown
from core.export.render import size_text
from core.i18n import tr
from core.remote.follow import RemoteFollowError, RemoteRunStream
from core.remote.machines import Machine
from core.remote.ssh import failure_words, remote_words, run_remote
from core.remote.sync import SyncCancelled, SyncError
from core.training.options import TrainConfig
from core.usecases.door import Door, Followed
from core.usecases.remote import RemoteStartError, RemoteTrainDoor


def run_remote_train(args: argparse.Namespace, workspace: Path, config: TrainConfig, renderer: EventRenderer) -> int:
    door = RemoteTrainDoor(config, args.machine, workspace, trust_weights=args.trust_weights,
                           trust_model=args.trust_model)
    for problem in door.preflight():
        (renderer.error if problem.is_error else renderer.warning)(problem.message, problem.hint)
    if not door.ok or door.machine is None:
        return EXIT_USAGE
    machine = door.machine
    line = ProgressLine()
    try:
        account = door.send(progress=lambda sent, total: line.show(
            tr("Sending the dataset to {name}: {sent} of {total} …", name=machine.name, sent=size_text(sent),
               total=size_text(total))))
    except SyncCancelled:
        return EXIT_STOPPED
    except SyncError as exc:
        renderer.error(str(exc))
        return EXIT_FAILED
    except KeyboardInterrupt:
        renderer.error(tr("Sending cancelled; nothing was started."))
        return EXIT_STOPPED
    finally:
        line.clear()
    renderer.note(tr("Dataset on {name}: {folder} ({sent} of {files} files sent).", name=machine.name,
                     folder=account["folder"], sent=len(account["received"]), files=door.files))
    try:
        door.start_there()
    except RemoteStartError as exc:
        renderer.error(exc.message, exc.hint)
        return EXIT_FAILED
    renderer.note(tr("Run {run} on {name}: it keeps training if this terminal or the link goes. 'yolostudio attach "
                     "{run} --machine {name}' follows it again; 'yolostudio stop {run} --machine {name}' stops it.",
                     run=door.run, name=machine.name))
    return follow_remote(renderer, door, machine, door.run)


def follow_remote(renderer: EventRenderer, door: Door, machine: Machine, run: str) -> int:
    """Show the run's events until it ends; its ending is the door's fold."""
    def show_event(event: dict) -> None:
        door.fold(event)
        renderer.event(event)

    stream = RemoteRunStream(machine, run, show_event, on_note=renderer.note)
    stopping = False
    while True:
        try:
            stream.follow()
            break
        except RemoteFollowError as exc:  # its first line says what; the rest is the remote's own words, as written
            first, *rest = str(exc).splitlines() or [""]
            renderer.error(first)
            for line in rest:
                print(shown(line), file=renderer.err, flush=True)
            return EXIT_FAILED
        except KeyboardInterrupt:
            if stopping:
                renderer.note(tr("Detached; the run keeps going on {name}. 'yolostudio attach {run} --machine {name}' "
                                 "follows it again.", run=run, name=machine.name))
                return EXIT_OK
            stopping = True
            stop_remote(renderer, machine, run)
    outcome = door.result()
    renderer.finish(outcome)
    return exit_code_of(outcome)


def stop_remote(renderer: EventRenderer, machine: Machine, run: str) -> bool:
    result = run_remote(machine, remote_words(machine, "stop", run), timeout_s=60)
    if result.returncode != 0:
        message, hint = failure_words(machine, result) if result.ssh_failed else (
            (result.stderr.strip().splitlines() or [""])[-1], "")
        renderer.error(message, hint)
        return False
    renderer.note(tr("Asked run {run} on {name} to stop; it saves a checkpoint after the current batch (Ctrl+C again "
                     "detaches).", run=run, name=machine.name))
    return True


def attach_remote(renderer: EventRenderer, workspace: Path, machine: Machine, run: str) -> int:
    """Follow a run on ``machine`` from its first event (a replay, then live)."""
    return follow_remote(renderer, Followed(), machine, run)
