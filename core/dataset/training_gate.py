"""The dataset check before a training run starts: would yolov5 abort, or train without some images?

The Train page (in the background, before it says "Ready to train") and ``yolostudio train`` (before it
creates a run folder) ask the same question of the same validator (``validate_dataset``, with the
workspace's scan cache, so a re-check of an unchanged dataset only stats its files). Which errors abort
training and which make yolov5 drop images is one table, ``findings.TRAINING_EFFECT``: errors that abort
refuse the start; errors that drop images refuse it unless the user starts anyway, knowingly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from core.dataset.findings import ABORTS, DROPS, training_effect
from core.findings import Finding
from core.workspace import app_cache_dir


@dataclass(frozen=True)
class DatasetGate:
    """What the dataset check means for a training run of ``yaml_file``."""

    yaml_file: str
    aborts: list[Finding] = field(default_factory=list)  # training would stop on these
    drops: list[Finding] = field(default_factory=list)  # yolov5 would train without these images

    @property
    def ok(self) -> bool:
        return not self.aborts and not self.drops

    @property
    def startable_anyway(self) -> bool:
        """Only droppable errors: the user may knowingly train without those images."""
        return not self.aborts and bool(self.drops)

    @property
    def blockers(self) -> list[Finding]:
        return [*self.aborts, *self.drops]


def gate_of(yaml_file: Path | str, findings: list[Finding]) -> DatasetGate:
    return DatasetGate(str(yaml_file), [f for f in findings if training_effect(f) == ABORTS],
                       [f for f in findings if training_effect(f) == DROPS])


def check_for_training(yaml_file: Path, workspace: Path, *, progress: Callable[[int, int], None] | None = None,
                       cancelled: Callable[[], bool] | None = None) -> DatasetGate:
    """Run the validator (cached per file in the workspace) and sort its errors by what they do to training.
    Raises ``core.dataset.scan.ScanCancelled`` when ``cancelled()`` turns true."""
    from core.dataset.validate import validate_dataset  # numpy and the scanners: not at the window's start-up

    report = validate_dataset(Path(yaml_file), progress=progress, cancelled=cancelled,
                              cache_dir=app_cache_dir(workspace) / "dataset-check")
    return gate_of(report.yaml_file, report.findings)
