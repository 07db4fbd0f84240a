"""The door every worker job passes: one object per job kind (``core.usecases.door.Door``), both faces call it.

A face (a CLI verb, a GUI page) builds a door from its request, renders ``preflight()``'s problems, and hands the
door to its runner (``cli/jobs.py``, ``gui/job_runner.py``), which runs ``spec()``, feeds ``fold`` and shows
``result()``; it never builds a spec, starts a worker another way or hands a runner a bare spec
(``tests/test_usecases_rule.py``). A guard lives in the door — trust from provenance
(``grants``), a free port, a changed store file — so no face and no new job can skip it. ``DOORS`` lists the
doors of every kind ``core.worker``'s JOBS knows (``tests/core/test_usecases.py`` fails on a kind without one).
"""

from __future__ import annotations

from core.usecases.door import Door
from core.usecases.evaluate import EvaluateDoor, KfoldDoor
from core.usecases.export import ExportDoor
from core.usecases.label import AutoLabelDoor
from core.usecases.jobs import (DatasetImportDoor, PredictDoor, ProbeDoor, RepairDoor, WeightsGetDoor,
                                WeightsImportDoor, WizardMeasureDoor)
from core.usecases.predict import PredictSourceDoor
from core.usecases.train import ResumeDoor, TrainDoor
from core.usecases.tune import TuneDoor

#: Every door; a job kind may have several (``train``: a new run and a resume; ``tune``: new or resumed).
ALL_DOORS: tuple[type[Door], ...] = (TrainDoor, ResumeDoor, EvaluateDoor, KfoldDoor, TuneDoor, ExportDoor,
                                     PredictDoor, PredictSourceDoor, DatasetImportDoor, WeightsGetDoor,
                                     WeightsImportDoor, ProbeDoor, WizardMeasureDoor, RepairDoor,
                                     AutoLabelDoor)


def doors_of(kind: str) -> list[type[Door]]:
    """The doors that start worker job ``kind`` (a name of ``core.worker``'s JOBS)."""
    return [door for door in ALL_DOORS if door.kind == kind]
