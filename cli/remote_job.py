"""``yolostudio evaluate RUN --machine NAME`` and ``yolostudio export WEIGHTS --machine NAME``: the job on that machine.

The verb runs there, by that machine's own door (its trust, its facts, its datasets: ``yolostudio evaluate|export``
on the remote, started detached by ``core.remote.jobs``), so it survives a dropped link. Attached (the default)
its output is shown here as it comes, a dropped link reconnected from the byte read up to, and when it succeeded
the run it belongs to is fetched back (``core.remote.fetch``: each file verified by hash; a checkpoint the remote's
provenance check vouched for is adopted here, others stay foreign). ``--detach`` starts it and returns; ``yolostudio
fetch RUN --machine NAME`` brings the result back later. Ctrl+C detaches: the job goes on there.

Options naming a file of this machine (``--data``, ``--export-list``) mean nothing there and are refused; so are
``--trust-*``: a grant is given where the file is.
"""

from __future__ import annotations

import argparse
import codecs
import secrets
import sys
from pathlib import Path, PurePosixPath
from typing import Any

from cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from cli.render import Output
from core.i18n import tr
from core.remote.fetch import FetchError, fetch_run
from core.remote.jobs import RemoteJobError, follow_job, start_job
from core.remote.machines import MachineError, get_machine
from core.usecases.grants import adopt_fetched

#: Per verb: options passed on as they are (dest, flag), flags (dest, flag), and the local-file/trust options refused.
FORWARDED: dict[str, tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]] = {
    "evaluate": ((("split", "--split"), ("kfold", "--kfold"), ("kfold_epochs", "--kfold-epochs"),
                  ("imgsz", "--imgsz"), ("conf", "--conf"), ("iou", "--iou"), ("device", "--device")),
                 (("list", "--list"), ("json", "--json")),
                 (("data", "--data"), ("export_list", "--export-list"), ("trust_weights", "--trust-weights"),
                  ("trust_model", "--trust-model"))),
    "export": ((("format", "--format"), ("imgsz", "--imgsz"), ("batch", "--batch"), ("opset", "--opset"),
                ("int8_max_drop", "--int8-max-drop"), ("device", "--device")),
               (("half", "--half"), ("dynamic", "--dynamic"), ("simplify", "--simplify"), ("int8", "--int8"),
                ("json", "--json")),
               (("data", "--data"), ("trust_weights", "--trust-weights"))),
}


def remote_argv(verb: str, target: str, args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """(the verb's words there, the options refused here)."""
    values, flags, refused = FORWARDED[verb]
    words = [verb, target]
    for dest, flag in values:
        value: Any = getattr(args, dest, None)
        for item in value if isinstance(value, list) else [value]:
            if item not in (None, ""):
                words += [flag, str(item)]
    words += [flag for dest, flag in flags if getattr(args, dest, False)]
    return words, [flag for dest, flag in refused if getattr(args, dest, None)]


def run_of_target(verb: str, target: str) -> str:
    """The run a target names there: evaluate's RUN, or the run folder of ``…/runs/RUN/weights/x.pt``."""
    path = PurePosixPath(target)
    if verb == "evaluate" and len(path.parts) == 1 and path.suffix != ".pt":
        return target
    parts = path.parts
    if "weights" in parts and parts.index("weights") > 0:
        return parts[parts.index("weights") - 1]
    return ""


def run_remote_job(verb: str, target: str, args: argparse.Namespace, workspace: Path) -> int:
    out = Output(getattr(args, "json", False))
    try:
        machine = get_machine(workspace, args.machine)
    except MachineError as exc:
        out.error(str(exc))
        return EXIT_USAGE
    words, refused = remote_argv(verb, target, args)
    if refused:
        out.error(tr("{options}: not sent to another machine (a file or a grant of this machine).",
                     options=", ".join(refused)),
                  tr("give them there: a dataset or a list on {name}, 'yolostudio weights import FILE' on {name}",
                     name=machine.name))
        return EXIT_USAGE
    job = f"{verb}-{secrets.token_hex(4)}"
    try:
        start_job(machine, job, words)
    except RemoteJobError as exc:
        out.error(str(exc))
        return EXIT_FAILED
    run = run_of_target(verb, target)
    if args.detach:
        out.note(tr("{verb} of {target} started on {name}; it goes on without this terminal.", verb=verb,
                    target=target, name=machine.name)
                 + (" " + tr("'yolostudio fetch {run} --machine {name}' brings the result back.", run=run,
                             name=machine.name) if run else ""))
        return EXIT_OK
    try:
        shown = codecs.getincrementaldecoder("utf-8")("replace")  # a chunk may end inside a character
        code = follow_job(machine, job, lambda data: _show(shown.decode(data)), on_note=lambda text: out.note(text))
    except RemoteJobError as exc:
        out.error(str(exc))
        return EXIT_FAILED
    except KeyboardInterrupt:
        out.note(tr("Detached; the job goes on on {name}.", name=machine.name))
        return EXIT_OK
    if code == 0 and run and not getattr(args, "list", False):
        return _fetch(out, machine, run, workspace)
    return code


def _show(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def _fetch(out: Output, machine: Any, run: str, workspace: Path) -> int:
    try:
        fetched = fetch_run(machine, run, workspace)
    except FetchError as exc:
        out.error(str(exc), tr("'yolostudio fetch {run} --machine {name}' tries again.", run=run, name=machine.name))
        return EXIT_FAILED
    adopted = adopt_fetched(workspace, fetched.vouched)
    out.note(tr("{run} from {name}: {n} files in {folder} (verified: {verified}).", run=run, name=machine.name,
                n=len(fetched.received), folder=fetched.folder, verified=len(adopted)))
    if fetched.bad:
        out.error(tr("{n} files changed while they were fetched (first: {file}); fetch again.", n=len(fetched.bad),
                     file=fetched.bad[0]))
        return EXIT_FAILED
    return EXIT_OK
