"""One wizard pass as both front ends run it: facts in, the measure job's spec, the result document out.

The CLI verb (``yolostudio wizard``) and the Wizard page share these steps, so they recommend the same
settings from the same facts: ``read_inputs`` (the checker's facts, read quickly without torch, and the
validator's statistics), ``measure_spec`` (the ``wizard_measure`` worker job's spec; the faces start it through
``core.usecases.jobs.WizardMeasureDoor``), ``use_prepared`` (point
the config at an up-to-date prepared copy when the recommendation includes one) and ``result_document``
(the ``--json`` shape: config, reasons, predicted, commands, and the ``prepared_copy`` it asks for, which
``core.wizard.prepared_copy`` makes or refreshes before a run starts from it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.dataset.validate import Report, validate_dataset
from core.environment.facts import EnvironmentFacts
from core.i18n import tr
from core.wizard.commands import commands
from core.wizard.inputs import DatasetSummary, Goal, Hardware, Measurements, dataset_from_stats, hardware_from_facts
from core.training.options import choice_label, option_labels, train_options
from core.wizard.prepared_copy import DOC_KEY, CopyRequest, current_copy, request_for
from core.wizard.recommend import Recommendation, data_words
from core.wizard.rules import candidate_models, choose_batch, choose_imgsz, worker_counts
from core.workspace import app_cache_dir, runs_dir

MEASURE_BUDGET_S = 45.0  # plus worker start and imports: about a minute
MEASURE_TIMEOUT_S = 600.0


def quick_facts() -> EnvironmentFacts:
    """The checker's system and NVML facts, read in milliseconds without torch (the probe job reads torch)."""
    from core.environment.gather_nvml import gather_nvml
    from core.environment.gather_system import gather_system

    return EnvironmentFacts(system=gather_system(), nvml=gather_nvml())


def read_inputs(data: Path, workspace: Path, gpu_indices: list[int] | None,
                facts: EnvironmentFacts | None = None) -> tuple[Hardware, DatasetSummary, Report]:
    facts = facts or quick_facts()
    report = validate_dataset(data, cache_dir=app_cache_dir(workspace) / "dataset-check")
    return hardware_from_facts(facts, gpu_indices), dataset_from_stats(str(Path(data).absolute()), report.stats), report


def measure_spec(hw: Hardware, ds: DatasetSummary, goal: Goal, workspace: Path,
                 budget_s: float = MEASURE_BUDGET_S) -> dict[str, Any]:
    """The measure job's spec for the size and model the wizard is about to judge (the first candidate); the
    faces start it through its door (``core.usecases.jobs.WizardMeasureDoor``)."""
    imgsz = int(choose_imgsz(ds, goal, hw).value)
    model = candidate_models(hw, goal)[0] + ".yaml"
    batch = int(choose_batch(hw, ds, model, imgsz, True, Measurements()).value) // max(1, len(hw.gpus))
    spec = {"workspace": str(workspace), "data": ds.data_yaml, "imgsz": imgsz, "model": model,
            "batch": max(1, min(batch, 64)), "device": hw.device,
            "workers": worker_counts(hw.usable_cores, len(hw.gpus)), "budget_s": budget_s}
    return spec


def use_prepared(rec: Recommendation, workspace: Path) -> Path | None:
    """The up-to-date prepared copy the recommendation asks for (and the config now points at), or None."""
    request = request_for(str(rec.config["data"]), rec.prepare_imgsz)
    found = current_copy(request, workspace) if request is not None else None
    if found is not None:
        rec.config["data"] = str(found)
    return found


def prepared_out_dir(rec: Recommendation, workspace: Path, source: str) -> Path:
    return CopyRequest(Path(source).absolute(), int(rec.prepare_imgsz or 640)).out_dir(workspace)


def result_document(rec: Recommendation, m: Measurements, workspace: Path, *, source_data: str,
                    config_file: str | None = None) -> dict[str, Any]:
    """``yolostudio wizard --json``: {config, reasons, predicted, commands, …}; ``yolostudio train --config`` reads it."""
    run_dir = runs_dir(workspace) / str(rec.config.get("name") or "exp")
    request = request_for(source_data, rec.prepare_imgsz)  # train --config makes or refreshes it first
    cmds: dict[str, Any] = {}
    shown = rec.config
    if request is not None and rec.config["data"] == source_data:  # not made yet: first make it, then train on it
        cmds["prepare"] = f"yolostudio dataset prepare {source_data} --imgsz {rec.prepare_imgsz}"
        shown = {**rec.config, "data": str(request.data_yaml(workspace))}
    cmds.update(commands(shown, run_dir, config_file=config_file, sync_bn=rec.sync_bn))
    return {"config": rec.config, DOC_KEY: request.to_json() if request is not None else None,
            "reasons": rec.reasons_json(), "predicted": rec.predicted, "commands": cmds,
            "data_choice": rec.data_choice, "source_data": source_data, "estimated": rec.estimated,
            "failures": m.failures, "notes": rec.notes, "hours_note": rec.hours_note, "measurements": m.to_json()}


def step_words(step: Any) -> str:
    """A measurement step (``wizard_step.step``) for a person."""
    return {"cache": tr("cache size"), "loader": tr("data loader (originals)"), "prepared": tr("prepared copy"),
            "cached": tr("data loader with RAM cache"), "demand": tr("model speed"), "batch": tr("batch probe"),
            "amp": tr("AMP check"), "measure": tr("measuring")}.get(str(step), str(step))


def setting_words(name: str) -> str:
    """A recommended setting's name for a person: the Train form's label of that option ("workers" -> its
    label); ``amp``, which the wizard checks but no option sets, by its term."""
    if name == "amp":
        return tr("Mixed precision (AMP)")
    return option_labels().get(name, name)


def value_words(name: str, value: Any) -> str:
    """A recommended value for a person: the data choice's words, an option choice's label, "off" as a word;
    numbers, model files and devices as they are."""
    if name == "data" and isinstance(value, str):
        return data_words(value)
    if value == "off":
        return tr("off")
    option = next((o for o in train_options() if o.name == name and o.choices), None)
    return choice_label(option, value) if option is not None else str(value)
