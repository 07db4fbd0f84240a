"""A search, planned: the slots it runs on, the trials its budget allows, its folder and the tune job's spec.

The search's door (``core.usecases.tune.TuneDoor``, for ``yolostudio tune`` and the Tune page alike) checks the
options as ``yolostudio train`` does (``core.training.config.validate_config``) and the dataset gate first, then
calls ``plan_search`` on the checked config; the folder's layout is ``core.tune.folder``'s. Pure (no Ray): the
search runs in the ``tune`` worker job.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.tune.budget import trials_in_budget
from core.tune.folder import TuneFolder
from core.tune.space import SearchSpace



@dataclass(frozen=True)
class Slots:
    """Where trials run side by side: ``count`` slots of ``gpus_per_trial`` GPUs, or CPU slots without GPUs."""

    count: int
    gpus_per_trial: float
    cpus: int
    gpus: int  # the GPUs the local Ray is given (0 on CPU)


@dataclass(frozen=True)
class SearchPlan:
    tune_dir: Path
    slots: Slots
    trials: int  # -1: as many as the budget allows (no measured epoch time to count them)
    spec: dict[str, Any]


def search_slots(gpu_count: int, cpu_count: int, device: str, gpus_per_trial: float | None,
                 cpus_per_trial: float) -> Slots:
    """One trial per GPU (``--gpus-per-trial``, default 1 where there are GPUs and the device is not cpu), else
    one per ``cpus_per_trial`` CPU cores."""
    on_gpu = gpu_count > 0 and device.strip().lower() != "cpu"
    per_gpu = gpus_per_trial if gpus_per_trial is not None else (1.0 if on_gpu else 0.0)
    cpus = max(1, cpu_count)
    if per_gpu > 0 and gpu_count:
        count = max(1, int(gpu_count // per_gpu))
    else:
        count = max(1, int(cpus // max(cpus_per_trial, 1e-9)))
    return Slots(count, per_gpu, cpus, gpu_count if on_gpu else 0)


def planned_trials(budget_s: float, epochs: int, slots: int, trials: int | None, epoch_s: float | None) -> int:
    """The trial count: the user's, else what the budget allows at the measured epoch time, else -1 (the
    budget alone ends the search)."""
    if trials:
        return trials
    return trials_in_budget(budget_s, epoch_s, epochs, slots) if epoch_s else -1


def plan_search(config: dict[str, Any], hyp_path: Path, workspace: Path, space: SearchSpace, budget_s: float,
                slots: Slots, *, tune_dir: Path, trials: int = -1, ray_address: str = "", resume: bool = False,
                trusted: tuple[str, ...] = (), cpus_per_trial: float = 1.0) -> SearchPlan:
    """The ``tune`` job's spec for a checked config (``TrainConfig.to_dict()`` with ``data`` resolved)."""
    from core.workspace import runs_dir

    base_config = dict(config, device="0" if slots.gpus_per_trial > 0 else "cpu")
    spec = {"run_dir": str(tune_dir), "runs_root": str(runs_dir(workspace)), "resume": resume,
            "base": {"config": base_config, "hyp_path": str(hyp_path), "workspace": str(workspace),
                     "trusted_weights": list(trusted)},
            "space": space.to_dict(), "time_budget_s": budget_s, "trials": trials,
            "cpus": slots.cpus, "gpus": slots.gpus, "cpus_per_trial": cpus_per_trial,
            "gpus_per_trial": slots.gpus_per_trial, "ray_address": ray_address,
            "ray_temp": os.environ.get("YOLOSTUDIO_RAY_TEMP", "")}
    return SearchPlan(tune_dir, slots, trials, spec)


def can_resume(tune_dir: Path) -> bool:
    """A search folder with Ray Tune's experiment in it (``core.tune.folder.TuneFolder.can_resume``)."""
    return TuneFolder(Path(tune_dir)).can_resume()
