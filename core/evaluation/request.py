"""An evaluation of a run asked for by a front end: what to evaluate, and the result as it is shown.

The CLI (``yolostudio evaluate``) and the app's Evaluate window ask the same questions of a run — which
weights, which dataset, which settings, is it trusted — and show the same thing afterwards: the stored
result with its path and the prescription (computed when read, never stored: Train more changes the run's
curves, not the evaluation). Both live here, once; both faces start the worker through the door
(``core.usecases.evaluate``). ``plan_run_evaluation`` hashes the weights: a front end with a GUI thread calls it
in the background.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from core.evaluation.accuracy_facts import gather_facts
from core.evaluation.plan import (EvaluatePlan, default_settings, plan_evaluation, run_training_config,
                                  run_weights, run_world_size)
from core.evaluation.prescription import finding_json, prescribe
from core.evaluation.store import RESULT_FILE, load_evaluation, load_images
from core.evaluation.words import is_held_out, no_images_words
from core.i18n import tr
from core.trust import needs_trust, refusal


class EvaluationRefused(Exception):
    """The run cannot be evaluated as it is; ``message`` says why and ``hint`` the way out."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message, self.hint = message, hint


@dataclass(frozen=True)
class RunEvaluation:
    """A planned evaluation of a run: the plan (its store folder), the run's config, the stored result if any."""
    plan: EvaluatePlan
    run_dir: Path
    config: dict[str, Any]
    stored: dict[str, Any] | None


def plan_run_evaluation(run_dir: Path, workspace: Path, *, split: str = "val") -> RunEvaluation:
    """Plan the evaluation of a run's best weights on its own dataset with training's settings.

    Raises ``EvaluationRefused`` (no weights, no dataset, untrusted weights, an empty split)."""
    run_dir = Path(run_dir)
    weights = run_weights(run_dir)
    if weights is None:
        raise EvaluationRefused(tr("Run {run} has no weights yet (weights/best.pt or weights/last.pt).",
                                   run=run_dir.name), tr("Evaluate a run that trained at least one epoch."))
    config = run_training_config(run_dir)
    data = Path(str(config.get("data") or ""))
    if not config.get("data") or not data.is_file():
        raise EvaluationRefused(tr("The dataset of run {run} is not there: {path}", run=run_dir.name, path=data),
                                tr("Put the dataset back, or evaluate with yolostudio evaluate {run} --data "
                                   "DATA.yaml.", run=run_dir.name))
    if needs_trust(weights, workspace):
        raise EvaluationRefused(refusal(weights, workspace))
    plan = plan_evaluation(weights, data, default_settings(config, split=split,
                                                           world_size=run_world_size(run_dir)))
    if not plan.images:
        raise EvaluationRefused(*no_images_words(data, split))
    return RunEvaluation(plan, run_dir, config, load_evaluation(plan.folder))


class Stored(Protocol):
    """What ``presented`` needs of a plan: where its evaluation is stored (``EvaluatePlan``, ``KfoldPlan``)."""
    folder: Path


def presented(result: dict[str, Any], plan: Stored, config: dict[str, Any], run_dir: Path | None, *,
              from_store: bool) -> dict[str, Any]:
    """The stored result as front ends show it: with ``store``, ``from_store`` and the prescription — none for
    held-out predictions on the train split: the prescription's rules judge a val/test evaluation (its size,
    its class mix against train)."""
    findings = [] if is_held_out(result) else prescribe(gather_facts(result, load_images(plan.folder), config,
                                                                     run_dir))
    return {**result, "store": str(plan.folder / RESULT_FILE), "from_store": from_store,
            "prescription": [finding_json(f) for f in findings]}
