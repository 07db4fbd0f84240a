"""``yolostudio doctor --repair``: the Environment page's "Repair…" in a terminal.

After the check, when another PyTorch build fixes a finding on this machine (``core.install.repair``),
it prints the build, why, and the exact command, asks before changing anything (``--yes`` for scripts;
with no terminal to ask and no ``--yes`` it refuses), runs the ``repair`` worker job through
``cli.jobs.render_job`` with pip's progress on stderr, then checks the machine again and prints the new
report.
A refusal (system Python, read-only venv, no CUDA build for the driver, a training run alive) is printed
with its reason and the command to run by hand; the exit code is then 1.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from cli.common import EXIT_FAILED, EXIT_OK, EXIT_STOPPED, EXIT_USAGE, ask_yes
from cli.jobs import render_job
from cli.progress_line import ProgressLine
from cli.render import EventRenderer, Output
from cli.columns import clip
from core.environment.facts import EnvironmentFacts
from core.environment.findings import Evaluation
from core.i18n import tr
from core.install.repair import RepairPlan, plan_repair, runtime_facts
from core.job.jobs import JobOutcome
from core.usecases.door import Door
from core.usecases.jobs import RepairDoor
from core.runs.index import RunIndex
from core.workspace import app_cache_dir

#: (the job's door, its renderer) -> how it ended; tests hand in one that swaps pip for a fake.
Runner = Callable[[Door, EventRenderer], JobOutcome]


def run_worker(door: Door, renderer: EventRenderer) -> JobOutcome:
    return render_job(renderer, door)


def running_runs(workspace: Path) -> list[str]:
    return [run.name for run in RunIndex().list_runs(workspace) if run.status == "running"]


def describe(plan: RepairPlan) -> list[str]:
    lines = [tr("Repair: {findings}", findings=", ".join(plan.findings))]
    if plan.choice is not None:
        lines.append(tr("  build    {tag} — {reason}", tag=plan.choice.tag, reason=plan.choice.reason))
    if plan.command:
        lines.append(tr("  command  {command}", command=plan.command))
    return lines


class RepairRenderer(EventRenderer):
    """pip's progress on stderr: one rewritten line on a terminal, a line per file or phase elsewhere."""

    def __init__(self, err: Any) -> None:
        super().__init__(False, err=err)
        self.line = ProgressLine(err)
        self.last = ""

    def text(self, line: str) -> None:
        pass  # pip's full output is in the job's worker.log

    def finish(self, outcome: JobOutcome) -> None:
        """How it ended is said by ``repair`` below, with the log's path."""

    def event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "repair_progress":
            text = str(event.get("text", ""))
            if self.line.tty:
                self.line.show(text)
            elif text != self.last and not (event.get("phase") == "downloading" and text.split(":")[0]
                                           == self.last.split(":")[0]):
                print("  " + text, file=self.err, flush=True)
            self.last = clip(text, 110)
        elif kind == "warning":
            self.end_line()
            print(tr("  note: {text}", text=event.get("message", "")), file=self.err, flush=True)

    def end_line(self) -> None:
        self.line.keep()
        self.last = ""


def repair(facts: EnvironmentFacts, evaluation: Evaluation, workspace: Path, out: Output, *, yes: bool,
           recheck: Callable[[], int], ask: Callable[[str], str] | None = None, stdin_tty: bool | None = None,
           runner: Runner | None = None) -> int:
    """Plan, ask, run, re-check. Returns the verb's exit code."""
    plan = plan_repair(facts, evaluation.ids(), runtime_facts(), busy_runs=running_runs(workspace))
    err = out.err
    if not plan.findings:
        print(tr("Nothing to repair: none of the findings is fixed by another PyTorch build."), file=err)
        return EXIT_FAILED if evaluation.errors else EXIT_OK
    for line in describe(plan):
        print(line, file=err)
    if plan.refusal:
        print(tr("Not repaired: {reason}", reason=plan.refusal), file=err)
        return EXIT_FAILED
    answer = ask_yes(tr("Install it into the app's environment now? [y/N] "), yes=yes, ask=ask, stdin_tty=stdin_tty)
    if answer is None:
        print(tr("Not repaired: add --yes to install without asking."), file=err)
        return EXIT_USAGE
    if not answer:
        print(tr("Nothing was changed."), file=err)
        return EXIT_FAILED if evaluation.errors else EXIT_OK
    job_dir = app_cache_dir(workspace) / "repair" / time.strftime("%Y%m%d-%H%M%S")
    door = RepairDoor(plan.job_spec(str(job_dir)), job_dir)
    renderer = RepairRenderer(err)
    outcome = (runner or run_worker)(door, renderer)
    renderer.end_line()
    if outcome.status == "stopped":
        print(tr("Stopped before anything was replaced; PyTorch is unchanged."), file=err)
        return EXIT_STOPPED
    if outcome.failed:
        reason = "\n".join(part for part in (outcome.message, outcome.hint) if part)
        print(tr("The repair failed: {reason}", reason=reason or tr("see the log")), file=err)
        print(tr("pip's full output: {log}", log=job_dir / "worker.log"), file=err)
        return EXIT_FAILED
    print(tr("PyTorch was replaced. Checking this machine again…"), file=err)
    return recheck()
