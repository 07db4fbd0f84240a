"""A stopped search resumes with its own settings: the ones its folder's ``spec.json`` recorded when it started.

Why: Ray Tune's restore keeps the searched space and its trials, but the trials' training options come from the
spec the door writes — once written from the form, a resume trained the remaining trials on whatever dataset the
form showed by then (issue 32: a "best" picked across two datasets). So the door reads the search's own record
and uses it; what the user gave that differs is listed beside it (``differences``), never applied.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.job.jobs import RUN_SPEC_FILE

#: Options a difference is not worth a word for: the run name (the search's own), and where the door itself
#: decides (the device a trial slot gets).
IGNORED = ("name", "device")


@dataclass(frozen=True)
class StoredSearch:
    """What a search started with: the trials' training options (``data`` resolved), its budget and counts."""

    config: dict[str, Any]
    budget_s: float
    trials: int | None  # None: as many as the budget allows
    space: dict[str, Any]
    cpus_per_trial: float
    gpus_per_trial: float


def stored_search(tune_dir: Path) -> StoredSearch | None:
    """The settings ``tune_dir``'s search started with (None: no readable record)."""
    try:
        spec = json.loads((Path(tune_dir) / RUN_SPEC_FILE).read_text(encoding="utf-8"))
        config = dict(spec["base"]["config"])
        trials = int(spec.get("trials", -1))
        return StoredSearch(config, float(spec["time_budget_s"]), trials if trials > 0 else None,
                            dict(spec.get("space") or {}), float(spec.get("cpus_per_trial", 1.0)),
                            float(spec.get("gpus_per_trial", 0.0)))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _same(name: str, kept: Any, given: Any) -> bool:
    if name == "data" and kept and given:
        return Path(str(kept)).expanduser().resolve() == Path(str(given)).expanduser().resolve()
    return kept == given or (kept in (None, "") and given in (None, ""))


def differences(stored: StoredSearch, given: dict[str, Any], budget_s: float,
                trials: int | None) -> list[tuple[str, Any, Any]]:
    """(option, the search's value, the value given) for each option the request gave otherwise."""
    found = [(name, stored.config.get(name), value) for name, value in given.items()
             if name not in IGNORED and name in stored.config and not _same(name, stored.config.get(name), value)]
    if abs(stored.budget_s - budget_s) > 1.0:
        found.append(("time_budget_s", stored.budget_s, budget_s))
    if trials is not None and trials != stored.trials:
        found.append(("trials", stored.trials, trials))
    return found
