"""``yolostudio doctor``: check this machine (or a saved facts file) for what would keep the GPU idle.

The facts are gathered by the ``probe`` worker job (torch is imported there, never here), with progress
on stderr and a hard time limit (a wedged driver gets the probe killed and reported, not a hung
terminal). ``--facts FILE`` judges a saved facts file instead — a colleague's machine, from their
report; ``--save-facts FILE`` writes what was gathered. ``--json`` prints
``{"facts": {...}, "findings": [{"id", "severity", "title", "detail", "evidence", "fix"}], ...}``.
Exit codes: 0 no finding is an error, 1 at least one is, 2 usage error (bad arguments or facts file).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from core.environment.facts import EnvironmentFacts, load_facts, save_facts
from core.environment.probe_launch import (PROBE_TIMEOUT_S, probe_spec, run_probe_process, step_text,
                                           write_probe_spec)
from core.environment.report import render_table, report_dict
from core.environment.rules import RuleContext, evaluate
from core.i18n import tr

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


def register(sub: Any) -> None:
    p = sub.add_parser("doctor", help=tr("check the GPU driver, CUDA, PyTorch, memory and disks; say what to fix"))
    p.add_argument("--json", action="store_true", help=tr("print facts and findings as one JSON document"))
    p.add_argument("--facts", metavar="FILE", help=tr("judge a saved facts file instead of this machine"))
    p.add_argument("--save-facts", metavar="FILE", help=tr("write the gathered facts to FILE"))
    p.add_argument("--data", metavar="DATA.yaml", help=tr("also time the dataset's disk and check RAM for --cache ram"))
    p.add_argument("--imgsz", type=int, default=640, help=tr("image size the checks assume (default 640)"))
    p.add_argument("--batch", type=int, default=16, help=tr("batch size the checks assume (default 16)"))
    p.add_argument("--workers", type=int, default=8, help=tr("data-loader workers the checks assume (default 8)"))
    p.add_argument("--timeout", type=float, default=PROBE_TIMEOUT_S,
                   help=tr("seconds before a hung probe is killed (default {s:.0f})", s=PROBE_TIMEOUT_S))
    p.set_defaults(handler=cmd_doctor)


def _gather(args: argparse.Namespace, workspace: Path) -> tuple[EnvironmentFacts, list[str]]:
    spec_file = write_probe_spec(workspace, probe_spec(workspace, args.data, args.imgsz))
    show = not args.json

    def progress(event: dict[str, Any]) -> None:
        if show and event.get("type") == "probe_step":
            print(f"[{int(event.get('index', 0)) + 1}/{event.get('count', '?')}] {step_text(event.get('step'))}",
                  file=sys.stderr, flush=True)

    try:
        return run_probe_process(spec_file, timeout_s=args.timeout, on_event=progress)
    finally:
        spec_file.unlink(missing_ok=True)


def cmd_doctor(args: argparse.Namespace, workspace: Path) -> int:
    if args.facts and args.data:
        print(tr("error: --data needs this machine's probe; it cannot be combined with --facts."), file=sys.stderr)
        return EXIT_USAGE
    if args.data and not Path(args.data).expanduser().is_file():
        print(tr("error: dataset file not found: {path}", path=args.data), file=sys.stderr)
        return EXIT_USAGE
    if min(args.imgsz, args.batch) < 1 or args.workers < 0 or args.timeout <= 0:
        print(tr("error: --imgsz and --batch must be at least 1, --workers at least 0, --timeout positive."),
              file=sys.stderr)
        return EXIT_USAGE
    if args.facts:
        try:
            facts, notes = load_facts(Path(args.facts).expanduser())
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            print(tr("error: cannot read facts file {path}: {reason}", path=args.facts, reason=reason), file=sys.stderr)
            return EXIT_USAGE
    else:
        facts, notes = _gather(args, workspace)
    if args.save_facts:
        save_facts(facts, Path(args.save_facts).expanduser())
        print(tr("Facts written to {path}", path=args.save_facts), file=sys.stderr)
    evaluation = evaluate(facts, RuleContext(workers=args.workers, batch=args.batch, imgsz=args.imgsz), notes)
    if args.json:
        print(json.dumps(report_dict(facts, evaluation), indent=2, ensure_ascii=False))
    else:
        print(render_table(facts, evaluation))
    return EXIT_ERRORS if evaluation.errors else EXIT_OK
