"""The export door: a checkpoint converted to the chosen formats (``core/worker/export_job.py``).

Trust is the door's (``core.usecases.grants``): the checkpoint is unpickled by the worker, so a file outside
this workspace's runs and store, or a run copied in, needs the user's grant now (``--trust-weights``, the
Export page's confirm), and a weights-store file that changed is refused. ``preflight`` may hash the file:
the Export page calls it in the background.
"""

from __future__ import annotations

from pathlib import Path

from core.export.options import ExportOptions
from core.export.plan import build_export_spec
from core.job.jobs import JobSpec
from core.trust import needs_trust
from core.usecases.door import Door, Problem
from core.usecases.grants import Grants, check_weights, record_grants


class ExportDoor(Door):
    kind = "export"

    def __init__(self, options: ExportOptions, workspace: Path, *, trust_weights: bool = False) -> None:
        super().__init__()
        self.options, self.workspace, self.trust_weights = options, Path(workspace), trust_weights
        self.grants = Grants()

    @property
    def asks_grant(self) -> bool:
        """The only refusal is one the user's grant lifts (the page asks, then builds the door again)."""
        return not self.ok and not self.trust_weights and needs_trust(self.options.weights, self.workspace)

    def check(self) -> list[Problem]:
        check_weights(self.options.weights, self.workspace, self.grants, granted=self.trust_weights)
        return self.grants.problems

    def build(self) -> JobSpec:
        record_grants(self.workspace, self.grants.weights)
        return JobSpec.scratch("export", build_export_spec(self.options, self.workspace,
                                                           trusted=bool(self.grants.weights)), self.workspace)
