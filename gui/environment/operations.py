"""The Environment page's calls into core, one ``CoreOp`` each (``gui.operations``): off the GUI thread.

Saving a report, opening a facts file, keeping the last check's facts for the About box, planning a repair
(it looks at the app's own environment) and the repair dialog's look for runs that use this PyTorch all touch
the disk; the page only starts these and shows what
comes back. The probe itself is a worker job (``gui.job_runner``), not an operation.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QCoreApplication, QObject

from core.atomic import atomic_write_text
from core.environment.facts import EnvironmentFacts, load_facts, save_facts
from core.environment.findings import Evaluation
from core.environment.report import report_dict
from core.install.repair import RepairPlan, plan_repair, runtime_facts
from core.runs.store import list_runs
from core.workspace import last_facts_path
from gui.operations import CoreOp


def _tr(text: str) -> str:
    return QCoreApplication.translate("EnvironmentOperations", text)


def save_report_op(parent: QObject, facts: EnvironmentFacts, evaluation: Evaluation, path: Path) -> CoreOp[Path]:
    """Facts and findings as JSON (home folder shortened to ~), written atomically; a new file each time."""

    def write() -> Path:
        report = report_dict(facts, evaluation, private=True)
        atomic_write_text(path, json.dumps(report, indent=2, ensure_ascii=False) + "\n", backup=False)
        return path

    return CoreOp(parent, write, what=_tr("Saving the environment report"))


def load_facts_op(parent: QObject, path: Path) -> CoreOp[tuple[EnvironmentFacts, list[str]]]:
    """A facts file (or a saved report): its facts and what was wrong with them."""
    return CoreOp(parent, lambda: load_facts(path), what=_tr("Reading the facts file"))


def keep_facts_op(parent: QObject, facts: EnvironmentFacts, workspace: Path) -> CoreOp[None]:
    """The About box shows the versions this check read (the GUI never imports torch to ask)."""
    return CoreOp(parent, lambda: save_facts(facts, last_facts_path(workspace)),
                  what=_tr("Keeping the check's facts"))


def running_runs_op(parent: QObject, workspace: Path, busy_check: Callable[[Path], list[str]]) -> CoreOp[list[str]]:
    """The runs whose worker is alive (they import the PyTorch a repair would replace)."""
    return CoreOp(parent, lambda: busy_check(workspace), what=_tr("Looking for running trainings"))


def running_runs(workspace: Path) -> list[str]:
    """Runs whose worker is alive (they import this PyTorch)."""
    return [run.name for run in list_runs(workspace) if run.status == "running"]


def repair_plan_op(parent: QObject, facts: EnvironmentFacts, finding_ids: list[str]) -> CoreOp[RepairPlan]:
    """``core.install.repair.plan_repair`` for the findings, with the running Python's facts."""
    return CoreOp(parent, lambda: plan_repair(facts, finding_ids, runtime_facts()), what=_tr("Planning the repair"))
