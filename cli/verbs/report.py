"""``yolostudio report RUN [--out FILE.html] [--lang en|zh_CN] [--target-recall R | --max-false-alarms F]
[--json]``.

The deployment report (``core.report``): one printable HTML page of the run's model, its dataset, the operating
confidence and per-class precision and recall there with bootstrap intervals, false alarms per 100 images,
latency per exported format and INT8's cost — all read from what the run stored (its newest val evaluation,
its export reports); nothing is run. Without an evaluation it says the command that makes one. ``--json``
prints the facts the page was written from, with ``path``. Exit codes: 0 written, 2 usage error or no
evaluation yet.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cli.common import EXIT_OK, EXIT_USAGE, find_run
from cli.registry import Verb, register
from cli.render import Output
from core.evaluation.operating_point import DRAWS
from core.evaluation.stored_result import StoredEvaluationError
from core.i18n import LANGUAGES, language, tr
from core.report.gather import Choice, ReportError, write_report


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("run", metavar="RUN", help=tr("a run of the workspace (its name or folder)"))
    p.add_argument("--out", metavar="FILE.html", default="",
                   help=tr("where to write the page (default: deployment-report.html in the run folder)"))
    p.add_argument("--lang", choices=LANGUAGES, default=None,
                   help=tr("the page's language (default: the app's)"))
    p.add_argument("--target-recall", type=float, default=None, metavar="R",
                   help=tr("operate at the highest confidence that finds at least this share of the objects "
                           "(0–1; default: the best-F1 confidence)"))
    p.add_argument("--max-false-alarms", type=float, default=None, metavar="F",
                   help=tr("operate at the lowest confidence with at most F false alarms per 100 images"))
    p.add_argument("--draws", type=int, default=DRAWS, help=tr("bootstrap resamples of the images (default: {n})",
                                                               n=DRAWS))
    p.add_argument("--json", action="store_true", help=tr("print the report's figures as one JSON document"))


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    out = Output(args.json)
    choice = Choice(args.target_recall, args.max_false_alarms)
    problem = choice.problem() or (tr("--draws {value}: at least 1.", value=args.draws) if args.draws < 1 else None)
    if problem:
        out.error(problem)
        return EXIT_USAGE
    try:
        run_dir = find_run(workspace, args.run)
        lang = args.lang or language()
        path, facts = write_report(run_dir, Path(args.out) if args.out else None, language=lang, choice=choice,
                                   draws=args.draws)
    except FileNotFoundError as missing:
        out.error(str(missing))
        return EXIT_USAGE
    except ReportError as refused:
        out.error(refused.message, refused.hint)
        return EXIT_USAGE
    except StoredEvaluationError as damaged:
        out.error(str(damaged), damaged.hint)
        return EXIT_USAGE
    except OSError as failed:
        out.error(tr("Cannot write {path}: {reason}", path=args.out or run_dir, reason=failed.strerror or failed))
        return EXIT_USAGE
    point, overall = facts["operating_point"], facts["at_confidence"]["overall"]
    fmt = (lambda v: "—" if v is None else f"{v:.3f}")
    out.result({**facts, "path": str(path)},
               tr("Deployment report of run {run} written to {path}\n  at confidence {conf}: precision {p}, recall "
                  "{r}, {fa} false alarms per 100 images", run=run_dir.name, path=path,
                  conf=f"{point['confidence']:.3f}", p=fmt(overall["precision"]["value"]),
                  r=fmt(overall["recall"]["value"]), fa=fmt(overall["false_alarms_per_100"]["value"])))
    return EXIT_OK


register(Verb("report", tr("write a run's deployment report: one printable page of its model, operating confidence, "
                           "per-class precision and recall with intervals, false alarms, latency and INT8 cost"),
              add_arguments, run, order=96))
