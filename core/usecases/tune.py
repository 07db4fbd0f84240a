"""The search door: a new hyperparameter search, or the continuation of a stopped one (``TuneDoor``).

One sequence for ``yolostudio tune`` and the Tune page (it was written twice, and the copies differed): the train
options by ``core.training.config.validate_config``, the start weights' trust (``core.usecases.grants``: the
user's ``--trust-weights``; the page has no grant to give), the dataset gate, the slots and the trial count
(``core.tune.plan``), the folder (``core.tune.folder``: a new ``tune/NAME``, the config's name unless it is the
default), and for a resume the name confined to ``tune/`` and Ray's state proven the app's own before Ray
unpickles it. ``preflight`` reads the dataset: a face with a GUI thread calls it in the background.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from core.dataset.training_gate import DatasetGate, check_for_training
from core.environment.machine import quick_machine_facts
from core.i18n import tr
from core.job.jobs import JobSpec
from core.runs.store import unique_run_dir
from core.training.config import ValidatedConfig, validate_config
from core.training.options import TrainConfig
from core.tune.address import unreachable_words
from core.tune.folder import TuneFolder, tune_root
from core.tune.plan import SearchPlan, Slots, plan_search, planned_trials, search_slots
from core.tune.resume import differences, stored_search
from core.tune.space import SearchSpace, default_space
from core.usecases.door import Door, Problem, errors
from core.usecases.grants import Grants, check_weights, record_grants

#: The dataset findings a problem list names before "… and N more" (the CLI prints the whole gate itself).
SHOWN_FINDINGS = 5
#: The config name that means "none given": the search folder is then ``tune``, ``tune2``…
DEFAULT_NAME = "exp"


class TuneDoor(Door):
    """``config``: the train options (not searched); ``resume``: the NAME of a stopped search in ``tune/``."""

    kind = "tune"

    def __init__(self, config: TrainConfig, workspace: Path, budget_s: float, *, space: SearchSpace | None = None,
                 trials: int | None = None, epoch_s: float | None = None, ray_address: str = "",
                 gpus_per_trial: float | None = None, cpus_per_trial: float = 1.0, resume: str | None = None,
                 trust_weights: bool = False) -> None:
        super().__init__()
        self.config, self.workspace, self.budget_s = config, Path(workspace), budget_s
        self.space, self.trials, self.epoch_s, self.ray_address = space, trials, epoch_s, ray_address
        self.gpus_per_trial, self.cpus_per_trial = gpus_per_trial, cpus_per_trial
        self.resume, self.trust_weights = resume, trust_weights
        self.grants = Grants()
        self.checked: ValidatedConfig | None = None
        self.gate: DatasetGate | None = None  # a dataset gate that failed (the CLI lists it whole)
        self.slots: Slots | None = None
        self.plan: SearchPlan | None = None

    def check(self) -> list[Problem]:
        kept: list[Problem] = []
        if self.resume is not None:  # before anything reads the config: a resume runs on the search's own
            refused = self._resume_problem()
            if refused is not None:
                return [refused]
            kept = self._keep_stored_settings()
            if kept and kept[0].is_error:
                return kept
        return kept + self._check_request()

    def _keep_stored_settings(self) -> list[Problem]:
        """Replace the request's settings with the ones the search started with; a warning lists what differed
        (shown, never applied: issue 32)."""
        folder = TuneFolder.named(self.workspace, str(self.resume))
        stored = stored_search(folder.path)
        if stored is None:
            return [Problem(tr("{path} has no readable record of the settings its search started with.",
                               path=folder.path / "spec.json"), tr("Start a new search instead."))]
        given = {k: v for k, v in self.config.to_dict().items() if k != "device" or v}
        changed = differences(stored, given, self.budget_s, self.trials)
        self.config = TrainConfig.from_dict(stored.config)
        self.budget_s, self.trials = stored.budget_s, stored.trials
        self.space = SearchSpace.from_dict(stored.space) if stored.space else self.space
        self.cpus_per_trial, self.gpus_per_trial = stored.cpus_per_trial, stored.gpus_per_trial
        if not changed:
            return []
        names = {"time_budget_s": tr("time budget"), "trials": tr("trials")}
        shown = "; ".join(tr("{option}: {kept} (given: {given})", option=names.get(name, name),
                             kept=_shown(name, kept), given=_shown(name, value)) for name, kept, value in changed)
        return [Problem(tr("Search {name} resumes with the settings it started with; what was given differs and "
                           "is not used: {changes}.", name=folder.name, changes=shown),
                        tr("To search with other settings, start a new search."), "warning")]

    def _check_request(self) -> list[Problem]:
        if self.ray_address:  # Ray retries an unreachable GCS for minutes where no signal reaches it (issue 37)
            unreachable = unreachable_words(self.ray_address)
            if unreachable:
                return [Problem(*unreachable)]
        facts = quick_machine_facts()
        checked = self.checked = validate_config(self.config, facts, self.workspace)
        found = [Problem.of(p) for p in checked.problems]
        if errors(found) or not checked.ok or checked.data_path is None or checked.hyp_path is None:
            return found if errors(found) else [*found, Problem(tr("The options cannot be used for a search."))]
        check_weights(checked.weights_path, self.workspace, self.grants, granted=self.trust_weights)
        if self.grants.problems:
            return found + self.grants.problems
        gate = check_for_training(checked.data_path, self.workspace)
        if not gate.ok:
            self.gate = gate
            shown = [Problem(f"{f.where}: {f.message}") for f in gate.blockers[:SHOWN_FINDINGS]]
            more = len(gate.blockers) - SHOWN_FINDINGS
            return [*found, *shown, *([Problem(tr("… and {n} more.", n=more))] if more > 0 else [])]
        cpus = int(facts.cpu_count or os.cpu_count() or 1)
        self.slots = search_slots(int(facts.gpu_count or 0), cpus, checked.config.device, self.gpus_per_trial,
                                  self.cpus_per_trial)
        return found

    def _resume_problem(self) -> Problem | None:
        """NAME is one folder of ``tune/``, and Ray's state there verifies as this app's (it is unpickled)."""
        root = tune_root(self.workspace)
        try:
            folder = TuneFolder.named(self.workspace, str(self.resume))
        except ValueError as exc:
            return Problem(str(exc), tr("Name a folder under {root} (yolostudio tune … --resume NAME).", root=root))
        if not folder.can_resume():
            return Problem(tr("{path} holds no search to resume.", path=folder.path),
                           tr("Name a folder under {root} (yolostudio tune … --resume NAME).", root=root))
        problem = folder.state_problem(self.workspace)
        return None if problem is None else Problem(problem)

    @property
    def tune_dir(self) -> Path | None:
        return self.plan.tune_dir if self.plan is not None else None

    def build(self) -> JobSpec:
        checked = self.checked
        assert checked is not None and checked.data_path is not None and checked.hyp_path is not None
        assert self.slots is not None
        count = planned_trials(self.budget_s, checked.config.epochs, self.slots.count, self.trials, self.epoch_s)
        if self.resume is not None:
            tune_dir = TuneFolder.named(self.workspace, self.resume).path
        else:
            name = checked.config.name if checked.config.name != DEFAULT_NAME else "tune"
            tune_dir = unique_run_dir(tune_root(self.workspace), name)
        config: dict[str, Any] = dict(checked.config.to_dict(), data=str(checked.data_path))
        self.plan = plan_search(config, checked.hyp_path, self.workspace, self.space or default_space(),
                                self.budget_s, self.slots, tune_dir=tune_dir, trials=count,
                                ray_address=self.ray_address, resume=self.resume is not None,
                                trusted=tuple(self.grants.weights), cpus_per_trial=self.cpus_per_trial)
        record_grants(self.workspace, self.grants.weights)
        return JobSpec.for_run("tune", tune_dir, self.plan.spec)


def _shown(option: str, value: Any) -> str:
    """A setting as the difference list shows it: the budget in hours, "as many as the budget allows" for none."""
    if option == "time_budget_s":
        return tr("{hours:g} h", hours=round(float(value) / 3600.0, 2))
    if option == "trials" and value is None:
        return tr("as many as the budget allows")
    return str(value)
