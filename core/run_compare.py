"""Compare runs: the settings that differ and the figures side by side, as rows a table shows (pure).

The settings are each run's ``config.json`` training config (``core.evaluation.plan.run_training_config``),
flattened to dotted keys; a setting is listed when any two runs differ on it (a run without it shows
"—"). The accuracy is the run's newest stored evaluation when it has one (yolov5's validation of its best
weights, per class too), else its best epoch's mAP from training (no per-class figures: training logs
only the overall mAP); each column says which. Speed, data wait, GPU use and epochs are the run's
summary (``core.runs.store.RunInfo``), as the Runs table shows them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.i18n import tr
from core.runs.store import RunInfo

DASH = "—"


@dataclass(frozen=True)
class ComparedRun:
    info: RunInfo
    config: dict[str, Any]
    evaluation: dict[str, Any] | None  # the newest stored evaluation's result, or None


def gather(runs: list[RunInfo]) -> list[ComparedRun]:
    """Read each run's config and newest evaluation (disk: call it off the GUI thread)."""
    from core.evaluation.plan import run_training_config
    from core.evaluation.store import list_evaluations

    out = []
    for run in runs:
        evaluations = list_evaluations(Path(run.path))
        out.append(ComparedRun(run, run_training_config(Path(run.path)), evaluations[0] if evaluations else None))
    return out


def flatten(config: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in config.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(flatten(value, name + "."))
        else:
            flat[name] = value
    return flat


def differing_settings(configs: list[dict[str, Any]]) -> list[tuple[str, list[Any]]]:
    """(setting, its value in each run) for every setting on which the runs do not all agree, by name."""
    flat = [flatten(c) for c in configs]
    keys = sorted(set().union(*flat)) if flat else []
    missing = object()
    rows = []
    for key in keys:
        values = [f.get(key, missing) for f in flat]
        if len({repr(v) for v in values}) > 1:
            rows.append((key, [None if v is missing else v for v in values]))
    return rows


def _number(value: Any, digits: int = 3) -> str:
    return DASH if value is None else f"{float(value):.{digits}f}"


def _setting(value: Any) -> str:
    return DASH if value is None or value == "" else str(value)


def comparison_rows(runs: list[ComparedRun]) -> list[tuple[str, list[str]]]:
    """The table: (row title, one cell per run) — settings that differ, mAP overall and per class, speed."""
    rows = [(key, [_setting(v) for v in values]) for key, values in differing_settings([r.config for r in runs])]
    rows.append((tr("accuracy from"), [tr("evaluation ({split})", split=r.evaluation.get("split", "val"))
                                       if r.evaluation else tr("training's best epoch") for r in runs]))
    rows.append(("mAP@0.5", [_number(r.evaluation["metrics"]["map50"]) if r.evaluation else _number(r.info.best_map50)
                             for r in runs]))
    rows.append(("mAP@0.5:0.95", [_number(r.evaluation["metrics"]["map"]) if r.evaluation else
                                  _number(r.info.best_map50_95) for r in runs]))
    per_class = [{c["name"]: c.get("map50") for c in (r.evaluation or {}).get("per_class", [])} for r in runs]
    for name in dict.fromkeys(n for classes in per_class for n in classes):
        rows.append((tr("mAP@0.5 of {name}", name=name), [_number(classes.get(name)) for classes in per_class]))
    rows.append((tr("images/s"), [_number(r.info.images_per_s, 1) for r in runs]))
    rows.append((tr("data wait"), [DASH if r.info.data_wait_share is None else f"{100 * r.info.data_wait_share:.0f} %"
                                   for r in runs]))
    rows.append((tr("GPU busy"), [DASH if r.info.gpu_util_mean_percent is None else
                                  f"{r.info.gpu_util_mean_percent:.0f} %" for r in runs]))
    rows.append((tr("epochs done"), [f"{r.info.epochs_done}/{r.info.epochs_total or DASH}" for r in runs]))
    return rows
