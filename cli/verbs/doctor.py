"""``yolostudio doctor``: check this machine (or a saved facts file) for what would keep the GPU idle.

The facts are gathered by the ``probe`` worker job (torch is imported there, never here), with progress
on stderr and a hard time limit (a wedged driver gets the probe killed and reported, not a hung
terminal). ``--facts FILE`` judges a saved facts file instead — a colleague's machine, from their
report; ``--save-facts FILE`` writes what was gathered. ``--json`` prints
``{"facts": {...}, "findings": [{"id", "severity", "title", "detail", "evidence", "fix"}], ...}``.
``--repair`` then installs the PyTorch build that fixes a wrong-build finding into the app's own
environment, after asking (``--yes`` for scripts), and checks again (``cli/repair.py``).
Exit codes: 0 no finding is an error, 1 at least one is, 2 usage error (bad arguments or facts file).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path
from typing import Any, Callable

from cli.common import EXIT_FAILED as EXIT_ERRORS
from cli.common import EXIT_OK, EXIT_USAGE, existing_file
from cli.jobs import run_job
from cli.registry import Verb, register
from cli.render import Output
from core.environment.facts import EnvironmentFacts, load_facts, save_facts
from core.environment.findings import NOT_CHECKED, Evaluation
from core.environment.probe_launch import PROBE_TIMEOUT_S, ProbeCollector, probe_spec, step_text
from core.usecases.jobs import ProbeDoor
from core.environment.report import report_dict, summarize
from core.environment.rules import RuleContext, evaluate
from core.findings import by_severity
from core.i18n import tr


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help=tr("print facts and findings as one JSON document"))
    p.add_argument("--facts", metavar="FILE", help=tr("judge a saved facts file instead of this machine"))
    p.add_argument("--save-facts", metavar="FILE", help=tr("write the gathered facts to FILE"))
    p.add_argument("--data", metavar="DATA.yaml", help=tr("also time the dataset's disk and check RAM for --cache ram"))
    p.add_argument("--imgsz", type=int, default=640, help=tr("image size the checks assume (default 640)"))
    p.add_argument("--batch", type=int, default=16, help=tr("batch size the checks assume (default 16)"))
    p.add_argument("--workers", type=int, default=8, help=tr("data-loader workers the checks assume (default 8)"))
    p.add_argument("--repair", action="store_true",
                   help=tr("install the PyTorch build this machine needs when the check finds a wrong one (asks first)"))
    p.add_argument("--yes", action="store_true", help=tr("with --repair: do not ask"))
    p.add_argument("--timeout", type=float, default=PROBE_TIMEOUT_S,
                   help=tr("seconds before a hung probe is killed (default {s:.0f})", s=PROBE_TIMEOUT_S))


def gather_facts(workspace: Path, data: str | None = None, imgsz: int = 640, *, timeout_s: float = PROBE_TIMEOUT_S,
                 read_budget_s: float = 2.0, on_event: Callable[[dict[str, Any]], None] | None = None,
                 argv: list[str] | None = None) -> tuple[EnvironmentFacts, list[str]]:
    """Run the probe job (or ``argv``, a stand-in) with a hard time limit; the facts it read, and notes."""
    collector = ProbeCollector()

    def feed(event: dict[str, Any]) -> None:
        collector.feed(event)
        if on_event is not None:
            on_event(event)

    outcome = run_job(ProbeDoor(probe_spec(workspace, data, imgsz, read_budget_s), workspace), feed, timeout_s,
                      argv=argv)
    return collector.result(outcome, detail=outcome.output_tail[-1] if outcome.output_tail else "")


def _gather(args: argparse.Namespace, workspace: Path) -> tuple[EnvironmentFacts, list[str]]:
    show = not args.json

    def progress(event: dict[str, Any]) -> None:
        if show and event.get("type") == "probe_step":
            print(f"[{int(event.get('index', 0)) + 1}/{event.get('count', '?')}] {step_text(event.get('step'))}",
                  file=sys.stderr, flush=True)

    return gather_facts(workspace, args.data, args.imgsz, timeout_s=args.timeout, on_event=progress)


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    out = Output(args.json)
    if args.facts and args.data:
        out.error(tr("--data needs this machine's probe; it cannot be combined with --facts."))
        return EXIT_USAGE
    if args.repair and (args.facts or args.json):
        out.error(tr("--repair changes this machine and talks to a person: it cannot be combined with --facts or "
                     "--json."), tr("run 'yolostudio doctor --repair' (add --yes in scripts; the exit code says how "
                                    "it ended)"))
        return EXIT_USAGE
    if args.data and existing_file(out, args.data) is None:
        return EXIT_USAGE
    if min(args.imgsz, args.batch) < 1 or args.workers < 0 or args.timeout <= 0:
        out.error(tr("--imgsz and --batch must be at least 1, --workers at least 0, --timeout positive."))
        return EXIT_USAGE
    if args.facts:
        try:
            facts, notes = load_facts(Path(args.facts).expanduser())
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            out.error(tr("cannot read facts file {path}: {reason}", path=args.facts, reason=reason))
            return EXIT_USAGE
    else:
        facts, notes = _gather(args, workspace)
    if args.save_facts:
        save_facts(facts, Path(args.save_facts).expanduser())
        print(tr("Facts written to {path}", path=args.save_facts), file=out.err)
    evaluation = evaluate(facts, RuleContext(workers=args.workers, batch=args.batch, imgsz=args.imgsz), notes)
    out.result(report_dict(facts, evaluation), lambda: render_table(facts, evaluation))
    if args.repair:
        from cli.repair import repair  # noqa: PLC0415 - only this path needs it

        again = argparse.Namespace(**dict(vars(args), repair=False, save_facts=None))
        return repair(facts, evaluation, workspace, out, yes=args.yes, recheck=lambda: run(again, workspace))
    return EXIT_ERRORS if evaluation.errors else EXIT_OK


_WORDS = {"error": "ERROR", "warning": "WARN", "info": "INFO", "ok": "OK", NOT_CHECKED: "SKIP", "n/a": "n/a"}


def render_table(facts: EnvironmentFacts, evaluation: Evaluation, width: int = 100) -> str:
    """The human report: one line per check, each finding with its evidence and fix, then the summary."""
    lines: list[str] = []
    for note in evaluation.notes:
        lines.append(tr("note: {text}", text=note))
    by_check = {c.key: c for c in evaluation.checks}
    for finding in by_severity(evaluation.findings):
        lines.append(f"{tr(_WORDS[finding.severity]):<6} {finding.message}  [{finding.code}]")
        for chunk in textwrap.wrap(finding.detail, width - 7):
            lines.append(" " * 7 + chunk)
        for key, value in finding.evidence.items():
            lines.append(" " * 7 + f"{key}: {value}")
        lines.append(" " * 7 + tr("fix: {fix}", fix=finding.fix))
    for check in by_check.values():
        if check.status == "ok":
            lines.append(f"{tr(_WORDS['ok']):<6} " + (tr("{title}: {measured}", title=check.title,
                                                             measured=check.measured) if check.measured else check.title))
        elif check.status == NOT_CHECKED:
            lines.append(f"{tr(_WORDS[check.status]):<6} " + tr("{title}: not checked — {why}", title=check.title,
                                                                why=check.note))
        elif check.status == "n/a":
            lines.append(f"{tr(_WORDS[check.status]):<6} " + tr("{title}: does not apply — {why}", title=check.title,
                                                                why=check.note))
    level, sentence = summarize(facts, evaluation)
    lines.append("")
    lines.append(sentence)
    return "\n".join(lines)


register(Verb("doctor", tr("check the GPU driver, CUDA, PyTorch, memory and disks; say what to fix"), add_arguments,
              run, order=80))
