"""The evaluation doors: a model on a split (``EvaluateDoor``) and held-out k-fold predictions (``KfoldDoor``).

Planned once, here, for both faces (``core.evaluation.plan``/``request``/``kfold_request`` hold the rules): the
CLI builds the door from its flags, the Evaluate window from a run. A stored result with the same key is read
back without a worker; a worker runs only through ``spec()``. Trust is the door's (``core.usecases.grants``):
the weights a worker will unpickle, and — for the k-fold trainings — the run's start weights and model YAML,
judged by provenance and the user's grant now, never by the ``trusted_*`` the run's ``config.json`` lists.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.evaluation.kfold import KFOLD_DEFAULT
from core.evaluation.kfold_request import KfoldPlan, build_kfold_spec, plan_kfold_evaluation
from core.evaluation.plan import EvaluatePlan, EvaluateSettings, build_evaluate_spec, plan_evaluation
from core.evaluation.request import EvaluationRefused, RunEvaluation, plan_run_evaluation
from core.evaluation.store import load_evaluation
from core.evaluation.words import no_images_words
from core.job.jobs import JobSpec
from core.usecases.door import Door, Problem
from core.usecases.grants import Grants, check_model, check_weights


class EvaluateDoor(Door):
    """``weights`` on ``data`` with ``settings``; or a plan already made (``from_plan``: the Evaluate window's
    ``plan_run_evaluation`` in the background). ``stored``: the result of the same inputs, when there is one."""

    kind = "evaluate"

    def __init__(self, weights: Path, data: Path, settings: EvaluateSettings, workspace: Path, *,
                 trust_weights: bool = False, device: str = "", plan: EvaluatePlan | None = None) -> None:
        super().__init__()
        self.weights, self.data, self.settings = Path(weights), Path(data), settings
        self.workspace, self.trust_weights, self.device = Path(workspace), trust_weights, device
        self.plan: EvaluatePlan | None = plan
        self.stored: dict[str, Any] | None = None
        self.planned: RunEvaluation | None = None  # what the Evaluate window shows (from_plan)
        self.grants = Grants()

    @classmethod
    def for_run(cls, run_dir: Path, workspace: Path) -> EvaluateDoor:
        """A run's best weights on its own dataset, with training's settings (``plan_run_evaluation``; raises
        ``EvaluationRefused`` in words). Hashes the weights: a face with a GUI thread calls it in the background."""
        return cls.from_plan(plan_run_evaluation(run_dir, workspace), workspace)

    @classmethod
    def from_plan(cls, planned: RunEvaluation, workspace: Path) -> EvaluateDoor:
        plan = planned.plan
        door = cls(plan.weights, plan.data, plan.settings, workspace, plan=plan)
        door.stored, door.planned = planned.stored, planned
        return door

    def check(self) -> list[Problem]:
        check_weights(self.weights, self.workspace, self.grants, granted=self.trust_weights)
        if self.grants.problems:
            return self.grants.problems
        if self.plan is None:
            self.plan = plan_evaluation(self.weights, self.data, self.settings)
            if not self.plan.images:
                return [Problem(*no_images_words(self.data, self.settings.split))]
            self.stored = load_evaluation(self.plan.folder)
        return []

    def build(self) -> JobSpec:
        assert self.plan is not None
        return JobSpec.scratch("evaluate", build_evaluate_spec(self.plan, self.workspace,
                                                               trusted=bool(self.grants.weights),
                                                               device=self.device), self.workspace)


class KfoldDoor(Door):
    """Held-out predictions for a run's train split: ``k`` trainings like the run's, each predicting its fold."""

    kind = "evaluate_kfold"

    def __init__(self, run_dir: Path, workspace: Path, *, k: int = KFOLD_DEFAULT, epochs: int | None = None,
                 imgsz: int | None = None, conf: float | None = None, iou: float | None = None, device: str = "",
                 trust_weights: bool = False, trust_model: bool = False, plan: KfoldPlan | None = None) -> None:
        super().__init__()
        self.run_dir, self.workspace = Path(run_dir), Path(workspace)
        self.options = {"k": k, "epochs": epochs, "imgsz": imgsz, "conf": conf, "iou": iou}
        self.device, self.trust_weights, self.trust_model = device, trust_weights, trust_model
        self.plan: KfoldPlan | None = plan
        self.grants = Grants()

    @classmethod
    def from_plan(cls, plan: KfoldPlan, workspace: Path, **grants: bool) -> KfoldDoor:
        return cls(plan.run_dir, workspace, plan=plan, **grants)

    @property
    def stored(self) -> dict[str, Any] | None:
        return self.plan.stored if self.plan is not None else None

    @property
    def planned(self) -> KfoldPlan | None:
        return self.plan

    def check(self) -> list[Problem]:
        if self.plan is None:
            try:
                self.plan = plan_kfold_evaluation(self.run_dir, self.workspace, **self.options)
            except EvaluationRefused as refused:
                return [Problem(refused.message, refused.hint)]
        if self.plan.stored is not None:
            return []  # read back: nothing is loaded
        resolved = self.plan.run_spec.get("resolved") or {}
        check_weights(str(resolved.get("weights") or ""), self.workspace, self.grants, granted=self.trust_weights)
        check_model(str(resolved.get("cfg") or ""), self.grants, granted=self.trust_model)
        return self.grants.problems

    def build(self) -> JobSpec:
        assert self.plan is not None
        return JobSpec.scratch("evaluate_kfold", build_kfold_spec(
            self.plan, self.workspace, device=self.device, trusted_weights=tuple(self.grants.weights),
            trusted_model=self.grants.model), self.workspace)
