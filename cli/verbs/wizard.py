"""``yolostudio wizard DATA.yaml``: measure this machine and recommend training settings, each with its reason.

Reads the checker's facts (no torch here) and the validator's statistics, runs the ``wizard_measure`` worker
job (about a minute; ``--no-measure`` skips it and marks the measured settings estimated), then prints a table
of setting · value · why · evidence, the predicted images/s and times, and the commands to copy.
``--json`` prints ``{"config", "reasons", "predicted", "commands", …}``; ``yolostudio train --config FILE``
accepts that document as it is. ``--prepare`` writes the prepared copy when the recommendation includes one.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

from cli.common import EXIT_OK, EXIT_STOPPED, EXIT_USAGE, existing_file
from cli.jobs import run_job
from cli.prepared_copy import ensure_copy
from core.dataset.prepare import PrepareCancelled
from cli.registry import Verb, register
from cli.render import Output
from core.atomic import atomic_write_text
from cli.columns import cells, pad
from core.environment.facts import load_facts
from core.i18n import tr
from core.environment.machine import parse_device
from core.run.progress import format_duration
from core.weights.choice import recommend_start
from core.wizard.inputs import GOALS, Goal, Measurements, measurements_from_json
from core.wizard.prepared_copy import request_for
from core.wizard.recommend import recommend
from core.usecases.jobs import WizardMeasureDoor
from core.wizard.session import (MEASURE_TIMEOUT_S, measure_spec, read_inputs, result_document, step_words,
                                 use_prepared)


def parse_duration(text: str) -> float:
    """``90m``, ``2h``, ``1h30m``, ``45s`` or plain seconds -> seconds."""
    if re.fullmatch(r"\d+(\.\d+)?", text.strip()):
        return float(text)
    parts = re.findall(r"(\d+(?:\.\d+)?)\s*([hms])", text.strip().lower())
    if not parts or "".join(n + u for n, u in parts) != re.sub(r"\s+", "", text.strip().lower()):
        raise argparse.ArgumentTypeError(tr("{text} is not a duration like 2h, 90m or 1h30m", text=text))
    return sum(float(n) * {"h": 3600, "m": 60, "s": 1}[u] for n, u in parts)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("data", help=tr("the dataset's data.yaml"))
    p.add_argument("--imgsz", type=int, default=None, help=tr("train at this image size instead of choosing one"))
    p.add_argument("--goal", choices=GOALS, default="balanced", help=tr("quick test, balanced, or best accuracy"))
    p.add_argument("--time-budget", type=parse_duration, default=None, metavar="DURATION",
                   help=tr("the longest the training may take (2h, 90m, 1h30m)"))
    p.add_argument("--device", default=None, help=tr("GPUs to use (0 or 0,1; cpu); default: every GPU"))
    p.add_argument("--no-measure", action="store_true", help=tr("recommend from facts alone (settings estimated)"))
    p.add_argument("--prepare", action="store_true",
                   help=tr("write the prepared copy when the recommendation includes one"))
    p.add_argument("--facts", metavar="FILE", help=tr("another machine's saved facts (yolostudio doctor "
                                                      "--save-facts); implies --no-measure"))
    p.add_argument("--save", metavar="FILE", help=tr("write the result (JSON) to FILE, for yolostudio train --config"))
    p.add_argument("--json", action="store_true", help=tr("print the result as one JSON document"))


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    out = Output(args.json)
    data = existing_file(out, args.data)
    if data is None:
        return EXIT_USAGE
    try:
        gpus = None if args.device in (None, "") else parse_device(args.device) or []
    except ValueError:
        out.error(tr("Device {value!r} is not understood.", value=args.device), tr("Use cpu, 0, or a list like 0,1."))
        return EXIT_USAGE
    facts = None
    if args.facts:
        try:
            facts, problems = load_facts(Path(args.facts))
        except (OSError, ValueError) as exc:
            out.error(str(exc))
            return EXIT_USAGE
        for problem in problems:
            out.warning(problem)
    hw, ds, report = read_inputs(data, workspace, gpus, facts)
    for finding in report.findings:
        if finding.severity == "error":
            out.warning(tr("Dataset: {message}", message=finding.message), tr("yolostudio dataset check {path}",
                                                                              path=data))
    goal = Goal(args.goal, args.time_budget, args.imgsz)
    m = Measurements(failures={"measure": tr("skipped (--no-measure)")}) if args.no_measure or args.facts else None
    stopped = False
    if m is None:
        m, stopped = _measure(out, hw, ds, goal, workspace, show=not args.json)
    rec = recommend(hw, ds, goal, m, lambda model: recommend_start(model, workspace))
    if args.prepare and rec.prepare_imgsz is not None and use_prepared(rec, workspace) is None:
        if not _prepare(out, rec, workspace, str(data.absolute())):
            return EXIT_STOPPED
    use_prepared(rec, workspace)
    doc = result_document(rec, m, workspace, source_data=ds.data_yaml, config_file=args.save)
    if args.save:
        atomic_write_text(Path(args.save), json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    out.result(doc, lambda: result_text(doc))
    return EXIT_STOPPED if stopped else EXIT_OK


def _measure(out: Output, hw: Any, ds: Any, goal: Goal, workspace: Path, *, show: bool) -> tuple[Measurements, bool]:
    final: dict[str, Any] = {}

    def on_event(event: dict[str, Any]) -> None:
        if event.get("type") == "done":
            final.update(event)
        elif event.get("type") == "wizard_step" and show and event.get("status") != "started":
            print(f"[{int(event.get('index', 0)) + 1}/{event.get('count', '?')}] {step_words(event.get('step'))}: "
                  f"{event.get('status')} {event.get('detail', '')}", file=sys.stderr, flush=True)

    if show:
        print(tr("Measuring this machine (about a minute; Ctrl+C stops and recommends with what was measured)…"),
              file=sys.stderr, flush=True)
    outcome = run_job(WizardMeasureDoor(measure_spec(hw, ds, goal, workspace), workspace), on_event,
                     MEASURE_TIMEOUT_S)
    m = measurements_from_json(final.get("measurements") or {})
    if outcome.status == "failed":
        m.failures.setdefault("measure", outcome.message or tr("the measure job failed"))
        out.warning(tr("Measuring failed: {reason}", reason=outcome.message), outcome.hint)
    return m, outcome.status == "stopped"


def _prepare(out: Output, rec: Any, workspace: Path, source: str) -> bool:
    """Make the copy (a dataset that cannot be prepared is said and the originals stay); False when stopped."""
    request = request_for(source, rec.prepare_imgsz)
    try:
        if request is not None:
            ensure_copy(out, request, workspace)
    except PrepareCancelled:
        return False
    return True


def result_text(doc: dict[str, Any]) -> str:
    buf = io.StringIO()
    rows = [(name, str(r["value"]) + (" *" if r["estimated"] else ""), r["why"], r["evidence"])
            for name, r in doc["reasons"].items()]
    width = max(cells(r[0]) for r in rows)
    vwidth = min(28, max(cells(r[1]) for r in rows))
    for name, value, why, evidence in rows:
        print(f"{pad(name, width)}  {pad(value, vwidth)}  {why}", file=buf)
        print(f"{pad('', width)}  {pad('', vwidth)}  ({evidence})", file=buf)
    if doc["estimated"]:
        print(tr("* estimated: not measured here"), file=buf)
    for step, why in doc["failures"].items():
        print(tr("Not measured — {step}: {why}", step=step_words(step), why=why), file=buf)
    p = doc["predicted"]
    print(tr("Predicted: {rate:.0f} images/s, {epoch} per epoch, {total} in all", rate=p["images_per_s"],
             epoch=format_duration(p["epoch_s"]), total=format_duration(p["total_s"])), file=buf)
    if p.get("warmup_s") or p.get("start_s"):  # what the run pays once: in the total above, not in the epoch
        print(tr("Once per run: the first epoch {warmup:.1f} s longer (first steps), {start:.0f} s filling the cache "
                 "before it; {rate:.0f} images/s over the whole run", warmup=p.get("warmup_s") or 0.0,
                 start=p.get("start_s") or 0.0, rate=p.get("run_images_per_s") or 0.0), file=buf)
    if doc.get("hours_note"):
        print(doc["hours_note"], file=buf)
    for name, command in doc["commands"].items():
        for line in command if isinstance(command, list) else [command]:
            print(f"{name}: {line}", file=buf)
    return buf.getvalue().rstrip()


register(Verb("wizard", tr("measure this machine and recommend training settings"), add_arguments, run, order=75))
