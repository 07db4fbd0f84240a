"""The training doors: a new run (``TrainDoor``) and the resume of a stopped or failed one (``ResumeDoor``).

Both faces start training only here, so the pre-flight is the same from a terminal and from the Train page:
the option rules (``core.training.config.validate_config``, run by the face on its form or flags), what only
this machine can tell just before its share starts (``launch_problems``: a taken port, a silent meeting point),
a weights-store file that changed (``stored_verdict``), and trust from provenance alone (``grants``). The dataset
gate stays with each face: the CLI checks once (``--no-check``), the Train page keeps checking as the user types.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.environment.machine import quick_machine_facts
from core.i18n import tr
from core.job.jobs import JobSpec
from core.run.folder import RunFolder
from core.run.owner import busy_words, lock_owner
from core.run.words import UNREADABLE
from core.runs.store import create_run, load_run_config, read_run, resume_checkpoint_problem, resume_spec
from core.training.config import ValidatedConfig
from core.job.torchrun import is_loopback_endpoint
from core.run.files import CONFIG_FILE
from core.training.distributed import ENDPOINT_FIELDS, launch_problems, resume_with, unconfirmed_endpoints
from core.training.options import TrainConfig
from core.trust import needs_trust
from core.usecases.door import Door, Problem, errors
from core.usecases.grants import Grants, check_model, check_weights, record_grants


class TrainDoor(Door):
    """A new run from checked options; ``trust_weights`` / ``trust_model``: the user's grant, given now;
    ``wizard``: the wizard document the options came from (the run folder keeps it for predicted vs measured);
    ``from_run``: the run it fine-tunes (``core.runs.fine_tune``: the options carry its best.pt as the model)."""

    kind = "train"

    def __init__(self, checked: ValidatedConfig, workspace: Path, *, trust_weights: bool = False,
                 trust_model: bool = False, wizard: dict[str, Any] | None = None,
                 from_run: Path | None = None) -> None:
        super().__init__()
        self.checked, self.workspace, self.wizard = checked, Path(workspace), wizard
        self.from_run = from_run  # ``train --from``: the run fine-tuned (its best.pt is the model, checked below)
        self.trust_weights, self.trust_model = trust_weights, trust_model
        self.grants = Grants()
        self.run_dir: Path | None = None

    def check(self) -> list[Problem]:
        checked = self.checked
        found = [Problem.of(p) for p in checked.problems]
        if not checked.ok:
            return found
        found += [Problem.of(p) for p in launch_problems(checked.config)]
        if errors(found):
            return found
        check_weights(checked.weights_path, self.workspace, self.grants, granted=self.trust_weights)
        check_model(checked.cfg_path, self.grants, granted=self.trust_model)
        return found + self.grants.problems

    def build(self) -> JobSpec:
        record_grants(self.workspace, self.grants.weights)
        self.run_dir = create_run(self.workspace, self.checked, trusted_weights=tuple(self.grants.weights),
                                  trusted_model=self.grants.model, wizard=self.wizard, from_run=self.from_run)
        return JobSpec.for_run("train", self.run_dir, load_run_config(self.run_dir)["spec"])


class ResumeDoor(Door):
    """Resume ``run_dir`` from its checkpoint; ``changes``: where the ranks run (``RESUME_CHANGES``, None = keep)."""

    kind = "train"

    def __init__(self, run_dir: Path, workspace: Path, *, trust_weights: bool = False, trust_model: bool = False,
                 changes: dict[str, Any] | None = None, status_known: bool = False) -> None:
        super().__init__()
        self.status_known = status_known  # the face read the run's status already (the Train page's Resume)
        self.run_dir, self.workspace = Path(run_dir), Path(workspace)
        self.trust_weights, self.trust_model = trust_weights, trust_model
        self.changes = dict(changes or {})
        self.grants = Grants()
        self.worker_spec: dict[str, Any] = {}
        self.grantable: Path | None = None  # the checkpoint whose refusal the user's grant would lift

    def check(self) -> list[Problem]:
        run_dir = self.run_dir
        owner = lock_owner(run_dir)
        if owner is not None:
            return [Problem(*busy_words(run_dir, owner))]
        if not self.status_known:  # folds the events file: a face that read the run's status already skips it
            refused = self._status_problem()
            if refused is not None:
                return [refused]
        problem = resume_checkpoint_problem(run_dir)
        if problem is not None:
            return [Problem(tr("run {name} cannot be resumed: {problem}", name=run_dir.name, problem=problem),
                            tr("Start a new run; to keep what it learned, train from its best.pt if that is whole."))]
        last = RunFolder(run_dir).last_pt
        # a run folder from elsewhere: its checkpoint is not the app's own (machine 1+ of a several-machines run
        # has none yet: machine 0 sends its own when the ranks meet, recorded as it arrives)
        if last.exists() and needs_trust(last, self.workspace):
            self.grantable = last
            check_weights(last, self.workspace, self.grants, granted=self.trust_weights, entry=last.parent)
            if self.grants.problems:
                return self.grants.problems
        spec = resume_spec(run_dir, self.workspace, trusted_weights=tuple(self.grants.weights))
        check_model(str((spec.get("resolved") or {}).get("cfg") or ""), self.grants, granted=self.trust_model)
        if self.grants.problems:  # the worker refuses the checkpoint's copy of it too; say it now
            return self.grants.problems
        spec["trusted_model"] = self.trust_model  # the user's word now, never the run's config.json
        problems = self._endpoint_problems(TrainConfig.from_dict(spec.get("config", {})))
        if problems:
            return problems
        spec, found = resume_with(spec, quick_machine_facts(), self.changes)
        problems = [Problem.of(p) for p in found]
        if not errors(problems):
            problems += [Problem.of(p) for p in launch_problems(TrainConfig.from_dict(spec["config"]))]
        self.worker_spec = spec
        return problems

    def _status_problem(self) -> Problem | None:
        """A run that cannot be read, still runs, or completed is not resumed."""
        info = read_run(self.run_dir)
        if info.status == UNREADABLE:
            return Problem(tr("run {name} cannot be read: {reason}", name=info.name,
                              reason=(info.error or {}).get("message", "")), (info.error or {}).get("hint", ""))
        if info.status == "running":
            return Problem(tr("run {name} is still running; use 'yolostudio attach {name}'.", name=info.name))
        if info.status == "completed":
            return Problem(tr("run {name} completed; start a new run from its best.pt instead.", name=info.name))
        return None

    def _endpoint_problems(self, stored: TrainConfig) -> list[Problem]:
        """A meeting point the run's config.json names is a file's word: the c10d rendezvous unpickles what that
        address serves, so beyond loopback the user gives it now (``--rdzv-endpoint``, as ``resume_commands``
        prints it for every machine) — a run folder planted without a checkpoint (machine 1+) has nothing else
        that would ask."""
        typed = {name for name in ENDPOINT_FIELDS if self.changes.get(name) not in (None, "")}
        found = unconfirmed_endpoints(stored, typed, str(self.run_dir / CONFIG_FILE))
        return [Problem.of(f) for f in found
                if not is_loopback_endpoint(f"{getattr(stored, f.field) or ''}:0" if f.field == "master_addr"
                                            else str(getattr(stored, f.field) or ""))]

    @property
    def config(self) -> TrainConfig:
        return TrainConfig.from_dict(self.worker_spec["config"])

    def build(self) -> JobSpec:
        record_grants(self.workspace, self.grants.weights)
        return JobSpec.for_run("train", self.run_dir, self.worker_spec)
