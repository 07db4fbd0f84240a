"""Every way the Wizard page reaches core, one ``CoreOp`` each (``gui/operations.py``): off the GUI thread, with
the default failure path unless the page shows the words itself.

- ``read_machine``: the checker's system and NVML facts (``core.wizard.session.quick_facts``: no torch);
- ``read_dataset``: the validator's statistics as the wizard needs them (``read_inputs``; a cached check);
- ``recommend_settings``: the recommendation and its document (``recommend``, the weights store's start,
  the up-to-date prepared copy, ``result_document``) — pure rules, but the weights store and the copy's
  manifest are read from disk;
- ``prepare_copy``: the prepared copy a recommendation asks for, made or refreshed (``copy_for_training``,
  the same call ``yolostudio train --config`` makes), with progress and Cancel.
The measurements themselves are the ``wizard_measure`` worker job (``gui.job_runner.JobRunner``), not an op.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QObject

from core.dataset.prepare import PrepareResult
from core.weights.choice import StartChoice, recommend_start
from core.wizard.inputs import DatasetSummary, Goal, Hardware, Measurements
from core.wizard.prepared_copy import CopyRequest, copy_for_training
from core.wizard.recommend import Recommendation, recommend
from core.wizard.session import quick_facts, read_inputs, result_document, use_prepared
from gui.background import BackgroundTask
from gui.operations import CoreOp


@dataclass
class Recommended:
    """What the Review step shows: the recommendation, its document, and what the recommended run starts from."""

    rec: Recommendation
    doc: dict[str, Any]
    start: StartChoice


def read_machine(parent: QObject, facts: Any, on_done: Callable[[Any], None], *, what: str) -> BackgroundTask:
    return CoreOp(parent, lambda: facts or quick_facts(), what=what).success(on_done).run()


def read_dataset(parent: QObject, path: Path, workspace: Path, facts: Any, on_done: Callable[[tuple], None],
                 on_failed: Callable[[BaseException], None], *, what: str) -> BackgroundTask:
    return CoreOp(parent, lambda: read_inputs(path, workspace, None, facts), what=what) \
        .success(on_done).failure(on_failed).run()


def _recommended(hw: Hardware, ds: DatasetSummary, goal: Goal, m: Measurements, workspace: Path) -> Recommended:
    rec = recommend(hw, ds, goal, m, lambda model: recommend_start(model, workspace))
    use_prepared(rec, workspace)
    doc = result_document(rec, m, workspace, source_data=ds.data_yaml)
    return Recommended(rec, doc, recommend_start(str(rec.config.get("model", "")), workspace))


def recommend_settings(parent: QObject, hw: Hardware, ds: DatasetSummary, goal: Goal, m: Measurements,
                       workspace: Path, on_done: Callable[[Recommended], None], *, what: str) -> BackgroundTask:
    return CoreOp(parent, lambda: _recommended(hw, ds, goal, m, workspace), what=what).success(on_done).run()


def prepare_copy(parent: QObject, request: CopyRequest, workspace: Path, on_done: Callable[[PrepareResult], None],
                 on_failed: Callable[[BaseException], None], on_progress: Callable[[int, int], None], *,
                 what: str) -> BackgroundTask:
    return CoreOp(parent, lambda progress, cancelled: copy_for_training(request, workspace, progress=progress,
                                                                         cancelled=cancelled), what=what) \
        .success(on_done).failure(on_failed).progress(on_progress).run()
