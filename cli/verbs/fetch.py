"""``yolostudio fetch RUN --machine NAME``: bring a run trained on a machine back, verified file by file.

Weights, evaluations, exports and the run's records land in ``runs/RUN@NAME`` (``core.remote.fetch``: each file
written only when its bytes hash to what the machine listed). A fetched checkpoint is foreign here until the
provenance check says otherwise: the ones the machine's own check verified, arrived unchanged, are recorded as
this workspace's (``core.usecases.grants.adopt_fetched``); any other is asked about before it is unpickled.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from cli.progress_line import ProgressLine
from cli.registry import Verb, register
from cli.render import Output
from core.export.render import size_text
from core.i18n import tr
from core.remote.fetch import FetchError, fetch_run
from core.remote.machines import MachineError, get_machine, load_machines
from core.usecases.grants import adopt_fetched


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", help=tr("the run's name on the machine"))
    parser.add_argument("--machine", metavar="NAME", default=None,
                        help=tr("the machine the run is on (may be left out when only one is added)"))
    parser.add_argument("--json", action="store_true", help=tr("print the result as one JSON document"))


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    out = Output(args.json)
    try:
        names = list(load_machines(workspace))
        name = args.machine or (names[0] if len(names) == 1 else "")
        if not name:
            out.error(tr("Which machine? Give --machine NAME ('yolostudio machine list' shows them)."))
            return EXIT_USAGE
        machine = get_machine(workspace, name)
    except MachineError as exc:
        out.error(str(exc))
        return EXIT_USAGE
    line = ProgressLine(out.err) if not args.json else None
    try:
        fetched = fetch_run(machine, args.run, workspace, progress=lambda n: line.show(tr(
            "Fetching {run} from {name}: {size} …", run=args.run, name=machine.name, size=size_text(n)))
            if line is not None else None)
    except FetchError as exc:
        out.error(str(exc))
        return EXIT_FAILED
    finally:
        if line is not None:
            line.clear()
    adopted = adopt_fetched(workspace, fetched.vouched)
    foreign = [rel for rel in fetched.received if rel.endswith(".pt") and fetched.folder / rel not in adopted]
    out.result({"machine": machine.name, "run": args.run, "folder": str(fetched.folder),
                "received": fetched.received, "bad": fetched.bad,
                "verified": [str(p.relative_to(fetched.folder)) for p in adopted], "foreign": foreign},
               lambda: "\n".join([tr("{run} from {name}: {n} files in {folder}.", run=args.run, name=machine.name,
                                     n=len(fetched.received), folder=fetched.folder),
                                  *[tr("verified: {file} (the machine's own provenance check, bytes unchanged)",
                                       file=p.relative_to(fetched.folder)) for p in adopted],
                                  *[tr("foreign: {file} (not verified there: you are asked before it is loaded)",
                                       file=rel) for rel in foreign]]))
    if fetched.bad:
        out.error(tr("{n} files changed while they were fetched (first: {file}); fetch again.", n=len(fetched.bad),
                     file=fetched.bad[0]))
        return EXIT_FAILED
    return EXIT_OK


register(Verb("fetch", tr("bring a run back from a machine (weights, evaluations, exports), verified"), add_arguments,
              run, order=45))
