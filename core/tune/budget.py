"""How many trials a time budget allows: from the wizard's measured epoch time when there is one.

A trial runs at most ``epochs`` epochs (ASHA ends the poor ones sooner, so this is the floor); trials run
side by side, one per slot (a GPU, or a CPU slot on a machine without GPUs). The wizard's ``--json`` /
``--save`` document carries ``predicted.epoch_s`` from its measured run (``core/wizard/recommend.py``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any


def trials_in_budget(budget_s: float, epoch_s: float, epochs: int, slots: int) -> int:
    """Full-length trials that fit in ``budget_s`` on ``slots`` slots (at least one)."""
    per_trial = max(epoch_s, 1e-9) * max(1, epochs)
    return max(1, int(math.floor(budget_s / per_trial))) * max(1, slots)  # each slot starts one at least


def wizard_epoch_s(config_file: Path | None) -> float | None:
    """The wizard's predicted epoch time in a saved wizard document, else None (a plain options file)."""
    if config_file is None:
        return None
    try:
        import yaml

        raw: Any = yaml.safe_load(Path(config_file).read_text(encoding="utf-8"))
    except (OSError, ValueError, json.JSONDecodeError):
        return None
    predicted = raw.get("predicted") if isinstance(raw, dict) else None
    value = predicted.get("epoch_s") if isinstance(predicted, dict) else None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else None
