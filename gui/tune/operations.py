"""The Tune page's calls into core, each one ``CoreOp`` (``gui/operations.py``): off the GUI thread, with the
default failure path unless the page gives its own."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QObject

from core.usecases.tune import TuneDoor
from gui.operations import CoreOp


def _tr(text: str) -> str:
    return QCoreApplication.translate("TuneOperations", text)


@dataclass(frozen=True)
class TuneSetup:
    """What the page shows before a search: whether the extra is there, what is searched, the slots."""

    missing: list[str]
    bounds: list[tuple[str, float, float, bool]]  # name, low, high, log scale
    choices: dict[str, list[Any]]
    slots: int
    space_problem: str  # "" or why yolov5's evolve table could not be read


def read_setup() -> TuneSetup:
    from core.environment.machine import quick_machine_facts
    from core.tune.extra import missing_tune_packages
    from core.tune.plan import search_slots
    from core.tune.space import SpaceError, default_space

    facts = quick_machine_facts()
    slots = search_slots(int(facts.gpu_count or 0), int(facts.cpu_count or 1), "", None, 1.0).count
    try:
        space = default_space()
    except SpaceError as exc:
        return TuneSetup(missing_tune_packages(), [], {}, slots, str(exc))
    bounds = [(b.name, b.low, b.high, b.log) for b in space.bounds]
    return TuneSetup(missing_tune_packages(), bounds, dict(space.choices), slots, "")


def load_setup(parent: QObject, on_done: Callable[[TuneSetup], None]) -> None:
    CoreOp(parent, read_setup, what=_tr("Reading what a search can tune")).success(on_done).run()


def epoch_time(parent: QObject, wizard_doc: Path, on_done: Callable[[float | None], None]) -> None:
    """The wizard document's measured epoch time (None for a plain options file)."""
    from core.tune.budget import wizard_epoch_s

    CoreOp(parent, lambda: wizard_epoch_s(wizard_doc), what=_tr("Reading the wizard document")).success(on_done).run()


def _prepared(door: TuneDoor) -> TuneDoor:
    """The door's pre-flight and, when it passes, its job (the folder made): both off the GUI thread."""
    if door.ok:
        door.spec()
    return door


def plan(parent: QObject, values: dict[str, Any], workspace: Path, budget_s: float, trials: int | None,
         epoch_s: float | None, on_done: Callable[[TuneDoor], None],
         on_failed: Callable[[BaseException], None], resume_dir: Path | None = None) -> None:
    """Check the options and the dataset and plan the search through the door (``core.usecases.tune``: a new
    folder under <workspace>/tune, or the stopped search in ``resume_dir`` continued once its state verifies)."""
    from core.training.options import TrainConfig

    door = TuneDoor(TrainConfig.from_dict(values), workspace, budget_s, trials=trials, epoch_s=epoch_s,
                    resume=resume_dir.name if resume_dir is not None else None)
    CoreOp(parent, lambda: _prepared(door), what=_tr("Checking the search")).success(on_done).failure(on_failed).run()


def best_settings(parent: QObject, config_file: Path, on_done: Callable[[dict[str, Any]], None]) -> None:
    """The best trial's options (``best_config.json``) for the Train form."""
    from core.training.options import load_config_file

    CoreOp(parent, lambda: load_config_file(config_file).to_dict(),
           what=_tr("Reading the best trial's settings")).success(on_done).run()
