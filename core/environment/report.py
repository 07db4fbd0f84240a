"""How a diagnosis is presented: the one-line summary and the JSON report (the terminal table is the CLI's).

Shared by ``yolostudio doctor`` and the Environment page so both say the same thing. The JSON report
is ``{"facts": {...}, "findings": [...]}`` (plus the per-check results); with ``private=True`` paths
under the user's home folder are abbreviated to ``~`` so the file can be attached to a bug report.
"""

from __future__ import annotations

from typing import Any

from core.environment.facts import EnvironmentFacts, abbreviate_home
from core.environment.findings import Evaluation, finding_json
from core.findings import by_severity
from core.i18n import tr

REPORT_VERSION = 1


def training_device(facts: EnvironmentFacts) -> dict[str, Any] | None:
    """The GPU training would use (torch's device 0 that passed its test kernel), or None for the CPU."""
    if not facts.torch.cuda_available:
        return None
    for device in facts.torch.devices:
        if device.kernel_ok is not False:
            return {"name": device.name, "memory_gb": device.memory_total_gb}
    return None


def summarize(facts: EnvironmentFacts, evaluation: Evaluation) -> tuple[str, str]:
    """(level, sentence) for the top of the page and the end of the table."""
    errors = evaluation.errors
    device = training_device(facts)
    if device is not None:
        if errors:
            return "error", tr("Not ready to train — here is why: {reason}", reason=errors[0].message)
        memory = f" ({device['memory_gb']:.0f} GB)" if device.get("memory_gb") else ""
        level = "warning" if any(f.severity == "warning" for f in evaluation.findings) else "ok"
        if facts.torch.hip:  # a ROCm build drives an AMD GPU through torch.cuda (core.environment.accelerator)
            return level, tr("Ready to train on {gpu}{memory} with ROCm (HIP {hip})", gpu=device["name"] or "GPU",
                             memory=memory, hip=facts.torch.hip)
        return level, tr("Ready to train on {gpu}{memory} with CUDA {cuda}", gpu=device["name"] or "GPU",
                         memory=memory, cuda=facts.torch.cuda or "?")
    if facts.nvml.gpus:
        reason = errors[0].message if errors else tr("PyTorch cannot use it")
        return "error", tr("Training would not use the GPU — here is why: {reason}", reason=reason)
    if errors:
        return "error", tr("Not ready to train — here is why: {reason}", reason=errors[0].message)
    # the no-gpu finding's own words end "training runs on the CPU": said once here, not twice (issue 32)
    reason = tr("no NVIDIA GPU was found") if any(f.code == "no-gpu" for f in evaluation.findings) else \
        tr("no usable GPU")
    return "info", tr("Training would run on the CPU — here is why: {reason}", reason=reason)


def report_dict(facts: EnvironmentFacts, evaluation: Evaluation, *, private: bool = False) -> dict[str, Any]:
    report = {
        "report_version": REPORT_VERSION,
        "facts": facts.to_dict(),
        "findings": [finding_json(f) for f in by_severity(evaluation.findings)],
        "checks": [{"key": c.key, "title": c.title, "status": c.status, "note": c.note,
                    "measured": c.measured} for c in evaluation.checks],
        "notes": list(evaluation.notes),
    }
    return abbreviate_home(report) if private else report
