"""A search from the GUI's Tune page, checked and planned in one call (the page runs it off the GUI thread).

The same checks ``yolostudio tune`` makes (``cli/verbs/tune.py``), by the same owners: the train options by
``core.training.config.validate_config``, a .pt from outside the runs by ``core.trust``, the dataset by
``core.dataset.training_gate``; then ``core.tune.plan`` for the slots, the trial count and the job's spec.
A problem comes back in words (message, then the way out), never as an exception.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.tune.plan import SearchPlan, can_resume, plan_search, planned_trials, search_slots, tune_root
from core.tune.space import SearchSpace, default_space

#: The dataset findings listed before "… and N more" (the CLI shows as many).
SHOWN_FINDINGS = 5


@dataclass(frozen=True)
class PreparedSearch:
    problems: list[str] = field(default_factory=list)
    plan: SearchPlan | None = None


def prepare_search(values: dict[str, Any], workspace: Path, budget_s: float, *, trials: int | None = None,
                   epoch_s: float | None = None, ray_address: str = "", space: SearchSpace | None = None,
                   name: str = "tune", resume_dir: Path | None = None) -> PreparedSearch:
    """Check the options and the dataset, then plan the search in a new folder ``<workspace>/tune/NAME``, or
    the continuation of the stopped search in ``resume_dir`` (Ray Tune's restore, as ``--resume``)."""
    from core.dataset.training_gate import check_for_training
    from core.environment.machine import quick_machine_facts
    from core.i18n import tr
    from core.runs.store import unique_run_dir
    from core.training.config import validate_config
    from core.training.options import TrainConfig
    from core.trust import needs_trust, refusal
    from core.tune.address import unreachable_words

    unreachable = unreachable_words(ray_address) if ray_address else None
    if unreachable:
        return PreparedSearch([" ".join(unreachable)])
    facts = quick_machine_facts()
    checked = validate_config(TrainConfig.from_dict(values), facts, workspace)
    problems = [" ".join(part for part in (p.message, p.fix) if part) for p in checked.problems
                if p.severity == "error"]
    if problems or not checked.ok or checked.data_path is None or checked.hyp_path is None:
        return PreparedSearch(problems or [tr("The options cannot be used for a search.")])
    if checked.weights_path is not None and needs_trust(checked.weights_path, workspace):
        return PreparedSearch([refusal(checked.weights_path, workspace)])
    gate = check_for_training(checked.data_path, workspace)
    if not gate.ok:
        shown = [f"{found.where}: {found.message}" for found in gate.blockers[:SHOWN_FINDINGS]]
        more = len(gate.blockers) - SHOWN_FINDINGS
        return PreparedSearch(shown + ([tr("… and {n} more.", n=more)] if more > 0 else []))
    slots = search_slots(int(facts.gpu_count or 0), int(facts.cpu_count or 1), checked.config.device, None, 1.0)
    count = planned_trials(budget_s, checked.config.epochs, slots.count, trials, epoch_s)
    if resume_dir is not None and not can_resume(resume_dir):
        return PreparedSearch([tr("{path} holds no search to resume.", path=resume_dir)])
    tune_dir = resume_dir if resume_dir is not None else unique_run_dir(tune_root(workspace), name)
    config = dict(checked.config.to_dict(), data=str(checked.data_path))
    return PreparedSearch(plan=plan_search(config, checked.hyp_path, workspace, space or default_space(), budget_s,
                                           slots, tune_dir=tune_dir, trials=count, ray_address=ray_address,
                                           resume=resume_dir is not None))
