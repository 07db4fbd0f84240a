"""The short jobs' doors: each wraps the spec its core owner builds into the job a face runs.

These jobs have no pre-flight that reads files (their checks live with their owners and happen before the spec
exists: the install plan's refusal, the importer's options, the wizard's inputs; an import's grant is the one
check here), so ``check`` reads nothing and ``build`` only makes the ``JobSpec`` — a page may hold these doors
on the GUI thread. A guard one of these
kinds needs later goes into its ``check``, here, where both faces pass.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.i18n import tr
from core.job.jobs import JobSpec
from core.usecases.door import Door, Problem


class _ScratchDoor(Door):
    """A job without a run folder: its spec in a private file of the workspace's cache."""

    def __init__(self, spec: dict[str, Any], workspace: Path) -> None:
        super().__init__()
        self.worker_spec, self.workspace = spec, Path(workspace)

    def build(self) -> JobSpec:
        return JobSpec.scratch(self.kind, self.worker_spec, self.workspace)


class PredictDoor(_ScratchDoor):
    """Export's "Try it": a model on a few images (``core.export.plan.build_predict_spec``)."""

    kind = "predict"


class DatasetImportDoor(_ScratchDoor):
    """A VOC / LabelMe / COCO / YOLO export read or imported (``core/worker/import_job.py``)."""

    kind = "dataset_import"


class WeightsGetDoor(_ScratchDoor):
    """An official checkpoint downloaded into the weights store (the app's only network use)."""

    kind = "weights_get"

    def __init__(self, spec: dict[str, Any], workspace: Path) -> None:
        super().__init__({"workspace": str(workspace), **spec}, workspace)


class WeightsImportDoor(WeightsGetDoor):
    """A checkpoint the user confirmed, copied into the weights store and load-checked — the worker unpickles it,
    so the door refuses without the user's grant (``granted``: ``--yes`` or the answer, the dialog's confirm)."""

    kind = "weights_import"

    def __init__(self, spec: dict[str, Any], workspace: Path, *, granted: bool = False) -> None:
        super().__init__(spec, workspace)
        self.granted = granted

    def check(self) -> list[Problem]:
        if self.granted:
            return []
        source = self.worker_spec.get("source", "")
        return [Problem(tr("{path} is a pickle: loading it can run code it carries; it is imported only when you "
                           "trust it.", path=source), tr("Add --yes to trust {path}.", path=source))]


class ProbeDoor(_ScratchDoor):
    """The environment probe (``core.environment.probe_launch.probe_spec``)."""

    kind = "probe"


class WizardMeasureDoor(_ScratchDoor):
    """The wizard's measurements of the first candidate (``core.wizard.session.measure_spec``)."""

    kind = "wizard_measure"


class RepairDoor(Door):
    """pip replacing PyTorch (``core.install.repair``): its folder keeps the job's log and spec."""

    kind = "repair"

    def __init__(self, spec: dict[str, Any], job_dir: Path) -> None:
        super().__init__()
        self.worker_spec, self.job_dir = spec, Path(job_dir)

    def build(self) -> JobSpec:
        return JobSpec.for_run(self.kind, self.job_dir, self.worker_spec)
